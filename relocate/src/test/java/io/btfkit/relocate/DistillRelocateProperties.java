package io.btfkit.relocate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.distill.Distiller;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Distill then relocate gives back the original split types, on the same base and on a base with more types. */
class DistillRelocateProperties {

    @Property(tries = 400)
    void relocatingOntoTheOriginalBaseRestoresTheSplit(@ForAll long seed, @ForAll @IntRange(min = 0, max = 50) int baseTypes,
            @ForAll @IntRange(min = 1, max = 30) int splitTypes) {
        RandomSplit.Built in = new RandomSplit(seed, baseTypes, splitTypes).build(0);
        Distiller.Result d = Distiller.distill(in.split());
        // through bytes, as a file round trip would
        Btf dist = BtfReader.read(BtfWriter.write(d.distilledBase()));
        Btf distSplit = BtfReader.read(BtfWriter.write(d.newSplit()), dist);
        Btf out = Relocator.relocate(distSplit, in.base());
        assertSame(in.base(), out.base());
        assertEquals(in.split().firstId(), out.firstId());
        assertEquals(d.newSplit().ownTypeCount(), out.ownTypeCount(), "own types, then copies of the anonymous base types");
        for (int id = in.split().firstId(); id < in.split().typeCount(); id++) {
            assertNull(TypeEquivalence.difference(in.split(), id, out, id));
        }
        Btf reread = BtfReader.read(BtfWriter.write(out), in.base());
        assertEquals(out.ownTypeCount(), reread.ownTypeCount(), "the output is valid split BTF on the base");
    }

    @Property(tries = 300)
    void relocatingOntoABaseWithMoreTypesMapsEveryReference(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 50) int baseTypes, @ForAll @IntRange(min = 1, max = 30) int splitTypes,
            @ForAll long junkSeed) {
        RandomSplit recipe = new RandomSplit(seed, baseTypes, splitTypes);
        RandomSplit.Built in = recipe.build(0);
        RandomSplit.Built other = recipe.build(junkSeed == 0 ? 1 : junkSeed);
        Distiller.Result d = Distiller.distill(in.split());
        Btf out = Relocator.relocate(d.newSplit(), NewBaseIndex.of(other.base()));
        assertEquals(other.base().typeCount(), out.firstId());
        for (int i = 0; i < in.split().ownTypeCount(); i++) {
            assertNull(TypeEquivalence.difference(in.split(), in.split().firstId() + i, out, out.firstId() + i));
        }
    }

    @Property(tries = 200)
    void distillingIsDeterministicAndItsBaseHoldsOnlyNamedStubs(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 50) int baseTypes, @ForAll @IntRange(min = 1, max = 30) int splitTypes) {
        RandomSplit.Built in = new RandomSplit(seed, baseTypes, splitTypes).build(0);
        Distiller.Result a = Distiller.distill(in.split());
        Distiller.Result b = Distiller.distill(in.split());
        assertEquals(java.util.Arrays.toString(BtfWriter.write(a.newSplit())), java.util.Arrays.toString(BtfWriter.write(b.newSplit())));
        Btf base = a.distilledBase();
        for (int id = 1; id < base.typeCount(); id++) {
            int kind = base.kind(id);
            assertEquals(true, base.nameOff(id) != 0, "distilled type [" + id + "] is named");
            assertEquals(0, io.btfkit.core.Kind.isComposite(kind) || kind == io.btfkit.core.Kind.ENUM ? base.vlen(id) : 0,
                    "distilled composites and enums have no members");
        }
        assertEquals(java.util.List.of(), Relocator.problems(a.newSplit(), NewBaseIndex.of(in.base())));
    }
}
