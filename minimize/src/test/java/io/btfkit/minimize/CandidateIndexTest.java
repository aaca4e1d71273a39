package io.btfkit.minimize;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * An index limited to some essential names and local kinds (what {@code minimize} builds for
 * its objects' relocations) gives the same candidates as the full index for every name and kind
 * it was made for — on names that share prefixes with the wanted ones, flavoured names
 * ({@code ___}), names that hold a separator themselves, non-ASCII names, and split targets whose
 * names live in the base's string section.
 */
class CandidateIndexTest {
    private static final String[] POOL = {"t", "ta", "task", "task_struct", "task_struct___v1", "task_struct___v1___v2",
        "task_struct__x", "task_structx", "task_struct____y", "_task", "pid_t", "pid", "pid___old", "\u00e9t\u00e9",
        "\u00e9t\u00e9___2", "\u00e9", "a___b", "a___b___c", "a___", "x", "xy"};
    private static final int[] KINDS = {Kind.STRUCT, Kind.UNION, Kind.ENUM, Kind.ENUM64, Kind.TYPEDEF, Kind.FWD, Kind.INT};

    @Property(tries = 300)
    void limitedIndexAnswersAsTheFullOne(@ForAll long seed) {
        Random r = new Random(seed);
        Btf target = random(r, null);
        if (r.nextBoolean()) {
            target = random(r, target);
        }
        Set<String> names = new HashSet<>();
        BitSet kinds = new BitSet();
        for (int k = 1 + r.nextInt(4); k > 0; k--) {
            names.add(TypeOps.essentialName(POOL[r.nextInt(POOL.length)]));
            kinds.set(KINDS[r.nextInt(KINDS.length)]);
        }
        names.remove("");
        CandidateIndex limited = CandidateIndex.forNames(target, names, kinds);
        CandidateIndex full = new CandidateIndex(target);
        for (String n : names) {
            for (int k = kinds.nextSetBit(0); k >= 0; k = kinds.nextSetBit(k + 1)) {
                assertArrayEquals(full.candidates(n, k), limited.candidates(n, k), n + " kind " + Kind.name(k));
            }
        }
    }

    /**
     * The index built from the ids the reader listed with the index's probe (what
     * {@code minimize --out-dir} does for a raw standalone target) answers as the full one.
     */
    @Property(tries = 300)
    void probedIndexAnswersAsTheFullOne(@ForAll long seed) {
        Random r = new Random(seed);
        Set<String> names = new HashSet<>();
        BitSet kinds = new BitSet();
        for (int k = 1 + r.nextInt(4); k > 0; k--) {
            names.add(TypeOps.essentialName(POOL[r.nextInt(POOL.length)]));
            kinds.set(KINDS[r.nextInt(KINDS.length)]);
        }
        names.remove("");
        byte[] raw = BtfWriter.write(random(r, null));
        BtfReader.Scratch scratch = new BtfReader.Scratch();
        scratch.probe(CandidateIndex.probe(names, kinds));
        Btf target = BtfReader.read(raw, 0, raw.length, null, scratch);
        CandidateIndex probed = CandidateIndex.forNames(target, names, kinds, scratch.probedIds(), scratch.probedCount());
        CandidateIndex full = new CandidateIndex(target);
        for (String n : names) {
            for (int k = kinds.nextSetBit(0); k >= 0; k = kinds.nextSetBit(k + 1)) {
                assertArrayEquals(full.candidates(n, k), probed.candidates(n, k), n + " kind " + Kind.name(k));
            }
        }
    }

    /** Named types of the candidate kinds from the pool, read back from bytes as a target is. */
    private static Btf random(Random r, Btf base) {
        BtfBuilder b = new BtfBuilder(base);
        int anInt = b.addInt("int", 4, Kind.INT_SIGNED);
        for (int i = r.nextInt(40); i > 0; i--) {
            String n = r.nextInt(8) == 0 ? "" : POOL[r.nextInt(POOL.length)];
            switch (KINDS[r.nextInt(KINDS.length)]) {
                case Kind.STRUCT -> b.addStruct(n, 4);
                case Kind.UNION -> b.addUnion(n, 4);
                case Kind.ENUM -> b.addEnum(n, 4, false);
                case Kind.ENUM64 -> b.addEnum64(n, 8, false);
                case Kind.TYPEDEF -> b.addTypedef(n, anInt);
                case Kind.FWD -> b.addFwd(n, r.nextBoolean());
                default -> b.addInt(n.isEmpty() ? "i" : n, 4, 0);
            }
        }
        byte[] raw = BtfWriter.write(b.build());
        return base == null ? BtfReader.read(raw) : BtfReader.read(raw, base);
    }
}
