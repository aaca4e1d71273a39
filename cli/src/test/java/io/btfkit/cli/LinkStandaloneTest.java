package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code link --base B --standalone}: one self-contained BTF, the base's types first. With
 * {@code --no-dedup} the modules' types follow as they are (nothing merged), so the blob is
 * the base and the modules end to end.
 */
class LinkStandaloneTest {
    @TempDir
    Path tmp;

    private static final String BASE = TestData.golden("vmlinux-6.1.0-56.btf").toString();
    private static final String FIRST = TestData.golden("modules/ad7091r5.btf").toString();
    private static final String SECOND = TestData.golden("modules/dax_hmem.btf").toString();

    private static List<String> dumpLines(String... args) {
        Cli c = Cli.run(args);
        assertEquals(0, c.exit, c.toString());
        return Arrays.asList(c.outText().split("\n"));
    }

    private static int typeLines(List<String> dump) {
        return (int) dump.stream().filter(l -> l.startsWith("[")).count();
    }

    @Test
    void noDedupAppendsEveryModuleTypeAfterTheBase() {
        Path blob = tmp.resolve("all.btf");
        Cli link = Cli.run("link", "-q", "--base", BASE, "--standalone", "--no-dedup", FIRST, SECOND, "-o", blob.toString());
        assertEquals(0, link.exit, link.toString());
        List<String> all = dumpLines("dump", blob.toString());
        List<String> base = dumpLines("dump", BASE);
        List<String> first = dumpLines("dump", "--base", BASE, FIRST);
        List<String> second = dumpLines("dump", "--base", BASE, SECOND);
        assertEquals(typeLines(base) + typeLines(first) + typeLines(second), typeLines(all));
        // the base, then the first module with the ids it has on the base: line for line
        assertEquals(base, all.subList(0, base.size()));
        assertEquals(first, all.subList(base.size(), base.size() + first.size()));
    }

    @Test
    void withDedupTheModulesShareTypes() {
        Path deduped = tmp.resolve("d.btf");
        Path kept = tmp.resolve("k.btf");
        assertEquals(0, Cli.run("link", "-q", "--base", BASE, "--standalone", FIRST, SECOND, "-o", deduped.toString()).exit);
        assertEquals(0, Cli.run("link", "-q", "--base", BASE, "--standalone", "--no-dedup", FIRST, SECOND, "-o", kept.toString()).exit);
        assertTrue(typeLines(dumpLines("dump", deduped.toString())) < typeLines(dumpLines("dump", kept.toString())));
    }
}
