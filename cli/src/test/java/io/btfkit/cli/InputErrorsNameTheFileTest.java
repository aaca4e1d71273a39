package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.BtfWriter;
import io.btfkit.core.TestData;
import io.btfkit.core.text.RawTextParser;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Errors found after loading — by a pass over what an input held, far from where the file was
 * named — still come out as {@code btfkit: FILE: message}.
 */
class InputErrorsNameTheFileTest {
    @TempDir
    Path tmp;

    private static void assertNamed(Cli r, int exit, Path file, String gist) {
        assertEquals(exit, r.exit, r.toString());
        String[] lines = r.err.strip().split("\n");
        assertEquals(1, lines.length, "one line: " + r.err);
        assertTrue(lines[0].startsWith("btfkit: " + file + ": " + gist), r.err);
        assertFalse(r.err.contains("at io.btfkit"), "no stack trace");
    }

    /** Two raw blobs back to back, given to a command that works on one BTF. */
    @Test
    void severalBlobsNamesTheFile() throws Exception {
        byte[] blob = BtfWriter.write(RawTextParser.parse("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n", null));
        Path f = Files.write(tmp.resolve("two.btf"), concat(blob, blob));
        assertNamed(Cli.run("dump", f.toString()), 1, f, "holds 2 BTF blobs back to back");
        assertNamed(Cli.run("stats", f.toString()), 1, f, "holds 2 BTF blobs back to back");
    }

    /** A gcc object whose .symtab is damaged: validate reads its symbols after loading. */
    @Test
    void symtabErrorOfValidateNamesTheFile() throws Exception {
        byte[] d = TestData.bytes(TestData.sample("gcc/queue.o"));
        ByteBuffer b = ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN);
        int shoff = (int) b.getLong(0x28);
        int shnum = b.getShort(0x3c) & 0xffff;
        int symtab = -1;
        for (int i = 0; i < shnum; i++) {
            if (b.getInt(shoff + i * 64 + 4) == 2) { // SHT_SYMTAB
                symtab = i;
                b.putLong(shoff + i * 64 + 0x38, 7); // sh_entsize
            }
        }
        assertTrue(symtab > 0, "queue.o has a .symtab");
        Path f = Files.write(tmp.resolve("queue.o"), d);
        assertNamed(Cli.run("validate", f.toString()), 2, f, "section header " + symtab + " (.symtab): entry size 7");
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
