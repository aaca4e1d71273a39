package io.btfkit.dedup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.text.RawTextParser;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Hopcroft's refinement of a new cyclic component ({@link BlockRefinement}) gives Moore's
 * blocks — the same dedup, byte for byte — and does O(m log n) work where Moore's rounds are
 * quadratic: a ring of structs in which one differs.
 */
class BlockRefinementProperties {
    /** Structs named from a few names, each with 1-3 pointer members to random structs: one large component, mostly. */
    @Provide
    Arbitrary<String> componentGraphs() {
        Arbitrary<int[]> struct = Arbitraries.integers().between(0, 1 << 20).array(int[].class).ofSize(5);
        return struct.list().ofMinSize(2).ofMaxSize(300).map(BlockRefinementProperties::graph);
    }

    /** Each struct: name (a, b or c), 1-3 members, each a PTR to a struct; [1] int. */
    private static String graph(List<int[]> structs) {
        int n = structs.size();
        StringBuilder sb = new StringBuilder("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n");
        // ids: struct i at 2 + 2i, a PTR to it at 3 + 2i
        for (int i = 0; i < n; i++) {
            int[] s = structs.get(i);
            int members = 1 + s[0] % 3;
            sb.append('[').append(2 + 2 * i).append("] STRUCT '").append((char) ('a' + s[1] % 3))
                    .append("' size=").append(8 * members).append(" vlen=").append(members).append('\n');
            for (int j = 0; j < members; j++) {
                int to = s[2 + j] % n;
                sb.append("\t'm").append(j).append("' type_id=").append(3 + 2 * to).append(" bits_offset=")
                        .append(64 * j).append('\n');
            }
            sb.append('[').append(3 + 2 * i).append("] PTR '(anon)' type_id=").append(2 + 2 * i).append('\n');
        }
        return sb.toString();
    }

    private static byte[] dedup(String text, int hopcroftFrom) {
        int old = Partitioner.SccMinimizer.hopcroftFrom;
        Partitioner.SccMinimizer.hopcroftFrom = hopcroftFrom;
        try {
            return BtfWriter.write(Deduplicator.dedup(RawTextParser.parse(text, null)).btf());
        } finally {
            Partitioner.SccMinimizer.hopcroftFrom = old;
        }
    }

    @Property(tries = 200)
    void hopcroftGivesMooresDedup(@ForAll("componentGraphs") String text) {
        assertArrayEquals(dedup(text, Integer.MAX_VALUE), dedup(text, 0));
    }

    /**
     * Two copies of a graph in one component — each copy's first member points into the other —
     * so that each type has its twin in the component to be merged with.
     */
    @Property(tries = 100)
    void hopcroftMergesCopiesAsMooreDoes(@ForAll("componentGraphs") String text) {
        int types = (int) text.lines().filter(l -> l.startsWith("[")).count();
        String first = firstMemberTo(text, 3 + types - 1);
        String twice = first + firstMemberTo(shifted(text, types), 3);
        assertArrayEquals(dedup(twice, Integer.MAX_VALUE), dedup(twice, 0));
    }

    /** {@code text} with its first member pointing to type {@code to}. */
    private static String firstMemberTo(String text, int to) {
        return text.replaceFirst("('m0' type_id=)\\d+", "$1" + to);
    }

    /** The graph's types after the first (the int), to follow {@code types} types: ids moved up by {@code types - 1}. */
    private static String shifted(String text, int types) {
        StringBuilder sb = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.startsWith("[1] ")) {
                continue;
            }
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\[|type_id=)(\\d+)").matcher(line);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                int id = Integer.parseInt(m.group(2));
                m.appendReplacement(out, m.group(1) + (id == 1 ? 1 : id + types - 1));
            }
            m.appendTail(out);
            sb.append(out).append('\n');
        }
        return sb.toString();
    }

    /** A ring of n structs 's' and one 't', each pointing to the next through a PTR. */
    private static String ring(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append('[').append(2 * i + 1).append("] STRUCT '").append(i == 0 ? 't' : 's')
                    .append("' size=8 vlen=1\n\t'p' type_id=").append(2 * i + 2).append(" bits_offset=0\n");
            sb.append('[').append(2 * i + 2).append("] PTR '(anon)' type_id=").append(2 * ((i + 1) % n) + 1)
                    .append('\n');
        }
        return sb.toString();
    }

    /**
     * Every member of the ring is its own class (each is a different distance from 't'), found
     * with about 2m log2 m references scanned: Moore's rounds took 62 s on this ring (its
     * distinctions move one step a round), libbpf over 10 minutes.
     */
    @Example
    void aRingInWhichOneDiffersIsRefinedInNLogNWork() {
        int n = 20_000;
        Btf btf = RawTextParser.parse(ring(n), null);
        WorkGraph g = new WorkGraph(btf.words(), btf.starts(), 1, null);
        ClassTable table = new ClassTable(null, g);
        Partitioner p = new Partitioner(table);
        p.run();
        Set<Integer> classes = new HashSet<>();
        for (int c : table.nodeClass) {
            classes.add(c);
        }
        assertEquals(2 * n, classes.size(), "every type its own class");
        long m = 2L * n; // one internal reference per type
        long bound = 2 * m * (64 - Long.numberOfLeadingZeros(m));
        assertTrue(p.refinementWork() <= bound, p.refinementWork() + " references scanned, bound " + bound);
    }

    @Example
    void aSmallerRingIsRefinedAsMooreRefinesIt() {
        String text = ring(500);
        assertArrayEquals(dedup(text, Integer.MAX_VALUE), dedup(text, 0));
    }
}
