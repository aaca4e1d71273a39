package io.btfkit.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.btfkit.core.Btf;
import io.btfkit.validate.Finding;
import io.btfkit.validate.Validator;
import java.util.List;

/**
 * Fuzzes the validator ({@link Validator}) on everything the readers accept: it must return
 * findings, never throw, whatever the types say (cycles, dangling sizes, absurd vlen...), and
 * stopping at the first finding must report the first of the full list's findings.
 *
 * <p>Input: raw BTF text or binary raw BTF ({@link Outcomes#parseAny}). Seeds: the sample
 * objects' BTF and the invalid-BTF cases of the validator's own tests, in raw text.
 */
class ValidatorFuzzTest {
    @FuzzTest
    void validate(byte[] data) {
        Btf btf = Outcomes.parseAny(data);
        if (btf == null) {
            return;
        }
        for (Validator.Profile profile : Validator.Profile.values()) {
            List<Finding> all = Validator.validate(btf, new Validator.Options(false, profile));
            List<Finding> first = Validator.validate(btf, new Validator.Options(true, profile));
            assertTrue(all.isEmpty() == first.isEmpty(), "stop-at-first disagrees with the full run on validity");
        }
    }
}
