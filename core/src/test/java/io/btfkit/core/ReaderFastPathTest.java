package io.btfkit.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.btfkit.core.permute.RandomBtf;
import java.nio.file.Path;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The reader's one-pass index and reference check of standalone BTF
 * ({@link BtfReader#indexChecked}) against the general passes it stands in for
 * ({@link BtfReader#index} then {@link BtfReader#checkReferences}): the same type index on the
 * golden kernels, and on damaged sections the same decision — the fast pass gives up exactly
 * where the general passes find a fault, so the general passes' message is what the user sees.
 */
class ReaderFastPathTest {
    @Example
    void goldenKernelsIndexAlike() {
        for (Path k : new Path[] {TestData.vmlinux618(), TestData.golden("vmlinux-6.1.0-47.btf"),
                TestData.golden("vmlinux-6.1.0-56.btf"), TestData.golden("vmlinux-6.1.0-56-cloud.btf")}) {
            Btf read = BtfReader.read(TestData.bytes(k));
            int[] fast = BtfReader.indexChecked(read.words(), read.words().length, read.strings().end(), null);
            assertNotNull(fast, k.toString());
            assertArrayEquals(BtfReader.index(read.words(), read.words().length, null, 1), fast, k.toString());
        }
    }

    /** Random BTF of every kind with a few words overwritten (or the section cut short). */
    @Property(tries = 2000)
    void damagedSectionsDecideAlike(@ForAll long seed) {
        Random r = new Random(seed);
        Btf x = RandomBtf.of(r, null, 1 + r.nextInt(20));
        int[] w = java.util.Arrays.copyOf(x.words(), x.starts()[x.ownTypeCount()]);
        if (r.nextInt(8) == 0) {
            w = java.util.Arrays.copyOf(w, r.nextInt(w.length + 1));
        }
        for (int k = r.nextInt(3) + (w.length > 0 ? 1 : 0); k > 0 && w.length > 0; k--) {
            w[r.nextInt(w.length)] = damage(r, x);
        }
        int strEnd = x.strings().end();
        int[] fast = BtfReader.indexChecked(w, w.length, strEnd, null);
        int[] general;
        try {
            general = BtfReader.index(w, w.length, null, 1);
            BtfReader.checkReferences(new Btf(null, w, general, x.strings(), Btf.RawFormat.CLASSIC));
        } catch (BtfFormatException e) {
            general = null;
        }
        assertEquals(general != null, fast != null, "accepted by the general passes");
        if (general != null) {
            assertArrayEquals(general, fast);
        }
    }

    /** A replacement word: often a near-valid id, string offset, kind or vlen, sometimes anything. */
    private static int damage(Random r, Btf x) {
        return switch (r.nextInt(6)) {
            case 0 -> x.typeCount() - 1 + r.nextInt(3);
            case 1 -> x.strings().end() - 1 + r.nextInt(3);
            case 2 -> r.nextInt(Kind.MAX_KNOWN + 3) << 24 | r.nextInt(4);
            case 3 -> Kind.STRUCT << 24 | (r.nextBoolean() ? 0xffffff : r.nextInt(40));
            case 4 -> r.nextInt(8);
            default -> r.nextInt();
        };
    }

    /** The reader takes the fast path and still reads BTF whose types fill the section exactly. */
    @Example
    void readsEveryKind() {
        Btf x = RandomBtf.of(new Random(7), null, 200);
        byte[] raw = BtfWriter.write(x);
        Btf read = BtfReader.read(raw);
        assertArrayEquals(x.starts(), read.starts());
    }
}
