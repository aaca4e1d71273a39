package io.btfkit.dedup;

import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import java.util.Arrays;

/**
 * Which types are the same C definition, judged by names: two types are one definition when
 * their shapes are equal and their referenced types are one definition, where a reference to a
 * named struct, union or enum (declared or defined) counts only by its name and tag kind. So
 * {@code struct s { struct foo *p; }} is one definition whether {@code foo} is declared or
 * defined where it is used — the evidence that lets a declaration be resolved without guessing
 * (a C program has one definition per tag name and scope, and same-name types with the same
 * layout and the same member types by name are the same definition).
 *
 * <p>Computed as the coarsest equivalence ({@link Partitioner}) on the "cut" graph, in which
 * every reference to a named tag type goes to an atom for (name, tag kind). Cycles in C types
 * run through named tags, so the cut graph is (almost always) acyclic and cheap.
 */
final class Definitions {
    static final int TAG_STRUCT = 0;
    static final int TAG_UNION = 1;
    static final int TAG_ENUM = 2;

    /** Classes of the cut graph. */
    final ClassTable table;
    private final int first;
    private final int own;
    /** Definition class of each base type id, or null (standalone). */
    private final int[] baseDef;

    private Definitions(ClassTable table, int first, int own, int[] baseDef) {
        this.table = table;
        this.first = first;
        this.own = own;
        this.baseDef = baseDef;
    }

    /** The tag kind a reference to type {@code w[s]} stands for, or -1 when it is not a named tag. */
    static int tagOf(int[] w, int s) {
        if (w[s] == 0) {
            return -1;
        }
        int info = w[s + 1];
        switch (Kind.kindOf(info)) {
            case Kind.STRUCT:
                return TAG_STRUCT;
            case Kind.UNION:
                return TAG_UNION;
            case Kind.FWD:
                return Kind.kindFlagOf(info) ? TAG_UNION : TAG_STRUCT;
            case Kind.ENUM:
            case Kind.ENUM64:
                return TAG_ENUM;
            default:
                return -1;
        }
    }

    /**
     * Computes definitions for the own nodes of {@code words/starts} (ids from {@code first});
     * external ids resolve through {@code base} (null when standalone).
     */
    static Definitions of(int[] words, int[] starts, int first, BaseIndex base) {
        return of(words, starts, first, base, false, new int[] {0, starts.length - 1});
    }

    /**
     * @param everything classify every type (a base: split types may reference any base type)
     *                   rather than only named tags and their contents
     * @param partStart  own-node indexes where the parts partitioned at once start, plus the end
     *                   ({@link SharedPartition})
     */
    static Definitions of(int[] words, int[] starts, int first, BaseIndex base, boolean everything, int[] partStart) {
        return of(words, starts, first, base, everything, partStart, null, null);
    }

    /**
     * @param alsoRoot when not null, also classifies the own types (index from 0) it accepts: the
     *                 enclosing definitions {@link ContextResolver} may walk from
     * @param rootName when not null, only the full tags whose name it accepts are classified
     *                 (with what they contain): the rules ask only about names something declares,
     *                 and a module link's declared names are a few hundred of its 170,000 tags
     */
    static Definitions of(int[] words, int[] starts, int first, BaseIndex base, boolean everything, int[] partStart,
                          java.util.function.IntPredicate alsoRoot,
                          java.util.function.IntPredicate rootName) {
        return of(words, starts, first, base, everything, partStart, alsoRoot, rootName,
                new Atoms(words, starts, null, base));
    }

    /** ... with the atoms of {@code words} already made (a run that classifies twice makes them once). */
    static Definitions of(int[] words, int[] starts, int first, BaseIndex base, boolean everything, int[] partStart,
                          java.util.function.IntPredicate alsoRoot,
                          java.util.function.IntPredicate rootName, Atoms atoms) {
        int n = starts.length - 1;
        int[] baseDef = base == null ? null : base.definitions.baseDefOfId();
        WorkGraph g = new WorkGraph(words, starts, first, baseDef);
        g.setAtoms(atoms.ofType, atoms.ofExternal, atoms.words);
        byte[] kinds = atoms.kinds;
        java.util.BitSet roots = ParallelScan.marks(n, (from, to, bits) -> {
            for (int i = from; i < to; i++) {
                boolean fullTag = kinds != null ? TypeKinds.isFullTag(kinds[i]) : ByName.isFullTag(words, starts[i]);
                if (everything || fullTag && (rootName == null || rootName.test(words[starts[i]]))
                        || alsoRoot != null && alsoRoot.test(i)) {
                    bits[i >>> 6] |= 1L << i;
                }
            }
        });
        ClassTable table = SharedPartition.partition(g, partStart, roots, base == null ? null : base.definitions.table,
                Math.max(64, n / 16));
        return new Definitions(table, first, n, baseDef);
    }

    /**
     * Classifies also the own types {@code more} accepts (indexes from 0) and what they reach,
     * keeping the classes already made: the classes a pass over both sets of roots would make
     * (the coarsest equivalence does not depend on the order types are classified in), and only
     * the new roots' types are searched (a module link's 75 context roots: 4 ms, where a second
     * pass over every declared tag took 40 ms).
     */
    void classifyAlso(java.util.BitSet more) {
        WorkGraph g = table.graph;
        int size = g.size();
        new Partitioner(table).run(more, new SccFinder.Scope(0, size, size, true, table.nodeClass, null, null),
                new int[size]);
    }

    /**
     * The "cut": one atom per (name, tag kind) that a type of the encoding or of the base is, so
     * that every reference to a named tag goes to its atom — a declaration-like node (a FWD, or
     * an enum without values) carrying just the name. Atoms are numbered base types first (in
     * order of reference), then in id order; the parts' graphs all share the numbering.
     */
    static final class Atoms {
        final int[] ofType;
        final Int2IntOpenHashMap ofExternal;
        final int[] words;
        /** The {@link TypeKinds} bytes of the types atomised, or null (their words are read instead). */
        final byte[] kinds;

        /** Atoms of the types of {@code w} at {@code starts}, whose {@link TypeKinds} bytes {@code kinds} are (null: none made). */
        Atoms(int[] w, int[] starts, byte[] kinds, BaseIndex base) {
            this.kinds = kinds;
            Long2IntOpenHashMap atomOf = new Long2IntOpenHashMap();
            atomOf.defaultReturnValue(-1);
            it.unimi.dsi.fastutil.ints.IntArrayList keys = new it.unimi.dsi.fastutil.ints.IntArrayList();
            int n = starts.length - 1;
            if (base != null) {
                // only the base types referenced: a split dedup of a small module must not pay
                // for the whole base (thousands of modules share one)
                int[] bw = base.base().words();
                int[] bs = base.base().starts();
                ofExternal = new Int2IntOpenHashMap();
                ofExternal.defaultReturnValue(-1);
                // the base ids met so far, a bit each: a module link meets 3 M references into
                // its base, 40,000 distinct, and a probe of the map per reference was most of
                // this loop (a bit set of a vmlinux's ids: 16 KB)
                long[] met = new long[(bs.length >>> 6) + 1];
                for (int i = 0; i < n; i++) {
                    int s = starts[i];
                    int count = TypeRefs.typeIdCount(w, s);
                    for (int k = 0, slot = TypeRefs.firstTypeIdSlot(w, s); k < count; k++, slot += TypeRefs.typeIdStride(w, s)) {
                        int ref = w[slot];
                        if (ref > 0 && ref < bs.length && (met[ref >>> 6] & (1L << ref)) == 0) {
                            met[ref >>> 6] |= 1L << ref;
                            ofExternal.put(ref, atom(bw, bs[ref - 1], atomOf, keys));
                        }
                    }
                }
            } else {
                ofExternal = null;
            }
            ofType = new int[n];
            for (int i = 0; i < n; i++) {
                // (most types are not named tags: their words are not read when the bytes say so)
                ofType[i] = kinds != null && !TypeKinds.isNamedTag(kinds[i]) ? -1 : atom(w, starts[i], atomOf, keys);
            }
            int count = keys.size() / 2;
            words = new int[WorkGraph.EXTRA_WORDS * count];
            for (int at = 0; at < count; at++) {
                int tag = keys.getInt(2 * at + 1);
                words[WorkGraph.EXTRA_WORDS * at] = keys.getInt(2 * at);
                words[WorkGraph.EXTRA_WORDS * at + 1] = tag == TAG_ENUM ? Kind.info(Kind.ENUM, 0, false)
                        : Kind.info(Kind.FWD, 0, tag == TAG_UNION);
            }
        }

        private static int atom(int[] w, int s, Long2IntOpenHashMap atomOf, it.unimi.dsi.fastutil.ints.IntArrayList keys) {
            int tag = tagOf(w, s);
            if (tag < 0) {
                return -1;
            }
            long key = ((long) w[s] << 2) | tag;
            int atom = atomOf.get(key);
            if (atom < 0) {
                atom = keys.size() / 2;
                atomOf.put(key, atom);
                keys.add(w[s]);
                keys.add(tag);
            }
            return atom;
        }
    }

    /**
     * Definition class of each id of a standalone graph (index 0 = void; -1 where none was
     * computed: types that are neither named tags nor inside one), for use as a base.
     */
    int[] baseDefOfId() {
        if (cachedBaseDef == null) {
            int[] out = new int[first + own];
            for (int i = 0; i < own; i++) {
                out[first + i] = defOf(first + i);
            }
            cachedBaseDef = out;
        }
        return cachedBaseDef;
    }

    private volatile int[] cachedBaseDef;

    /**
     * Which of this table's own definition classes can reach, through types that are not named
     * tags, a reference to a tag whose name {@code ambiguous} says has several definitions —
     * only there can context resolve anything. Classes of the base are reported as reaching.
     */
    boolean[] reachAmbiguousTags(java.util.function.IntPredicate ambiguousStructName,
                                 java.util.function.IntPredicate ambiguousEnumName) {
        int lfirst = table.first;
        int count = table.ownClassCount();
        boolean[] reach = new boolean[count];
        WorkGraph g = table.graph;
        for (int c = lfirst; c < lfirst + count; c++) {
            // atoms look like declarations (and share classes with equal ones)
            int r = table.rep(c);
            int[] w = g.wordsOf(r);
            int s = g.start(r);
            int info = w[s + 1];
            int kind = Kind.kindOf(info);
            if (kind == Kind.FWD) {
                reach[c - lfirst] = ambiguousStructName.test(w[s]);
            } else if (Kind.isEnum(kind) && Kind.vlenOf(info) == 0) {
                reach[c - lfirst] = ambiguousEnumName.test(w[s]);
            }
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int c = lfirst; c < lfirst + count; c++) {
                if (reach[c - lfirst]) {
                    continue;
                }
                int r = table.rep(c);
                int n = g.childCount(r);
                for (int i = 0; i < n; i++) {
                    int cc = table.childClass(c, i);
                    if (cc >= lfirst ? reach[cc - lfirst] : cc != 0) {
                        reach[c - lfirst] = true;
                        changed = true;
                        break;
                    }
                }
            }
        }
        return reach;
    }

    /** Definition class of type {@code id} (own or base), -1 where none was computed. */
    int defOf(int id) {
        if (id < first) {
            return id == 0 ? 0 : baseDef[id];
        }
        return table.nodeClass[id - first];
    }

    /**
     * For each name, the one definition class of the full tags carrying it (struct and union
     * share a namespace; enums have their own), or {@link Names#AMBIGUOUS}.
     */
    static final class ByName {
        final Int2IntOpenHashMap composites = new Int2IntOpenHashMap();
        final Int2IntOpenHashMap enums = new Int2IntOpenHashMap();
        /** A node carrying each definition class that is a full tag (lowest id seen first). */
        final Int2IntOpenHashMap firstNode = new Int2IntOpenHashMap();
        /** The same per part of a parallel partition: (definition << 16 | part) -> node. */
        final it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap nodeInPart = new it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap();

        ByName() {
            composites.defaultReturnValue(Names.ABSENT);
            enums.defaultReturnValue(Names.ABSENT);
            firstNode.defaultReturnValue(-1);
            nodeInPart.defaultReturnValue(-1);
        }

        void add(int[] w, int s, int id, int def) {
            add(w, s, id, def, 0);
        }

        /** Whether the type at {@code w[s]} is a named full tag, the only types {@link #add} records. */
        static boolean isFullTag(int[] w, int s) {
            int info = w[s + 1];
            int kind = Kind.kindOf(info);
            return w[s] != 0 && (Kind.isComposite(kind) || (Kind.isEnum(kind) && Kind.vlenOf(info) > 0));
        }

        /** Records type {@code id} (in part {@code part}) if it is a named full tag. */
        void add(int[] w, int s, int id, int def, int part) {
            int info = w[s + 1];
            int kind = Kind.kindOf(info);
            int name = w[s];
            if (name == 0) {
                return;
            }
            Int2IntOpenHashMap map;
            if (Kind.isComposite(kind)) {
                map = composites;
            } else if (Kind.isEnum(kind) && Kind.vlenOf(info) > 0) {
                map = enums;
            } else {
                return;
            }
            int old = map.get(name);
            if (old == Names.ABSENT) {
                map.put(name, def);
            } else if (old != def) {
                map.put(name, Names.AMBIGUOUS);
            }
            if (firstNode.get(def) < 0) {
                firstNode.put(def, id);
            }
            nodeInPart.putIfAbsent(((long) def << 16) | part, id);
        }
    }
}
