package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.btfkit.core.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Lists the docs keep of what the code defines: the modules, the CI's packages, the batch commands. */
class DocsDriftTest {
    private static String read(String rel) throws IOException {
        return Files.readString(TestData.root().resolve(rel));
    }

    private static Set<String> all(Pattern p, String text) {
        Set<String> out = new TreeSet<>();
        Matcher m = p.matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void readmesLayoutNamesEveryModule() throws IOException {
        assertEquals(all(Pattern.compile("<module>([^<]+)</module>"), read("pom.xml")),
                all(Pattern.compile("(?m)^\\| `([a-z]+)` \\|"), read("README.md")));
    }

    @Test
    void readmeListsThePackagesCiInstalls() throws IOException {
        Matcher ci = Pattern.compile("for p in ([^;]+); do").matcher(read(".ci/run"));
        ci.find();
        Matcher readme = Pattern.compile("`apt-get install ([^`]+)`").matcher(read("README.md"));
        readme.find();
        assertEquals(new TreeSet<>(List.of(ci.group(1).trim().split("\\s+"))), new TreeSet<>(List.of(readme.group(1).trim().split("\\s+"))));
    }

    @Test
    void jsonMdListsEveryCommandWithSummaryJson() throws IOException {
        Set<String> commands = new TreeSet<>();
        for (var e : Main.commandLine().getSubcommands().entrySet()) {
            if (e.getValue().getCommandSpec().findOption("--summary-json") != null) {
                commands.add(e.getKey());
            }
        }
        Matcher m = Pattern.compile("--summary-json` on ([a-z, -]+)\\)").matcher(read("docs/JSON.md"));
        m.find();
        assertEquals(commands, new TreeSet<>(List.of(m.group(1).split(",\\s*"))));
    }
}
