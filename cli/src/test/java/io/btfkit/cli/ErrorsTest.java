package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Errors reach the user as one line {@code btfkit: FILE: message} with exit status 2 (malformed
 * input, usage) or 1 (operation impossible), never a stack trace, and leave no output behind.
 */
class ErrorsTest {
    @TempDir
    Path tmp;

    private static void assertOneLine(Cli r, int exit, String file, String gist) {
        assertEquals(exit, r.exit, r.toString());
        String[] lines = r.err.strip().split("\n");
        assertEquals(1, lines.length, "one line: " + r.err);
        assertTrue(lines[0].startsWith("btfkit: " + file + ": "), r.err);
        assertTrue(lines[0].contains(gist), r.err);
        assertFalse(r.err.contains("at io.btfkit"), "no stack trace");
    }

    @Test
    void truncatedHeader() throws Exception {
        Path f = tmp.resolve("short.btf");
        Files.write(f, new byte[] {(byte) 0x9f, (byte) 0xeb, 1, 0, 24, 0});
        assertOneLine(Cli.run("dump", f.toString()), 2, f.toString(), "truncated BTF header");
    }

    @Test
    void missingFile() {
        Path f = tmp.resolve("nope.btf");
        assertOneLine(Cli.run("stats", f.toString()), 2, f.toString(), "no such file");
    }

    @Test
    void splitWithoutBaseSaysSo() {
        Path f = TestData.golden("modules/roles.btf");
        assertOneLine(Cli.run("dump", f.toString()), 2, f.toString(), "give its base with --base");
    }

    @Test
    void badBaseIsNamed() throws Exception {
        Path base = tmp.resolve("base.btf");
        Files.write(base, "not btf at all".getBytes());
        Path f = TestData.golden("modules/roles.btf");
        assertOneLine(Cli.run("dump", f.toString(), "--base", base.toString()), 2, base.toString(), "not BTF");
    }

    @Test
    void garbageTextLineNamesTheLine() throws Exception {
        Path f = tmp.resolve("bad.txt");
        Files.writeString(f, "[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n[2] PTR '(anon)' tipe_id=1\n");
        assertOneLine(Cli.run("asm", f.toString(), "-o", tmp.resolve("o.btf").toString()), 2, f.toString(), "line 2");
        assertFalse(Files.exists(tmp.resolve("o.btf")), "no output written");
    }

    @Test
    void usageErrorIsExit2WithHint() {
        Cli r = Cli.run("dedup");
        assertEquals(2, r.exit);
        assertTrue(r.err.contains("Try 'btfkit help dedup'"), r.err);
    }

    @Test
    void neverWritesOverTheInput() throws Exception {
        Path in = tmp.resolve("v.btf");
        Files.copy(TestData.golden("vmlinux-6.1.0-47.btf"), in);
        byte[] before = Files.readAllBytes(in);
        Cli r = Cli.run("convert", in.toString(), "--endian", "big", "-o", in.toString());
        assertOneLine(r, 2, in.toString(), "overwrite an input");
        assertArrayEquals(before, Files.readAllBytes(in));
        assertEquals(0, Cli.run("convert", in.toString(), "--endian", "big", "--in-place", "-o", in.toString()).exit);
        assertEquals((byte) 0xeb, Files.readAllBytes(in)[0]);
    }

    @Test
    void failedRelocationWritesNothingAndListsEveryProblem() throws Exception {
        Path out = tmp.resolve("r.btf");
        Cli r = Cli.run("relocate", TestData.golden("distill/roles.split").toString(),
                "--dist-base", TestData.golden("distill/roles.base").toString(),
                "--base", TestData.golden("vmlinux-6.1.0-47.btf").toString(), "-o", out.toString());
        assertEquals(1, r.exit, r.toString());
        assertTrue(r.err.contains("STRUCT 'device'"), r.err);
        assertFalse(Files.exists(out));
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(0, s.count(), "no temporary file left behind");
        }
    }
}
