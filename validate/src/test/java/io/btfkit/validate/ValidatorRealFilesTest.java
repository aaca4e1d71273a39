package io.btfkit.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real BTF that kernels load (vmlinux, module BTF) and libbpf's reference outputs on it
 * (dedup, distill, relocate) break no rule, in either profile.
 */
class ValidatorRealFilesTest {
    private static final Map<String, Btf> BASES = new HashMap<>();

    private static synchronized Btf base(String rel) {
        return BASES.computeIfAbsent(rel, r -> BtfReader.read(TestData.bytes(TestData.golden(r))));
    }

    private static void assertValid(Btf btf, String what) {
        List<Finding> kernel = Validator.validate(btf, Validator.Options.ALL);
        assertEquals(List.of(), kernel, what + " (kernel profile)");
        List<Finding> structural = Validator.validate(btf, Validator.Options.STRUCTURAL);
        assertEquals(List.of(), structural, what + " (structural profile)");
        Validator.checkOutput(btf);
    }

    @Test
    void vmlinux618IsValid() {
        Btf btf = BtfReader.read(TestData.bytes(TestData.vmlinux618()));
        assertValid(btf, "vmlinux 6.18");
    }

    @ParameterizedTest
    @ValueSource(strings = {"vmlinux-6.1.0-56.btf", "vmlinux-6.1.0-47.btf", "vmlinux-6.1.0-56-cloud.btf"})
    void goldenVmlinuxIsValid(String name) {
        assertValid(base(name), name);
    }

    static Stream<String> modules() {
        return TestData.goldenModules().stream();
    }

    @ParameterizedTest
    @MethodSource("modules")
    void moduleAndItsLibbpfOutputsAreValid(String module) {
        Btf vmlinux = base("vmlinux-6.1.0-56.btf");
        assertValid(BtfReader.read(TestData.bytes(TestData.golden("modules/" + module + ".btf")), vmlinux), "module " + module);
        assertValid(BtfReader.read(TestData.bytes(TestData.golden("dedup/" + module + ".btf")), vmlinux), "dedup " + module);
        Btf distilledBase = BtfReader.read(TestData.bytes(TestData.golden("distill/" + module + ".base")));
        assertValid(distilledBase, "distilled base " + module);
        assertValid(BtfReader.read(TestData.bytes(TestData.golden("distill/" + module + ".split")), distilledBase),
                "distilled split " + module);
    }

    static Stream<String[]> relocated() {
        List<String[]> cases = new ArrayList<>();
        Path dir = TestData.shared().resolve("golden/relocate");
        for (String target : new String[] {"6.1.0-56", "6.1.0-47", "6.1.0-56-cloud"}) {
            for (String module : TestData.goldenModules()) {
                if (Files.exists(dir.resolve("onto-" + target).resolve(module + ".btf"))) {
                    cases.add(new String[] {target, module});
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest
    @MethodSource("relocated")
    void relocatedSplitIsValidOnItsNewBase(String target, String module) {
        Btf base = base("vmlinux-" + target + ".btf");
        Btf split = BtfReader.read(TestData.bytes(TestData.golden("relocate/onto-" + target + "/" + module + ".btf")), base);
        assertTrue(split.isSplit());
        assertValid(split, "relocated " + module + " onto " + target);
    }
}
