package io.btfkit.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.btfkit.core.ext.BtfExt;
import io.btfkit.core.ext.BtfExtReader;
import io.btfkit.core.ext.BtfExtWriter;
import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.dedup.DedupResult;
import io.btfkit.dedup.Deduplicator;
import java.nio.ByteOrder;

/**
 * Fuzzes the {@code .BTF.ext} reader ({@link BtfExtReader}). What it accepts must list its
 * references and write to bytes that read back and write again identically (the canonical
 * form is a fixed point).
 *
 * <p>{@link #remap}: the fuzzed {@code .BTF.ext} goes with the {@code .BTF} of the
 * task_trace sample through dedup, which remaps its type ids and string offsets: a record
 * referring past the BTF must be rejected with a message, and what dedup accepts must come out
 * with every reference naming a type or string of the output.
 *
 * <p>Seeds: the {@code .BTF.ext} sections of the clang BPF samples (both byte orders).
 */
class BtfExtFuzzTest {
    @FuzzTest
    void ext(byte[] data) {
        BtfExt ext = Outcomes.orRejected(() -> BtfExtReader.read(data));
        if (ext == null) {
            return;
        }
        ext.forEachReference((kind, field, section, record, value) -> assertTrue(section >= 0 && record >= -1
                && record < ext.info(kind).recordCount(section), "reference outside its block"));
        byte[] out = BtfExtWriter.write(ext);
        assertArrayEquals(out, BtfExtWriter.write(BtfExtReader.read(out)));
        assertArrayEquals(out, BtfExtWriter.write(ext.remap(id -> id, off -> off)));
        BtfExt swapped = Outcomes.orRejected(() -> ext.withOrder(ext.order() == ByteOrder.LITTLE_ENDIAN
                ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN));
        if (swapped != null) {
            assertArrayEquals(out, BtfExtWriter.write(BtfExtReader.read(BtfExtWriter.write(swapped)).withOrder(ext.order())));
        }
    }

    /** The .BTF of the task_trace sample, which the remap target's .BTF.ext records refer into. */
    private static final Btf TASK_TRACE = BtfReader.read(resource("RawBtfFuzzTestInputs/standalone/task_trace.bpf.btf"));

    @FuzzTest
    void remap(byte[] data) {
        BtfExt ext = Outcomes.orRejected(() -> BtfExtReader.read(data));
        if (ext == null) {
            return;
        }
        DedupResult r = Outcomes.orRejected(() -> Deduplicator.dedup(TASK_TRACE, ext, null));
        if (r != null) {
            r.ext().checkAgainst(r.btf()); // every remapped reference resolves in the output
        }
    }

    private static byte[] resource(String name) {
        try (java.io.InputStream in = BtfExtFuzzTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing seed " + name);
            }
            return in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
