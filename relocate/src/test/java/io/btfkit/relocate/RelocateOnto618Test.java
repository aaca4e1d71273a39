package io.btfkit.relocate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.TestData;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * No Debian 6.1 module relocates onto a 6.18 vmlinux: 'char' lost its signed encoding there.
 * Every golden module must fail, and the report must say so for 'char' among everything else.
 */
class RelocateOnto618Test {

    @Test
    void everyGoldenModuleFailsWithCharEncoding() {
        List<String> modules = TestData.goldenModules();
        Assumptions.assumeFalse(modules.isEmpty(), "skipped: no golden modules available");
        NewBaseIndex v618 = NewBaseIndex.of(BtfReader.read(TestData.bytes(TestData.vmlinux618())));
        int withChar = 0;
        for (String m : modules) {
            Btf dist = BtfReader.read(TestData.bytes(TestData.golden("distill/" + m + ".base")));
            Btf split = BtfReader.read(TestData.bytes(TestData.golden("distill/" + m + ".split")), dist);
            RelocationException e = assertThrows(RelocationException.class, () -> Relocator.relocate(split, v618), m);
            boolean usesChar = dist.findByName("char", -1) > 0;
            boolean charReported = e.problems().stream()
                    .anyMatch(p -> p.name().equals("char") && p.reason() == Problem.Reason.ENCODING_DIFFERS);
            assertEquals(usesChar, charReported, m + ": " + e.getMessage());
            withChar += charReported ? 1 : 0;
        }
        assertTrue(withChar > 0, "some golden module uses char");
    }
}
