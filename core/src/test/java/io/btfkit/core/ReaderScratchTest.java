package io.btfkit.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.permute.RandomBtf;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Reading into a reused {@link BtfReader.Scratch} decides and reads exactly as an ordinary
 * read: the same BTF (types, index, strings) for the golden kernels read one after another into
 * one scratch, and for damaged random BTF the same result or the same error, although the
 * scratch's arrays are longer than the input and hold the previous input's words.
 */
class ReaderScratchTest {
    /** Shared by the tries: each reads into what the previous ones left. */
    private static final BtfReader.Scratch SCRATCH = new BtfReader.Scratch();

    @Example
    void goldenKernelsOneAfterAnother() {
        BtfReader.Scratch scratch = new BtfReader.Scratch();
        for (Path k : new Path[] {TestData.vmlinux618(), TestData.golden("vmlinux-6.1.0-47.btf"),
                TestData.golden("vmlinux-6.1.0-56-cloud.btf"), TestData.vmlinux618()}) {
            byte[] raw = TestData.bytes(k);
            assertSame(BtfReader.read(raw), BtfReader.read(raw, 0, raw.length, null, scratch), k.toString());
        }
    }

    @Property(tries = 1000)
    void damagedInputsReadAlike(@ForAll long seed) {
        Random r = new Random(seed);
        if (r.nextInt(10) == 0) {
            // a larger input first: the scratch is then longer than what follows
            byte[] big = BtfWriter.write(RandomBtf.of(r, null, 100 + r.nextInt(200)));
            BtfReader.read(big, 0, big.length, null, SCRATCH);
        }
        byte[] raw = BtfWriter.write(RandomBtf.of(r, null, 1 + r.nextInt(30)));
        for (int k = r.nextInt(3); k > 0; k--) {
            // mostly the type section's words (after the 24-byte header), sometimes the header
            int at = r.nextInt(5) == 0 ? r.nextInt(24) : 24 + r.nextInt(raw.length - 24);
            raw[at] = (byte) (r.nextInt(3) == 0 ? r.nextInt(256) : raw[at] + r.nextInt(5) - 2);
        }
        Btf plain;
        String plainError = null;
        try {
            plain = BtfReader.read(raw);
        } catch (BtfFormatException e) {
            plain = null;
            plainError = e.getMessage();
        }
        Btf reused;
        String reusedError = null;
        try {
            reused = BtfReader.read(raw, 0, raw.length, null, SCRATCH);
        } catch (BtfFormatException e) {
            reused = null;
            reusedError = e.getMessage();
        }
        assertEquals(plainError, reusedError);
        if (plain != null) {
            assertSame(plain, reused, "seed " + seed);
        }
    }

    private static void assertSame(Btf expected, Btf actual, String what) {
        assertArrayEquals(expected.starts(), actual.starts(), what);
        int used = expected.starts()[expected.ownTypeCount()];
        assertTrue(actual.words().length >= used, what);
        assertArrayEquals(expected.words(), Arrays.copyOf(actual.words(), used), what);
        assertArrayEquals(expected.strings().bytes(), actual.strings().bytes(), what);
        assertEquals(expected.format(), actual.format(), what);
        assertArrayEquals(BtfWriter.write(expected), BtfWriter.write(actual), what);
    }
}
