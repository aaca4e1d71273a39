package io.btfkit.cli;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    /** Rings a struct breaks (a C linked list, through modifiers, pointers or prototypes). */
    static Arbitrary<Ring> structRings() {
        return anyRings().filter(r -> r.kinds().contains(RingKind.STRUCT));
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

    /**
     * A ring of {@code n} structs, each pointing to the next through a PTR, one named 't' and
     * the others 's': no two types are equivalent (each is a different distance from 't'), and
     * telling them apart takes Moore's refinement n/2 rounds.
     */
    static String oneDifferingRing(int n) {
        Builder b = new Builder(1);
        b.line("INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED");
        for (int i = 0; i < n; i++) {
            int ptr = b.next + 1;
            b.line("STRUCT '" + (i == 0 ? 't' : 's') + "' size=8 vlen=1\n\t'p' type_id=" + ptr + " bits_offset=0");
            b.line("PTR '(anon)' type_id=" + (2 + 2 * ((i + 1) % n)));
        }
        return b.sb.toString();
    }

    /**
     * {@code count} rings of {@code length} structs named 's' or 't' at random, each pointing
     * to the next through a PTR, then {@code copies} copies of earlier rings entered at
     * another struct (rotated): many distinct rings of one shape, some of them equal.
     */
    static String rings(int count, int length, int copies, long seed) {
        java.util.Random rnd = new java.util.Random(seed);
        List<char[]> made = new ArrayList<>();
        Builder b = new Builder(1);
        b.line("INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED");
        for (int r = 0; r < count + copies; r++) {
            char[] names = new char[length];
            if (r < count) {
                for (int i = 0; i < length; i++) {
                    names[i] = rnd.nextBoolean() ? 's' : 't';
                }
                made.add(names);
            } else {
                char[] of = made.get(rnd.nextInt(made.size()));
                int turn = rnd.nextInt(length);
                for (int i = 0; i < length; i++) {
                    names[i] = of[(i + turn) % length];
                }
            }
            int first = b.next;
            for (int i = 0; i < length; i++) {
                b.line("STRUCT '" + names[i] + "' size=8 vlen=1\n\t'p' type_id=" + (b.next + 1) + " bits_offset=0");
                b.line("PTR '(anon)' type_id=" + (first + 2 * ((i + 1) % length)));
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

    /** A type of a shape's text: its kind and the ids it references, in order (ARRAY: element, index). */
    private record Node(String kind, List<Integer> refs) {
        boolean composite() {
            return kind.equals("STRUCT") || kind.equals("UNION");
        }
    }

    /** The types of a standalone text, read from the text alone (not through btfkit). */
    private static Map<Integer, Node> nodes(String text) {
        Map<Integer, Node> nodes = new HashMap<>();
        Matcher m = Pattern.compile("[a-z_]*type_id=(\\d+)").matcher("");
        Node current = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("[")) {
                current = new Node(line.substring(line.indexOf(']') + 2).split(" ")[0], new ArrayList<>());
                nodes.put(Integer.parseInt(line.substring(1, line.indexOf(']'))), current);
            }
            m.reset(line);
            while (current != null && m.find()) {
                current.refs().add(Integer.parseInt(m.group(1)));
            }
        }
        return nodes;
    }

    /**
     * Whether {@code text} has a cycle of references that passes through no struct or union: the
     * cycles libbpf's dedup refuses ({@code -ELOOP}), because it resolves reference types
     * (modifiers, typedefs, pointers, arrays, prototypes, tags) depth first once structs and
     * unions are done.
     */
    static boolean hasReferenceCycle(String text) {
        Map<Integer, Node> nodes = nodes(text);
        return nodes.keySet().stream().anyMatch(id -> !nodes.get(id).composite()
                && reaches(nodes, id, id, n -> n.composite() ? List.of() : n.refs()));
    }

    /**
     * Whether a struct or union of {@code text} contains itself by value (through members, array
     * elements, modifiers and typedefs, not through a pointer or a prototype): a type C cannot
     * have, its size being infinite. libbpf 1.1's dedup recurses without end on some of them.
     */
    static boolean hasValueCycle(String text) {
        Map<Integer, Node> nodes = nodes(text);
        return nodes.keySet().stream().anyMatch(id -> nodes.get(id).composite() && reaches(nodes, id, id, n -> switch (n.kind()) {
            case "STRUCT", "UNION", "CONST", "VOLATILE", "RESTRICT", "TYPEDEF", "TYPE_TAG" -> n.refs();
            case "ARRAY" -> n.refs().subList(0, 1);
            default -> List.of();
        }));
    }

    /** Whether {@code to} is reached from {@code from} in one step or more along {@code edges}. */
    private static boolean reaches(Map<Integer, Node> nodes, int from, int to,
            Function<Node, List<Integer>> edges) {
        Set<Integer> seen = new HashSet<>();
        ArrayDeque<Integer> work = new ArrayDeque<>(edges.apply(nodes.get(from)));
        while (!work.isEmpty()) {
            int id = work.poll();
            if (id == to) {
                return true;
            }
            Node n = nodes.get(id);
            if (n != null && seen.add(id)) {
                work.addAll(edges.apply(n));
            }
        }
        return false;
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
