package io.btfkit.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.btfkit.core.ext.BtfExt;
import io.btfkit.core.ext.BtfExtReader;
import io.btfkit.core.ext.BtfExtWriter;
import java.nio.ByteOrder;

/**
 * Fuzzes the {@code .BTF.ext} reader ({@link BtfExtReader}). What it accepts must list its
 * references and write to bytes that read back and write again identically (the canonical
 * form is a fixed point).
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
}
