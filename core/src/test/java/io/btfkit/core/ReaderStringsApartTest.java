package io.btfkit.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.btfkit.core.permute.RandomBtf;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * {@link BtfReader#readSplitOut} (the string section given apart, as {@code minimize --out-dir}
 * reads a file) against a plain read of the same bytes: the same decision on damaged blobs, the
 * same types and strings when accepted, whatever the caller's buffer holds where the section
 * lies.
 */
class ReaderStringsApartTest {
    @Example
    void goldenKernelReadsAlike() {
        byte[] raw = TestData.bytes(TestData.golden("vmlinux-6.1.0-47.btf"));
        Btf plain = BtfReader.read(raw);
        Btf apart = readApart(raw, new Random(1));
        assertArrayEquals(plain.starts(), apart.starts());
        assertArrayEquals(plain.strings().bytes(), apart.strings().bytes());
        assertArrayEquals(Arrays.copyOf(plain.words(), plain.starts()[plain.ownTypeCount()]),
                Arrays.copyOf(apart.words(), apart.starts()[apart.ownTypeCount()]));
    }

    @Property(tries = 1000)
    void damagedBlobsDecideAlike(@ForAll long seed) {
        Random r = new Random(seed);
        Btf x = RandomBtf.of(r, null, 1 + r.nextInt(30));
        byte[] raw = BtfWriter.write(x);
        if (r.nextInt(4) == 0) {
            raw = Arrays.copyOf(raw, raw.length + 1 + r.nextInt(8)); // trailing bytes, zero or not
            raw[raw.length - 1] = (byte) r.nextInt(2);
        }
        for (int k = r.nextInt(4); k > 0; k--) {
            raw[r.nextInt(raw.length)] = (byte) (r.nextBoolean() ? 0 : r.nextInt(256));
        }
        BtfHeader h;
        try {
            h = BtfHeader.parse(raw, 0, raw.length);
        } catch (BtfFormatException e) {
            return; // no header: the caller reads such a file the ordinary way
        }
        Btf plain;
        try {
            plain = BtfReader.read(raw);
        } catch (BtfFormatException e) {
            plain = null;
        }
        Btf apart;
        try {
            apart = readApart(raw, r);
        } catch (BtfFormatException e) {
            apart = null;
        }
        assertEquals(plain != null, apart != null, "accepted by the plain read");
        if (plain != null) {
            assertArrayEquals(plain.starts(), apart.starts());
            assertArrayEquals(plain.strings().bytes(), apart.strings().bytes());
        }
    }

    /** The string section copied apart, and garbage where it lay in a copy of {@code raw}. */
    private static Btf readApart(byte[] raw, Random r) {
        BtfHeader h = BtfHeader.parse(raw, 0, raw.length);
        int at = (int) (h.hdrLen() + h.strOff());
        byte[] strings = Arrays.copyOfRange(raw, at, at + (int) h.strLen());
        byte[] data = raw.clone();
        for (int i = at; i < at + strings.length; i++) {
            data[i] = (byte) r.nextInt(256);
        }
        return BtfReader.readSplitOut(data, data.length, strings, new BtfReader.Scratch());
    }
}
