package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.btfkit.core.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code btfkit convert}: raw to raw is byte-identical; text and byte-order conversions round trip. */
class ConvertTest {
    @TempDir
    Path tmp;

    @Test
    void rawToRawIsIdenticalOnVmlinux() throws Exception {
        Path in = TestData.vmlinux618();
        Path out = tmp.resolve("v.btf");
        Cli r = Cli.run("convert", in.toString(), "-o", out.toString());
        assertEquals(0, r.exit, r.toString());
        assertArrayEquals(Files.readAllBytes(in), Files.readAllBytes(out));
    }

    static Stream<String> modules() {
        return TestData.goldenModules().stream();
    }

    @ParameterizedTest
    @MethodSource("modules")
    void rawToRawIsIdenticalOnModules(String module) throws Exception {
        Path in = TestData.golden("modules/" + module + ".btf");
        Path out = tmp.resolve(module + ".btf");
        Cli r = Cli.run("convert", in.toString(), "--base", TestData.golden("vmlinux-6.1.0-56.btf").toString(),
                "-o", out.toString());
        assertEquals(0, r.exit, r.toString());
        assertArrayEquals(Files.readAllBytes(in), Files.readAllBytes(out));
    }

    @Test
    void bigEndianAndBackAndTextAndBack() throws Exception {
        Path in = TestData.vmlinux618();
        Path be = tmp.resolve("be.btf");
        Path le = tmp.resolve("le.btf");
        Path txt = tmp.resolve("v.txt");
        Path asm = tmp.resolve("asm.btf");
        assertEquals(0, Cli.run("convert", in.toString(), "--endian", "big", "-o", be.toString()).exit);
        assertEquals((byte) 0xeb, Files.readAllBytes(be)[0]);
        assertEquals(0, Cli.run("convert", be.toString(), "--endian", "little", "-o", le.toString()).exit);
        assertArrayEquals(Files.readAllBytes(in), Files.readAllBytes(le));
        assertEquals(0, Cli.run("convert", in.toString(), "--out-format", "text", "-o", txt.toString()).exit);
        Cli a = Cli.run("asm", txt.toString(), "-o", asm.toString());
        assertEquals(0, a.exit, a.toString());
        assertArrayEquals(Cli.run("dump", in.toString()).out, Cli.run("dump", asm.toString()).out,
                "asm(dump(x)) dumps as x does");
    }

    /**
     * A 129-byte BTF: 32-byte header, one type of kind 20 (which btfkit does not know), a layout
     * section of 21 kinds that describes it (info 0, elem 0), then the kinds 0-19 as the uapi
     * header has them.
     */
    static byte[] unknownKind() {
        int[][] sizes = {{0, 0}, {4, 0}, {0, 0}, {12, 0}, {0, 12}, {0, 12}, {0, 8}, {0, 0}, {0, 0}, {0, 0}, {0, 0},
            {0, 0}, {0, 0}, {0, 8}, {4, 0}, {0, 12}, {0, 0}, {4, 0}, {0, 0}, {0, 12}, {0, 0}};
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(129).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) 0xeb9f).put((byte) 1).put((byte) 0).putInt(32);
        b.putInt(0).putInt(12).putInt(12 + 84).putInt(1).putInt(12).putInt(84); // types, strings, layout
        b.putInt(0).putInt(20 << 24).putInt(0);
        for (int[] k : sizes) {
            b.put((byte) k[0]).put((byte) k[1]).putShort((short) 0);
        }
        b.put((byte) 0);
        return b.array();
    }

    /**
     * Issue 23: {@code --header layout} keeps the input's layout entries (its own 20-entry table
     * dropped kind 20), and {@code --header classic} cannot describe kind 20: exit 2, nothing
     * written (it wrote BTF no reader could read, with exit 0).
     */
    @Test
    void aKindOnlyTheLayoutDescribesKeepsItsLayout() throws Exception {
        Path in = tmp.resolve("unknown.btf");
        Files.write(in, unknownKind());
        assertEquals("[1] UNKNOWN '(anon)'\n", Cli.run("dump", in.toString()).outText());
        for (String header : new String[] {null, "layout"}) {
            Path out = tmp.resolve("out-" + header + ".btf");
            Cli r = header == null ? Cli.run("convert", in.toString(), "-o", out.toString())
                    : Cli.run("convert", in.toString(), "--header", header, "-o", out.toString());
            assertEquals(0, r.exit, r.toString());
            assertArrayEquals(Files.readAllBytes(in), Files.readAllBytes(out), "the input's layout, byte for byte");
        }
        Path classic = tmp.resolve("classic.btf");
        Cli r = Cli.run("convert", in.toString(), "--header", "classic", "-o", classic.toString());
        assertEquals(2, r.exit, r.toString());
        assertEquals("btfkit: " + in + ": type [1] is of kind 20, which only a layout section describes; a classic header"
                + " has none (keep the layout header: --header layout)\n", r.err);
        assertEquals(false, Files.exists(classic));
        Cli d = Cli.run("dedup", in.toString(), "--header", "classic", "-o", classic.toString());
        assertEquals(2, d.exit, d.toString());
        assertEquals(false, Files.exists(classic));
    }
}
