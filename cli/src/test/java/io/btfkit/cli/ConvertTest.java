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
}
