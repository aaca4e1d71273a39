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
        return new Deduplicator.UnitSource() {
            @Override
            public int size() {
                return units.size();
            }

            @Override
            public int typeSectionBytes(int k) {
                return units.get(k).typeSectionBytes();
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
}
