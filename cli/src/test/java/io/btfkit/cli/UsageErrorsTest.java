package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mistyped command line gets btfkit's words, not picocli's parser's: the nearest command,
 * option or type ("did you mean"), how many arguments a command takes; exit 2, and the line that
 * says where help is.
 */
class UsageErrorsTest {
    @TempDir
    Path tmp;

    private static void assertUsage(Cli r, String firstLine, String helpLine) {
        assertEquals(2, r.exit, r.toString());
        assertEquals(firstLine + "\n" + helpLine + "\n", r.err);
        assertEquals(0, r.out.length);
    }

    @Test
    void anUnknownCommandSuggestsTheNearest() {
        Cli r = Cli.run("dumb", "x.btf");
        assertEquals(2, r.exit, r.toString());
        assertTrue(r.err.startsWith("btfkit: unknown command 'dumb' (did you mean 'dump'?); the commands: dump, convert,"), r.err);
        assertTrue(r.err.endsWith("\nTry 'btfkit --help' for usage.\n"), r.err);
        assertTrue(Cli.run("frobnicate").err.startsWith("btfkit: unknown command 'frobnicate'; the commands: "));
    }

    @Test
    void anUnknownOptionSuggestsTheNearest() {
        assertUsage(Cli.run("dump", "--fromat", "c", "x.btf"), "btfkit: dump: unknown option '--fromat' (did you mean '--format'?)",
                "Try 'btfkit help dump' for usage.");
        assertUsage(Cli.run("dedup", "x", "--out-dri=d"), "btfkit: dedup: unknown option '--out-dri' (did you mean '--out-dir'?)",
                "Try 'btfkit help dedup' for usage.");
        assertUsage(Cli.run("stats", "x", "--zzzzzz"), "btfkit: stats: unknown option '--zzzzzz'", "Try 'btfkit help stats' for usage.");
    }

    @Test
    void tooManyArgumentsSaysHowManyTheCommandTakes() {
        assertUsage(Cli.run("stats", "a", "b"), "btfkit: stats: too many arguments: 'b' (stats takes 1: INPUT)",
                "Try 'btfkit help stats' for usage.");
        assertUsage(Cli.run("diff", "a", "b", "c", "d"), "btfkit: diff: too many arguments: 'c', 'd' (diff takes 2: A B)",
                "Try 'btfkit help diff' for usage.");
    }

    @Test
    void aMistypedRootSuggestsTheType() {
        Path vmlinux = TestData.golden("vmlinux-6.1.0-56.btf");
        Cli r = Cli.run("dump", vmlinux.toString(), "--format", "c", "--root", "task_strct");
        assertEquals(2, r.exit, r.toString());
        assertEquals("btfkit: " + vmlinux + ": --root task_strct: no type named 'task_strct' (did you mean 'task_struct'?)\n", r.err);
    }

    @Test
    void asmWritesNoElf() {
        Path text = tmp.resolve("t.txt");
        Path out = tmp.resolve("p.elf");
        assertEquals(0, Cli.run("dump", TestData.sample("gcc/job.o").toString(), "-o", text.toString()).exit);
        Cli r = Cli.run("asm", text.toString(), "--out-format", "elf", "-o", out.toString());
        assertEquals(2, r.exit, r.toString());
        assertTrue(r.err.contains("'--out-format'") && r.err.contains("[raw, text]"), r.err);
        assertFalse(Files.exists(out), "nothing written");
        assertEquals(2, Cli.run("link", text.toString(), "--out-format", "elf", "-o", out.toString()).exit);
        assertFalse(Files.exists(out), "nothing written");
    }
}
