package io.btfkit.cheader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.TestData;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The C header of real BTF is byte-identical to {@code bpftool btf dump file F format c}
 * (bpftool 7.1): the 6.18 vmlinux, golden modules printed with their base, and every sample
 * object — live when bpftool is installed, and against bpftool outputs committed beside this
 * test otherwise.
 */
class CHeaderRealDataTest {
    /** Golden modules compared in full (each prints the whole 6.1 base: ~113k lines). */
    static final List<String> WITH_BASE = List.of("ocfs2", "mlx4_core", "surface_dtx", "test_static_key_base");

    static byte[] header(Btf btf, CHeaderOptions options) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        CHeaderPrinter.print(btf, bos, options);
        return bos.toByteArray();
    }

    static Path bpftool() {
        Path tool = TestData.requireTool("bpftool");
        return tool;
    }

    static byte[] bpftoolC(Path file, Path base) {
        List<String> cmd = new ArrayList<>(List.of(bpftool().toString()));
        if (base != null) {
            cmd.addAll(List.of("-B", base.toString()));
        }
        cmd.addAll(List.of("btf", "dump", "file", file.toString(), "format", "c"));
        return TestData.run(cmd);
    }

    /** Equal bytes, reporting the first differing line rather than two 5 MB arrays. */
    static void assertSameText(byte[] expected, byte[] actual, String what) {
        if (Arrays.equals(expected, actual)) {
            return;
        }
        String[] e = new String(expected, StandardCharsets.ISO_8859_1).split("\n", -1);
        String[] a = new String(actual, StandardCharsets.ISO_8859_1).split("\n", -1);
        int i = 0;
        while (i < e.length && i < a.length && e[i].equals(a[i])) {
            i++;
        }
        assertEquals(i < e.length ? e[i] : "<end>", i < a.length ? a[i] : "<end>", what + ": first difference at line " + (i + 1));
        assertArrayEquals(expected, actual, what);
    }

    @Test
    void vmlinux618IsBpftoolsVmlinuxH() {
        Path f = TestData.vmlinux618();
        byte[] expected = bpftoolC(f, null);
        Btf btf = BtfReader.read(TestData.bytes(f));
        assertSameText(expected, header(btf, CHeaderOptions.BPFTOOL_71), "vmlinux-6.18");
    }

    static Stream<String> withBase() {
        return WITH_BASE.stream();
    }

    @ParameterizedTest
    @MethodSource("withBase")
    void goldenModuleWithBaseIsBpftoolsOutput(String module) {
        Path file = TestData.golden("modules/" + module + ".btf");
        byte[] expected = bpftoolC(file, TestData.golden("vmlinux-6.1.0-56.btf"));
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        CHeaderPrinter.printWithBase(CSamples.goldenModule(module), bos);
        assertSameText(expected, bos.toByteArray(), module);
    }

    /**
     * Without the base, a split BTF prints its own types and the base types they need, as
     * libbpf's {@code btf_dump__dump_type} does for each split id (checked with libbpf 1.1.2;
     * committed because bpftool 7.1 has no way to ask for it).
     */
    @Test
    void goldenModuleAloneIsLibbpfsDumpOfItsSplitIds() {
        byte[] actual = header(CSamples.goldenModule("serio_raw"), CHeaderOptions.BPFTOOL_71);
        assertSameText(CSamples.resource("serio_raw.split.h"), actual, "serio_raw");
    }

    static Stream<String> samples() {
        return CSamples.OBJECTS.stream();
    }

    @ParameterizedTest
    @MethodSource("samples")
    void sampleIsBpftoolsOutput(String name) {
        CSamples.Sample s = CSamples.load(name);
        assertSameText(bpftoolC(s.path(), null), header(s.btf(), s.options()), name);
    }

    /** bpftool 7.1's output for two samples, committed: the test has teeth without bpftool. */
    @Test
    void committedBpftoolOutputsOfSamples() {
        for (String name : List.of("gcc/main.o", "bpf/net_stats.bpf.o")) {
            CSamples.Sample s = CSamples.load(name);
            String file = name.substring(name.indexOf('/') + 1) + ".h";
            assertSameText(CSamples.resource(file), header(s.btf(), s.options()), name);
        }
        String main = new String(CSamples.resource("main.o.h"), StandardCharsets.ISO_8859_1);
        assertTrue(main.contains("struct worker;\n") && main.contains("\tu32 prio: 4;\n"), "the committed file is the real thing");
    }
}
