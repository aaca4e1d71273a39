package io.btfkit.dedup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.TestData;
import java.util.List;
import java.util.concurrent.ForkJoinTask;
import org.junit.jupiter.api.Test;

/**
 * A link of units read on demand whose base index is made beside the merge gives the bytes of
 * the link of the same units read first with the index made first; an index of another base is
 * refused rather than used.
 */
class UnitSourceLinkTest {
    private static final List<String> MODULES = List.of("ocfs2", "gameport", "mlx4_core", "dax_hmem");

    private static Deduplicator.UnitSource source(List<Btf> units) {
        return source(units, 1.0, true);
    }

    /** {@code units} announcing their sizes times {@code scale} (as an estimate when not {@code exact}). */
    private static Deduplicator.UnitSource source(List<Btf> units, double scale, boolean exact) {
        return new Deduplicator.UnitSource() {
            @Override
            public int size() {
                return units.size();
            }

            @Override
            public int typeSectionBytes(int k) {
                return 4 * (int) (units.get(k).typeSectionBytes() / 4 * scale);
            }

            @Override
            public boolean sizesExact() {
                return exact;
            }

            @Override
            public Btf read(int k) {
                return units.get(k);
            }
        };
    }

    @Test
    void anIndexMadeBesideTheMergeGivesTheSameBytes() {
        Btf base = BtfReader.read(TestData.bytes(TestData.golden("vmlinux-6.1.0-56.btf")));
        List<Btf> units = MODULES.stream()
                .map(m -> BtfReader.read(TestData.bytes(TestData.golden("modules/" + m + ".btf")), base)).toList();
        byte[] want = BtfWriter.write(Deduplicator.link(units, BaseIndex.of(base), Deduplicator.Options.LINK).btf());

        ForkJoinTask<BaseIndex> index = ForkJoinTask.adapt(() -> BaseIndex.of(base)).fork();
        byte[] got = BtfWriter.write(Deduplicator.link(source(units), base, index::join, Deduplicator.Options.LINK).btf());
        assertArrayEquals(want, got);

        Btf other = BtfReader.read(TestData.bytes(TestData.golden("vmlinux-6.1.0-47.btf")));
        assertThrows(IllegalArgumentException.class,
                () -> Deduplicator.link(source(units), base, () -> BaseIndex.of(other), Deduplicator.Options.LINK));
    }

    /**
     * Sizes known only as estimates (units rewritten as they are read): too small ones make the
     * merge grow its words between rounds, too large ones leave words unused; the bytes are those
     * of the exact link either way. Wrong sizes announced as exact are refused.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(doubles = {0.0, 0.3, 0.9, 1.0, 1.7})
    void estimatedSizesGiveTheBytesOfExactOnes(double scale) {
        Btf base = BtfReader.read(TestData.bytes(TestData.golden("vmlinux-6.1.0-56.btf")));
        List<Btf> units = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) { // more units than a round holds, so several rounds grow the words
            for (String m : MODULES) {
                units.add(BtfReader.read(TestData.bytes(TestData.golden("modules/" + m + ".btf")), base));
            }
        }
        BaseIndex index = BaseIndex.of(base);
        byte[] want = BtfWriter.write(Deduplicator.link(units, index, Deduplicator.Options.LINK).btf());
        byte[] got = BtfWriter.write(Deduplicator.link(source(units, scale, false), index, Deduplicator.Options.LINK).btf());
        assertArrayEquals(want, got);
        if (scale != 1.0) {
            assertThrows(io.btfkit.core.BtfException.class,
                    () -> Deduplicator.link(source(units, scale, true), index, Deduplicator.Options.LINK));
        }
    }
}
