package io.btfkit.dedup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.text.RawTextParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A component checked against the groups' keys before it is walked against each candidate
 * ({@link Partitioner#KEYED_FROM}) gets the classes it gets without the keys: the key only
 * rules out groups that cannot match, and a copy of a group, entered anywhere, always finds it.
 */
class GroupKeyProperties {
    private static Btf dedup(String text, int keyedFrom) {
        int old = Partitioner.KEYED_FROM;
        Partitioner.KEYED_FROM = keyedFrom;
        try {
            return Deduplicator.dedup(RawTextParser.parse(text, null)).btf();
        } finally {
            Partitioner.KEYED_FROM = old;
        }
    }

    /**
     * Rings of structs through PTRs, with names from {@code names} letters, and copies of earlier
     * rings entered at another struct; some structs also point to an earlier ring (an external
     * reference the key must count).
     */
    private static String rings(long seed, int count, int maxLength, int names) {
        Random rnd = new Random(seed);
        StringBuilder sb = new StringBuilder("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n");
        List<int[]> made = new ArrayList<>();
        List<Integer> firstPtr = new ArrayList<>();
        int next = 2;
        for (int r = 0; r < count; r++) {
            int[] ring;
            if (!made.isEmpty() && rnd.nextInt(3) == 0) {
                int[] of = made.get(rnd.nextInt(made.size()));
                int turn = rnd.nextInt(of.length / 2);
                ring = new int[of.length];
                for (int i = 0; i < of.length; i += 2) {
                    ring[i] = of[(i + 2 * turn) % of.length];
                    ring[i + 1] = of[(i + 1 + 2 * turn) % of.length];
                }
            } else {
                int length = 1 + rnd.nextInt(maxLength);
                ring = new int[2 * length];
                for (int i = 0; i < 2 * length; i += 2) {
                    ring[i] = rnd.nextInt(names);
                    // a second reference: none (0), to the struct's own PTR (-1), or to the
                    // first PTR of an earlier ring
                    int q = rnd.nextInt(6);
                    ring[i + 1] = q == 0 ? -1 : firstPtr.isEmpty() || q > 1 ? 0 : firstPtr.get(rnd.nextInt(firstPtr.size()));
                }
            }
            int length = ring.length / 2;
            int first = next;
            for (int i = 0; i < length; i++) {
                int ext = ring[2 * i + 1];
                sb.append('[').append(next).append("] STRUCT '").append((char) ('a' + ring[2 * i])).append("' size=16 vlen=")
                        .append(ext == 0 ? 1 : 2).append("\n\t'p' type_id=").append(next + 1).append(" bits_offset=0\n");
                if (ext != 0) {
                    sb.append("\t'q' type_id=").append(ext < 0 ? next + 1 : ext).append(" bits_offset=64\n");
                }
                sb.append('[').append(next + 1).append("] PTR '(anon)' type_id=").append(first + 2 * ((i + 1) % length))
                        .append('\n');
                next += 2;
            }
            made.add(ring);
            firstPtr.add(first + 1);
            if (rnd.nextInt(3) == 0) {
                // a copy of this ring whose second references to their own PTR go to the PTR
                // of this ring they stand for: equal to this ring, yet its component refers
                // to older cyclic classes where the group refers to its own
                int copy = next;
                for (int i = 0; i < length; i++) {
                    int ext = ring[2 * i + 1];
                    sb.append('[').append(next).append("] STRUCT '").append((char) ('a' + ring[2 * i]))
                            .append("' size=16 vlen=").append(ext == 0 ? 1 : 2).append("\n\t'p' type_id=").append(next + 1)
                            .append(" bits_offset=0\n");
                    if (ext != 0) {
                        sb.append("\t'q' type_id=").append(ext < 0 ? first + 2 * i + 1 : ext).append(" bits_offset=64\n");
                    }
                    sb.append('[').append(next + 1).append("] PTR '(anon)' type_id=").append(copy + 2 * ((i + 1) % length))
                            .append('\n');
                    next += 2;
                }
            }
        }
        return sb.toString();
    }

    @Property(tries = 300)
    void theKeysChangeNoClass(@ForAll long seed, @ForAll @IntRange(min = 2, max = 60) int count,
                              @ForAll @IntRange(min = 1, max = 12) int maxLength, @ForAll @IntRange(min = 1, max = 3) int names) {
        String text = rings(seed, count, maxLength, names);
        assertArrayEquals(BtfWriter.write(dedup(text, Integer.MAX_VALUE)), BtfWriter.write(dedup(text, 0)));
    }

    @Example
    void aComponentReferringToAnOlderCyclicClassStillMatchesIt() {
        // [3] points to itself through the new PTR [4] and through [2], the older struct's PTR:
        // [3] is [1], though its component {3, 4} has one internal reference where the group
        // {1, 2} has two (a key that counted internal references would keep it)
        String text = """
                [1] STRUCT 's' size=16 vlen=2
                \t'next' type_id=2 bits_offset=0
                \t'prev' type_id=2 bits_offset=64
                [2] PTR '(anon)' type_id=1
                [3] STRUCT 's' size=16 vlen=2
                \t'next' type_id=4 bits_offset=0
                \t'prev' type_id=2 bits_offset=64
                [4] PTR '(anon)' type_id=3
                """;
        assertEquals(2, dedup(text, 0).ownTypeCount());
        assertEquals(2, dedup(text, Integer.MAX_VALUE).ownTypeCount());
    }

    /** Rings of 20 random a/b structs from id {@code next}: {@code count} of them, or rotated copies of {@code of}. */
    private static String ringText(Random rnd, int next, int count, List<char[]> made, List<char[]> of) {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < count; r++) {
            char[] names = new char[20];
            if (of == null) {
                for (int i = 0; i < 20; i++) {
                    names[i] = rnd.nextBoolean() ? 'a' : 'b';
                }
                made.add(names);
            } else {
                int turn = rnd.nextInt(20);
                for (int i = 0; i < 20; i++) {
                    names[i] = of.get(r)[(i + turn) % 20];
                }
            }
            int first = next;
            for (int i = 0; i < 20; i++) {
                // anonymous structs told apart by their member's name: a named one equal to a base
                // definition is resolved to it before the partition (DeclarationChain)
                sb.append('[').append(next).append("] STRUCT '(anon)' size=8 vlen=1\n\t'").append(names[i])
                        .append("' type_id=").append(next + 1).append(" bits_offset=0\n");
                sb.append('[').append(next + 1).append("] PTR '(anon)' type_id=").append(first + 2 * ((i + 1) % 20)).append('\n');
                next += 2;
            }
        }
        return sb.toString();
    }

    @Example
    void aSplitDedupFindsTheGroupsOfItsBase() {
        // the base's groups are keyed when a split dedup first asks, under the base's lock
        Random rnd = new Random(5);
        List<char[]> baseRings = new ArrayList<>();
        Btf base = RawTextParser.parse(ringText(rnd, 1, 40, baseRings, null), null);
        String split = ringText(rnd, base.typeCount(), 40, baseRings, baseRings)
                + ringText(rnd, base.typeCount() + 1600, 40, new ArrayList<>(), null);
        for (int keyedFrom : new int[] {0, Integer.MAX_VALUE}) {
            int old = Partitioner.KEYED_FROM;
            try {
                // the base classified without keys (as a vmlinux is), the split with them
                Partitioner.KEYED_FROM = Integer.MAX_VALUE;
                BaseIndex index = BaseIndex.of(base);
                Partitioner.KEYED_FROM = keyedFrom;
                Btf out = Deduplicator.dedup(RawTextParser.parse(split, base), index).btf();
                assertEquals(40 * 40, out.ownTypeCount(), "keyedFrom " + keyedFrom);
            } finally {
                Partitioner.KEYED_FROM = old;
            }
        }
    }

    @Example
    void everyCopyOfARingFindsItsGroup() {
        // 40 distinct rings of 30 random a/b names and 40 rotated copies of them: 80 rings in,
        // 40 out, with the key checked for every component
        Random rnd = new Random(3);
        StringBuilder sb = new StringBuilder();
        int next = 1;
        List<char[]> made = new ArrayList<>();
        for (int r = 0; r < 80; r++) {
            char[] names = new char[30];
            if (r < 40) {
                for (int i = 0; i < 30; i++) {
                    names[i] = rnd.nextBoolean() ? 'a' : 'b';
                }
                made.add(names);
            } else {
                char[] of = made.get(r - 40);
                int turn = 1 + rnd.nextInt(29);
                for (int i = 0; i < 30; i++) {
                    names[i] = of[(i + turn) % 30];
                }
            }
            int first = next;
            for (int i = 0; i < 30; i++) {
                sb.append('[').append(next).append("] STRUCT '").append(names[i]).append("' size=8 vlen=1\n\t'p' type_id=")
                        .append(next + 1).append(" bits_offset=0\n");
                sb.append('[').append(next + 1).append("] PTR '(anon)' type_id=").append(first + 2 * ((i + 1) % 30)).append('\n');
                next += 2;
            }
        }
        Btf out = dedup(sb.toString(), 0);
        assertEquals(40 * 60, out.ownTypeCount());
        assertArrayEquals(BtfWriter.write(dedup(sb.toString(), Integer.MAX_VALUE)), BtfWriter.write(out));
    }
}
