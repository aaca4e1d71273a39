package io.btfkit.distill;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.TestData;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Distilling each golden module reproduces libbpf's distilled base and new split byte for byte. */
class DistillGoldenTest {
    private static Btf vmlinux;

    static Stream<String> modules() {
        List<String> names = TestData.goldenModules();
        return names.isEmpty() ? Stream.of("(none)") : names.stream();
    }

    static synchronized Btf vmlinux() {
        if (vmlinux == null) {
            vmlinux = BtfReader.read(TestData.bytes(TestData.golden("vmlinux-6.1.0-56.btf")));
        }
        return vmlinux;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modules")
    void distillMatchesLibbpf(String module) {
        Assumptions.assumeFalse(module.equals("(none)"), "skipped: no golden modules available");
        Btf split = BtfReader.read(TestData.bytes(TestData.golden("modules/" + module + ".btf")), vmlinux());
        Distiller.Result r = Distiller.distill(split);
        assertSame(r.distilledBase(), r.newSplit().base());
        assertArrayEquals(TestData.bytes(TestData.golden("distill/" + module + ".base")), BtfWriter.write(r.distilledBase()),
                "distilled base of " + module);
        assertArrayEquals(TestData.bytes(TestData.golden("distill/" + module + ".split")), BtfWriter.write(r.newSplit()),
                "new split of " + module);
    }
}
