package io.btfkit.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.btfkit.core.Btf;
import io.btfkit.validate.Validator;
import io.btfkit.dedup.DedupResult;
import io.btfkit.dedup.Deduplicator;

/**
 * Fuzzes deduplication ({@link Deduplicator#dedup(Btf)}) on valid inputs: any BTF that passes
 * the structural validator (the rules every output must meet) dedups without an exception,
 * into BTF that passes them too, no larger than its input, and deduplicating that again
 * changes nothing (dedup is idempotent).
 *
 * <p>Input: raw BTF text or binary raw BTF ({@link Outcomes#parseAny}). Seeds: the sample
 * objects' BTF and small hand-written graphs (cycles, forward declarations, duplicates).
 */
class DedupFuzzTest {
    @FuzzTest
    void dedup(byte[] data) {
        Btf btf = Outcomes.parseAny(data);
        if (btf == null || !Validator.validate(btf, Validator.Options.STRUCTURAL.withStopAtFirst(true)).isEmpty()) {
            return;
        }
        DedupResult once = Deduplicator.dedup(btf);
        Validator.checkOutput(once.btf());
        assertTrue(once.btf().typeCount() <= btf.typeCount(), "dedup added types");
        DedupResult twice = Deduplicator.dedup(once.btf());
        assertEquals(once.btf().typeCount(), twice.btf().typeCount(), "dedup is not idempotent");
    }
}
