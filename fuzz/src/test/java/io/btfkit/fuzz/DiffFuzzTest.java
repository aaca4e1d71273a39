package io.btfkit.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.btfkit.core.Btf;
import io.btfkit.diff.BtfDiff;
import io.btfkit.diff.DiffJsonPrinter;
import io.btfkit.diff.DiffReport;
import io.btfkit.diff.DiffTextPrinter;
import io.btfkit.diff.Status;
import java.util.Arrays;

/**
 * Fuzzes the structural diff ({@link BtfDiff}) on pairs of inputs the readers accept: it
 * reports or refuses with a message, never throws anything else, prints as text and JSON, and
 * swapping the inputs swaps added and removed (the pairing of several definitions of one name
 * does not depend on which side comes first).
 *
 * <p>Input: a 16-bit little-endian length n, then n bytes of side a, then side b; each side raw
 * BTF text or binary raw BTF ({@link Outcomes#parseAny}). Seeds: pairs of the sample objects'
 * BTF, a type graph against itself, and issue 17's shapes (many definitions of one name,
 * prototypes whose parameters point at prototypes).
 */
class DiffFuzzTest {
    @FuzzTest
    void diff(byte[] data) {
        if (data.length < 2) {
            return;
        }
        int n = Math.min(data.length - 2, (data[0] & 0xff) | (data[1] & 0xff) << 8);
        Btf a = Outcomes.parseAny(Arrays.copyOfRange(data, 2, 2 + n));
        Btf b = Outcomes.parseAny(Arrays.copyOfRange(data, 2 + n, data.length));
        if (a == null || b == null) {
            return;
        }
        DiffReport ab = Outcomes.orRejected(() -> BtfDiff.diff(a, b));
        if (ab == null) {
            return;
        }
        DiffTextPrinter.print(ab);
        DiffJsonPrinter.print(ab);
        DiffReport ba = Outcomes.orRejected(() -> BtfDiff.diff(b, a));
        if (ba == null) {
            return;
        }
        assertEquals(ab.count(Status.ADDED), ba.count(Status.REMOVED), "added a->b vs removed b->a");
        assertEquals(ab.count(Status.REMOVED), ba.count(Status.ADDED), "removed a->b vs added b->a");
    }
}
