package io.btfkit.corpus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfWriter;
import io.btfkit.dedup.DedupResult;
import io.btfkit.dedup.Deduplicator;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Invariants of dedup on random BTF with cycles, duplicates and declarations. */
class DedupPropertiesTest {

    @Property(tries = 150)
    void dedupIsIdempotent(@ForAll long seed, @ForAll @IntRange(min = 3, max = 40) int structs,
                           @ForAll @IntRange(min = 1, max = 4) int units, @ForAll boolean ambiguous) {
        Btf x = RandomBtf.concatenatedUnits(seed, structs, units, ambiguous);
        Btf once = Deduplicator.dedup(x).btf();
        Btf twice = Deduplicator.dedup(once).btf();
        assertArrayEquals(BtfWriter.write(once), BtfWriter.write(twice));
    }

    @Property(tries = 150)
    void everyInputTypeMapsToATypeThatDescribesIt(@ForAll long seed, @ForAll @IntRange(min = 3, max = 40) int structs,
                                                  @ForAll @IntRange(min = 1, max = 4) int units, @ForAll boolean ambiguous) {
        Btf x = RandomBtf.concatenatedUnits(seed, structs, units, ambiguous);
        DedupResult r = Deduplicator.dedup(x);
        Describes d = new Describes(r.btf(), x);
        for (int id = 1; id < x.typeCount(); id++) {
            int o = r.outputId(0, id, 1);
            assertTrue(d.describes(o, id), () -> "input " + x.type(o) + " -> output " + r.btf().type(o));
        }
        assertTrue(r.btf().typeCount() <= x.typeCount());
    }

    @Property(tries = 100)
    void linkingUnitsGivesWhatDedupOfTheirConcatenationGivesOrLess(@ForAll long seed,
                                                                   @ForAll @IntRange(min = 3, max = 30) int structs,
                                                                   @ForAll @IntRange(min = 1, max = 4) int units) {
        Btf program = RandomBtf.program(seed, structs, false);
        java.util.List<Btf> inputs = new java.util.ArrayList<>();
        for (CuSplitter.Unit u : new CuSplitter(program, units, seed, 0.5).split()) {
            inputs.add(u.btf());
        }
        Btf linked = Deduplicator.link(inputs, null, Deduplicator.Options.LINK).btf();
        Btf whole = Deduplicator.dedup(Deduplicator.concatenate(inputs, null).btf()).btf();
        assertTrue(linked.typeCount() <= whole.typeCount(), linked.typeCount() + " > " + whole.typeCount());
        assertEquals(Deduplicator.dedup(linked).btf().typeCount(), linked.typeCount(), "a link is already deduplicated");
    }

    /**
     * The final partition's guesses from the definitions pass (DefinitionSeeds) decide how fast,
     * never what: with them and without, the same bytes (unit links and whole inputs, programs
     * with several definitions of one name, in one part and in two).
     */
    @Property(tries = 60)
    void definitionGuessesChangeNoByte(@ForAll long seed, @ForAll @IntRange(min = 3, max = 40) int structs,
                                       @ForAll @IntRange(min = 2, max = 8) int units,
                                       @ForAll @IntRange(min = 1, max = 2) int parts) {
        inParts(seed, structs, units, parts, (inputs, o) -> {
            byte[] guessed = BtfWriter.write(Deduplicator.link(inputs, null, o).btf());
            System.setProperty("btfkit.dedup.seeds", "false");
            try {
                assertArrayEquals(BtfWriter.write(Deduplicator.link(inputs, null, o).btf()), guessed, o.toString());
            } finally {
                System.clearProperty("btfkit.dedup.seeds");
            }
        });
    }

    /**
     * The final partition run in the parts or as one range gives the same bytes: one class
     * table either way ({@code Deduplicator.finalRanges} picks by the references redirected
     * across parts).
     */
    @Property(tries = 60)
    void finalRangesChangeNoByte(@ForAll long seed, @ForAll @IntRange(min = 3, max = 40) int structs,
                                 @ForAll @IntRange(min = 2, max = 8) int units) {
        inParts(seed, structs, units, 2, (inputs, o) -> {
            try {
                System.setProperty("btfkit.dedup.finalRanges", "parts");
                byte[] inParts = BtfWriter.write(Deduplicator.link(inputs, null, o).btf());
                System.setProperty("btfkit.dedup.finalRanges", "one");
                assertArrayEquals(inParts, BtfWriter.write(Deduplicator.link(inputs, null, o).btf()), o.toString());
            } finally {
                System.clearProperty("btfkit.dedup.finalRanges");
            }
        });
    }

    /**
     * Runs {@code check} on the units of a random program with several definitions of one name
     * ({@link CuSplitter}), as a link of units and of whole inputs, with {@code parts} parts forced.
     */
    private static void inParts(long seed, int structs, int units, int parts,
                                java.util.function.BiConsumer<java.util.List<Btf>, Deduplicator.Options> check) {
        Btf program = RandomBtf.program(seed, structs, true);
        java.util.List<Btf> inputs = new java.util.ArrayList<>();
        for (CuSplitter.Unit u : new CuSplitter(program, units, seed, 0.5).split()) {
            inputs.add(u.btf());
        }
        try {
            System.setProperty("btfkit.dedup.parts", Integer.toString(parts));
            for (Deduplicator.Options o : new Deduplicator.Options[] {Deduplicator.Options.LINK, Deduplicator.Options.WHOLE}) {
                check.accept(inputs, o);
            }
        } finally {
            System.clearProperty("btfkit.dedup.parts");
        }
    }

    /**
     * Parts partitioned at once into one shared class table give the same bytes every time,
     * however the threads race for the table (links of units and of whole inputs, declarations
     * resolved across parts; parts cut at any input boundary).
     */
    @Property(tries = 50)
    void partsGiveTheSameBytesEveryTime(@ForAll long seed, @ForAll @IntRange(min = 3, max = 40) int structs,
                                        @ForAll @IntRange(min = 2, max = 8) int units,
                                        @ForAll @IntRange(min = 2, max = 5) int parts) {
        inParts(seed, structs, units, parts, (inputs, o) -> {
            byte[] first = BtfWriter.write(Deduplicator.link(inputs, null, o).btf());
            for (int k = 0; k < 3; k++) {
                assertArrayEquals(first, BtfWriter.write(Deduplicator.link(inputs, null, o).btf()), o + ", run " + k);
            }
        });
    }
}
