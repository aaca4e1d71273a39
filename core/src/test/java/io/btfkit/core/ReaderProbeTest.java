package io.btfkit.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.btfkit.core.permute.RandomBtf;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * A read through a {@link BtfReader.Scratch} with a {@link NameProbe} accepts and rejects what
 * a plain read does, gives the same type index, and lists exactly the ids whose kind and name
 * pass the probe (each type tested on its own, after the read); a read that does not probe
 * (split BTF, or one the general passes read) leaves no list behind from an earlier one.
 */
class ReaderProbeTest {
    @Example
    void goldenKernelsListWhatPasses() {
        Random r = new Random(16);
        for (Path k : new Path[] {TestData.vmlinux618(), TestData.golden("vmlinux-6.1.0-47.btf")}) {
            byte[] raw = TestData.bytes(k);
            Btf plain = BtfReader.read(raw);
            for (NameProbe p : new NameProbe[] {probe(r, false), probe(r, true), probe(r, false)}) {
                BtfReader.Scratch scratch = new BtfReader.Scratch();
                scratch.probe(p);
                Btf probed = BtfReader.read(raw, 0, raw.length, null, scratch);
                assertArrayEquals(plain.starts(), probed.starts(), k.toString());
                assertArrayEquals(passing(plain, p), Arrays.copyOf(scratch.probedIds(), scratch.probedCount()), k.toString());
            }
        }
    }

    @Property(tries = 1000)
    void damagedBtfDecidesAlikeAndListsWhatPasses(@ForAll long seed) {
        Random r = new Random(seed);
        Btf x = RandomBtf.of(r, null, 1 + r.nextInt(30));
        byte[] raw = BtfWriter.write(x);
        BtfHeader h = BtfHeader.parse(raw, 0, raw.length);
        boolean little = h.order() == java.nio.ByteOrder.LITTLE_ENDIAN;
        int typeStart = (int) (h.hdrLen() + h.typeOff());
        for (int k = r.nextInt(3); k > 0; k--) {
            int at = typeStart + 4 * r.nextInt(Math.max(1, x.starts()[x.ownTypeCount()]));
            int v = r.nextBoolean() ? r.nextInt(x.strings().end() + 2) : r.nextInt();
            for (int b = 0; b < 4; b++) {
                raw[at + (little ? b : 3 - b)] = (byte) (v >> 8 * b);
            }
        }
        NameProbe p = probe(r, r.nextInt(4) == 0);
        BtfReader.Scratch scratch = new BtfReader.Scratch();
        scratch.probe(p);
        // an earlier read's list must not survive a read that does not probe
        byte[] good = BtfWriter.write(x);
        BtfReader.read(good, 0, good.length, null, scratch);
        Btf plain;
        try {
            plain = BtfReader.read(raw);
        } catch (BtfFormatException e) {
            plain = null;
        }
        Btf probed;
        try {
            probed = BtfReader.read(raw, 0, raw.length, null, scratch);
        } catch (BtfFormatException e) {
            probed = null;
        }
        assertEquals(plain != null, probed != null, "accepted by the plain read");
        if (plain == null) {
            assertEquals(-1, scratch.probedCount());
            return;
        }
        assertArrayEquals(plain.starts(), probed.starts());
        int n = plain.starts()[plain.ownTypeCount()];
        boolean onePass = BtfReader.indexChecked(plain.words(), n, plain.strings().end(), null) != null;
        assertEquals(onePass, scratch.probedCount() >= 0, "probed when read in one pass");
        if (onePass) {
            assertArrayEquals(passing(plain, p), Arrays.copyOf(scratch.probedIds(), scratch.probedCount()));
        }
    }

    @Example
    void splitReadIsNotProbed() {
        Btf base = RandomBtf.of(new Random(3), null, 50);
        Btf split = RandomBtf.of(new Random(4), base, 20);
        byte[] baseRaw = BtfWriter.write(base);
        byte[] splitRaw = BtfWriter.write(split);
        BtfReader.Scratch scratch = new BtfReader.Scratch();
        NameProbe p = probe(new Random(5), true);
        scratch.probe(p);
        Btf b = BtfReader.read(baseRaw, 0, baseRaw.length, null, scratch);
        assertEquals(passing(b, p).length, scratch.probedCount());
        BtfReader.read(splitRaw, 0, splitRaw.length, b, scratch);
        assertEquals(-1, scratch.probedCount());
    }

    /** The ids of {@code btf}'s types that pass {@code p}, each tested alone. */
    private static int[] passing(Btf btf, NameProbe p) {
        byte[] s = btf.strings().bytes();
        return java.util.stream.IntStream.range(btf.firstId(), btf.typeCount())
                .filter(id -> btf.nameOff(id) != 0 && p.passes(btf.kind(id), s, btf.nameOff(id))).toArray();
    }

    /** A few kinds and first bytes (from common C names), or every name of those kinds. */
    private static NameProbe probe(Random r, boolean anyName) {
        boolean[] kinds = new boolean[32];
        for (int k = 1 + r.nextInt(4); k > 0; k--) {
            kinds[1 + r.nextInt(Kind.MAX_KNOWN)] = true;
        }
        boolean[] one = new boolean[256];
        boolean[] two = new boolean[65536];
        String letters = "_abcdefghijklmnopqrstuvwxyz";
        for (int k = 3 + r.nextInt(30); k > 0; k--) {
            int a = letters.charAt(r.nextInt(letters.length()));
            if (r.nextInt(8) == 0) {
                one[a] = true;
            } else {
                two[a << 8 | letters.charAt(r.nextInt(letters.length()))] = true;
            }
        }
        return new NameProbe(kinds, one, two, anyName);
    }
}
