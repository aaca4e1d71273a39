package io.btfkit.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.btfkit.core.Btf;
import io.btfkit.core.BtfHeader;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.text.RawTextPrinter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Fuzzes the raw BTF reader ({@link BtfReader}), standalone and split. Whatever it accepts must
 * be usable by the passes that trust it: it prints as raw text, and writing it gives bytes that
 * read back to the same model (and, when the input already had the canonical layout, the very
 * input bytes: {@code write(read(x)) == x}).
 *
 * <p>Seeds: the {@code .BTF} sections of the shipped sample objects, and hand-damaged variants.
 */
class RawBtfFuzzTest {
    @FuzzTest
    void standalone(byte[] data) {
        Btf btf = Outcomes.orRejected(() -> BtfReader.read(data));
        if (btf != null) {
            checkUsable(btf, data);
        }
    }

    /**
     * Input: a little-endian u32 length, that many bytes of base BTF, then split BTF on it. Seeds
     * are libbpf's distilled bases of real modules with their split BTF.
     */
    @FuzzTest
    void split(byte[] data) {
        if (data.length < 4) {
            return;
        }
        long baseLen = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).getInt(0) & 0xffffffffL;
        if (baseLen > data.length - 4) {
            return;
        }
        int splitAt = 4 + (int) baseLen;
        Btf base = Outcomes.orRejected(() -> BtfReader.read(data, 4, (int) baseLen, null));
        if (base == null) {
            return;
        }
        Btf btf = Outcomes.orRejected(() -> BtfReader.read(data, splitAt, data.length - splitAt, base));
        if (btf != null) {
            RawTextPrinter.toText(btf);
            byte[] out = BtfWriter.write(btf);
            assertArrayEquals(out, BtfWriter.write(BtfReader.read(out, base)));
        }
    }

    private static void checkUsable(Btf btf, byte[] data) {
        RawTextPrinter.toText(btf);
        byte[] out = BtfWriter.write(btf);
        Btf again = BtfReader.read(out);
        assertEquals(btf.typeCount(), again.typeCount());
        assertArrayEquals(out, BtfWriter.write(again));
        BtfHeader h = BtfHeader.parse(data, 0, data.length);
        if (h.isCanonical() && h.blobLength() == data.length) {
            assertArrayEquals(data, out, "write(read(x)) differs from a canonically laid out input");
        }
    }
}
