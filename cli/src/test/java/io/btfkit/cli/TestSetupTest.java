package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The test set-up every module shares: one JUnit configuration, skips that say why. */
class TestSetupTest {
    /**
     * core's test-jar (helpers every module uses) carries no junit-platform.properties: with the
     * module's own, the platform would find two and warn before every test class.
     */
    @Test
    void oneJunitConfigurationOnTheClassPath() throws IOException {
        List<URL> found = Collections.list(getClass().getClassLoader().getResources("junit-platform.properties"));
        assertEquals(1, found.size(), found.toString());
    }

    /** A test that needs the libbpf helper asks TestData.requireTool, whose skip line gives the reason. */
    @Test
    void noModuleSkipsOnBtfrefWithoutItsReason() throws IOException {
        List<String> bad = new ArrayList<>();
        try (Stream<Path> files = Files.walk(TestData.root())) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/test/"))::iterator) {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                if (text.contains("\"skipped: btfref (libbpf helper) not available\"")) {
                    bad.add(TestData.root().relativize(f).toString());
                }
            }
        }
        assertTrue(bad.isEmpty(), "skip without the reason in " + bad);
    }
}
