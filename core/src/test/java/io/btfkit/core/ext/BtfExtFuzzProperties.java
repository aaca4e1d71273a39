package io.btfkit.core.ext;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.BtfFormatException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Damaged .BTF.ext of the samples: reading either succeeds or throws BtfFormatException with a
 * one-line message; what is read writes back to bytes that read to the same thing.
 */
class BtfExtFuzzProperties {
    private static final int[] AWKWARD = {0, 1, 2, 3, 4, 7, 8, 12, 16, 24, 28, 32, 0xff, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff};

    @Property(tries = 500)
    void damagedExtFailsCleanly(@ForAll long seed) {
        Random r = new Random(seed);
        ExtSamples.Sample s = ExtSamples.load(ExtSamples.OBJECTS.get(r.nextInt(ExtSamples.OBJECTS.size())));
        byte[] d = s.extBytes().clone();
        BtfExt original = s.ext();
        ByteBuffer b = ByteBuffer.wrap(d).order(original.order());
        for (int e = 1 + r.nextInt(3); e > 0; e--) {
            int at = r.nextInt(3) == 0 ? r.nextInt(32) & ~3 : (r.nextInt(d.length - 4) & ~3);
            if (r.nextBoolean()) {
                b.putInt(at, AWKWARD[r.nextInt(AWKWARD.length)]);
            } else {
                d[at + r.nextInt(4)] = (byte) r.nextInt(256);
            }
        }
        if (r.nextInt(6) == 0) {
            d = Arrays.copyOf(d, r.nextInt(d.length + 16));
        }
        BtfExt ext;
        try {
            ext = BtfExtReader.read(d);
        } catch (BtfFormatException expected) {
            assertTrue(!expected.getMessage().isEmpty() && !expected.getMessage().contains("\n"));
            return;
        }
        byte[] out = BtfExtWriter.write(ext);
        assertArrayEquals(out, BtfExtWriter.write(BtfExtReader.read(out)));
    }
}
