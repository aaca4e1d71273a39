package io.btfkit.cli;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * jqwik generators of BTF (as raw text) whose references loop: modifier and typedef cycles
 * ({@code CONST -> VOLATILE -> CONST}, a typedef of itself), self-pointing and mutually
 * pointing PTRs, FUNC_PROTO loops (Go's {@code type Foo func() Foo}), and loops broken by a
 * struct (C's linked lists, which are valid) — each drawn as a ring of 1-4 types entered from
 * outside by a pointer, a member or an array, and repeated up to three times, rotated, so
 * dedup has equal cycles to merge and a rotation to recognise. Also random small graphs over
 * the same kinds, where anything can refer to anything.
 *
 * <p>Type [1] is always {@code int} (the index type of arrays). Ids continue after
 * {@code firstId - 1}, so a shape can be the split part of another.
 */
final class CyclicShapes {
    private CyclicShapes() {
    }

    /** Kinds a ring is made of. */
    enum RingKind { CONST, VOLATILE, RESTRICT, TYPEDEF, TYPE_TAG, PTR, FUNC_PROTO, STRUCT }

    /** How the ring is entered from outside. */
    enum Entry { NONE, PTR, MEMBER, ARRAY, CONST_OF_VOID }

    /** One ring: its kinds in order, how it is entered, how often it repeats. */
    record Ring(List<RingKind> kinds, Entry entry, int copies) {
    }

    /** Modifier/typedef-only rings (what the kernel calls a loop). */
    static Arbitrary<Ring> modifierRings() {
        return rings(Arbitraries.of(RingKind.CONST, RingKind.VOLATILE, RingKind.RESTRICT, RingKind.TYPEDEF, RingKind.TYPE_TAG));
    }

    /** Rings of any kind: modifiers, pointers, prototypes, structs. */
    static Arbitrary<Ring> anyRings() {
        return rings(Arbitraries.of(RingKind.class));
    }

    private static Arbitrary<Ring> rings(Arbitrary<RingKind> kinds) {
        return Combinators.combine(kinds.list().ofMinSize(1).ofMaxSize(4), Arbitraries.of(Entry.class),
                Arbitraries.integers().between(1, 3)).as(Ring::new);
    }

    /** Text of standalone BTF holding the given rings (ids from 1). */
    static String standalone(List<Ring> rings) {
        return text(rings, 1);
    }

    /**
     * Text of the rings with ids from {@code firstId} (for {@code firstId > 1} a split part on
     * a base that has at least an {@code int} at id 1).
     */
    static String text(List<Ring> rings, int firstId) {
        Builder b = new Builder(firstId);
        if (firstId == 1) {
            b.line("INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED");
        }
        for (Ring r : rings) {
            for (int c = 0; c < r.copies(); c++) {
                b.ring(r, c);
            }
        }
        return b.sb.toString();
    }

    /** Random small graphs: 1-8 types of the ring kinds (plus INT), each reference any id of the graph. */
    static Arbitrary<String> randomGraphs() {
        Arbitrary<int[]> type = Arbitraries.integers().between(0, 1 << 20).array(int[].class).ofSize(3);
        return type.list().ofMinSize(1).ofMaxSize(8).map(CyclicShapes::graph);
    }

    private static String graph(List<int[]> types) {
        Builder b = new Builder(1);
        b.line("INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED");
        int n = types.size() + 1;
        RingKind[] kinds = RingKind.values();
        for (int[] t : types) {
            b.type(kinds[t[0] % kinds.length], t[1] % (n + 1), t[2] % (n + 1));
        }
        return b.sb.toString();
    }

    private static final class Builder {
        final StringBuilder sb = new StringBuilder();
        int next;

        Builder(int firstId) {
            this.next = firstId;
        }

        int line(String s) {
            sb.append('[').append(next).append("] ").append(s).append('\n');
            return next++;
        }

        /** Copy {@code copy} of a ring, rotated by {@code copy} places; its entry first. */
        void ring(Ring r, int copy) {
            int k = r.kinds().size();
            int entryId = r.entry() == Entry.NONE ? next : next + 1;
            int startRing = entryId; // first ring member's id
            switch (r.entry()) {
                case PTR -> line("PTR '(anon)' type_id=" + startRing);
                case MEMBER -> line("STRUCT 'holder' size=8 vlen=1\n\t'm' type_id=" + startRing + " bits_offset=0");
                case ARRAY -> line("ARRAY '(anon)' type_id=" + startRing + " index_type_id=1 nr_elems=2");
                case CONST_OF_VOID -> line("CONST '(anon)' type_id=0");
                default -> {
                }
            }
            for (int i = 0; i < k; i++) {
                RingKind kind = r.kinds().get((i + copy) % k);
                int to = startRing + (i + 1) % k;
                type(kind, to, to);
            }
        }

        /** One type of {@code kind} referring to {@code to} (and {@code other} as a prototype's parameter). */
        void type(RingKind kind, int to, int other) {
            switch (kind) {
                case CONST, VOLATILE, RESTRICT, PTR -> line(kind + " '(anon)' type_id=" + to);
                case TYPEDEF -> line("TYPEDEF 'Foo' type_id=" + to);
                case TYPE_TAG -> line("TYPE_TAG 'tag' type_id=" + to);
                case FUNC_PROTO -> line("FUNC_PROTO '(anon)' ret_type_id=" + to + " vlen=1\n\t'p' type_id=" + other);
                case STRUCT -> line("STRUCT 'node' size=8 vlen=1\n\t'next' type_id=" + to + " bits_offset=0");
                default -> throw new IllegalArgumentException(kind.toString());
            }
        }
    }

    /** All ids of a text's types, for tests that need them. */
    static List<Integer> ids(String text) {
        List<Integer> l = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("[")) {
                l.add(Integer.parseInt(line.substring(1, line.indexOf(']'))));
            }
        }
        return l;
    }
}
