package io.btfkit.dedup;

import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import java.util.ArrayList;
import java.util.List;

/**
 * Resolves declarations of ambiguous names from context: when a named struct, union, typedef or
 * function is one definition ({@link Definitions}) across units, the tag it references at a given
 * place is the same C type in all of them — so where one unit only declares it and the others
 * define it, and those definitions are all one definition, the declaration stands for that one.
 *
 * <p>A unit's own definition of the declared name is no evidence: a compiler emits no
 * declaration for a tag complete in the same unit, so a unit carrying both holds two different
 * tags of one name (block or prototype scope), and only context decides.
 *
 * <p>Places are numbered by walking the referenced types of the enclosing struct in field order
 * down to the named tags (a pointer to a declaration, an array of them, a function pointer's
 * parameter...): one-definition structs unfold identically, so the numbering agrees. Where the
 * definitions found at a place disagree, nothing is resolved there. Because a compilation unit
 * has one tag type per name, resolving a unit's declaration node resolves all its uses in that
 * unit. In whole inputs (modules) one node stands for several units' declarations, so there it
 * is resolved only when the places prove every use of it ({@link EveryUseProven}).
 */
final class ContextResolver {
    private static final int MAX_STEPS = 1 << 12;
    private static final int NO_DEF = -1;
    private static final int CONFLICT = -2;

    private final Merger.Merged m;
    private final Definitions defs;
    private final Definitions.ByName own;
    private final BaseIndex base;
    private final Aliases aliases;
    private final int first;

    /** (definition, place) -> state index */
    private final Long2IntOpenHashMap places = new Long2IntOpenHashMap();
    private final IntArrayList placeDef = new IntArrayList();
    private final List<IntArrayList> placeDecls = new ArrayList<>();
    /** Per place, the enclosing type whose walk met each of {@link #placeDecls} (whole inputs only). */
    private final List<IntArrayList> placeRoots = new ArrayList<>();
    private final IntOpenHashSet interesting = new IntOpenHashSet();

    private final IntArrayList stackNode = new IntArrayList();
    private final IntArrayList stackEdge = new IntArrayList();

    private final java.util.function.IntUnaryOperator partOf;
    private final Enclosing enclosing;
    /** Inputs are whole programs: resolve a declaration only when every use is proven. */
    private final boolean everyUse;

    ContextResolver(Merger.Merged m, Definitions defs, Definitions.ByName own, BaseIndex base, Aliases aliases,
                    java.util.function.IntUnaryOperator partOf, Enclosing enclosing, boolean everyUse) {
        this.partOf = partOf;
        this.enclosing = enclosing;
        this.everyUse = everyUse;
        this.m = m;
        this.defs = defs;
        this.own = own;
        this.base = base;
        this.aliases = aliases;
        this.first = m.firstId;
        places.defaultReturnValue(-1);
    }

    /** Finds and records resolutions; returns how many declarations were resolved. */
    int resolve() {
        int n = m.starts.length - 1;
        // only definitions whose members can reach an ambiguous tag are worth walking
        boolean[] reach = defs.reachAmbiguousTags(name -> isAmbiguous(name, true), name -> isAmbiguous(name, false));
        int lfirst = defs.table.first;
        // pass 1: places where a unit only declares a tag whose name is ambiguous (the types to
        // walk found on every core, walked in id order: the scan reads every type, the walks few)
        for (int i : ParallelScan.picks(n, (from, to, out) -> {
            for (int i = from; i < to; i++) {
                if (enclosing.is(m.kinds[i], m.words, m.starts[i]) && !aliases.isAlias(i)) {
                    int d = defs.defOf(first + i);
                    // (unclassified: the definitions pass left out what cannot reach such a tag)
                    if (d >= 0 && (d < lfirst || reach[d - lfirst])) {
                        out.add(i);
                    }
                }
            }
        })) {
            walk(first + i, true);
        }
        if (places.isEmpty()) {
            return 0;
        }
        // pass 2: what the other members of those definitions have at those places
        for (int i : ParallelScan.picks(n, (from, to, out) -> {
            for (int i = from; i < to; i++) {
                if (enclosing.is(m.kinds[i], m.words, m.starts[i]) && interesting.contains(defs.defOf(first + i))) {
                    out.add(i);
                }
            }
        })) {
            walk(first + i, false);
        }
        if (base != null) {
            int[] bw = base.base().words();
            int[] bs = base.base().starts();
            for (int id = 1; id < base.base().typeCount(); id++) {
                if (enclosing.is(bw, bs[id - 1]) && interesting.contains(defs.defOf(id))) {
                    walk(id, false);
                }
            }
        }
        // one definition per declaration node, agreed by every place it appears at
        Int2IntOpenHashMap chosen = new Int2IntOpenHashMap();
        chosen.defaultReturnValue(NO_DEF);
        for (int p = 0; p < placeDef.size(); p++) {
            int d = placeDef.getInt(p);
            if (d < 0) {
                continue;
            }
            IntArrayList decls = placeDecls.get(p);
            for (int k = 0; k < decls.size(); k++) {
                int f = decls.getInt(k);
                int old = chosen.get(f);
                chosen.put(f, old == NO_DEF || old == d ? d : CONFLICT);
            }
        }
        EveryUseProven uses = everyUse ? new EveryUseProven(m, enclosing, provenRoots(chosen)) : null;
        int resolved = 0;
        for (Int2IntOpenHashMap.Entry e : chosen.int2IntEntrySet()) {
            int f = e.getIntKey();
            int d = e.getIntValue();
            if (d < 0 || aliases.isAlias(f - first) || uses != null && !uses.proven(f)) {
                continue;
            }
            int target = Declarations.firstNodeOf(d, own, base, partOf.applyAsInt(f - first));
            int fs = m.starts[f - first];
            if (target >= 0 && Declarations.kindMatches(m.words, fs, Declarations.nodeWords(m, base, target),
                    Declarations.nodeStart(m, base, target))) {
                aliases.set(f - first, target);
                resolved++;
            }
        }
        return resolved;
    }

    /** Per declaration, the enclosing types whose walk met it at a place proving its chosen definition. */
    private Int2ObjectOpenHashMap<IntOpenHashSet> provenRoots(Int2IntOpenHashMap chosen) {
        Int2ObjectOpenHashMap<IntOpenHashSet> roots = new Int2ObjectOpenHashMap<>();
        for (int p = 0; p < placeDef.size(); p++) {
            int d = placeDef.getInt(p);
            IntArrayList decls = placeDecls.get(p);
            for (int k = 0; d >= 0 && k < decls.size(); k++) {
                int f = decls.getInt(k);
                if (chosen.get(f) == d) {
                    roots.computeIfAbsent(f, x -> new IntOpenHashSet()).add(placeRoots.get(p).getInt(k));
                }
            }
        }
        return roots;
    }

    /**
     * Which types are enclosing definitions: named types whose same-named, same-shaped copies in
     * other units are one C definition — a named struct or union with members, a named typedef
     * (such as {@code dma_filter_fn}, a pointer to a function of a {@code struct dma_chan *},
     * which carries a declaration as a struct member does), and a named function whose name is
     * in two or more units (name, linkage, parameter names and prototype by name make it one
     * definition; two files' static functions of one signature may still hold different structs
     * at one place, which the places' agreement rule catches). A function in one unit has no
     * other copy to give evidence, so only functions of shared names are classified: all of
     * them would cost a 300-unit link 150 ms.
     */
    static final class Enclosing {
        private final IntOpenHashSet sharedFunctions;

        private Enclosing(IntOpenHashSet sharedFunctions) {
            this.sharedFunctions = sharedFunctions;
        }

        /** Enclosing definitions with these shared functions (tests). */
        static Enclosing withSharedFunctions(IntOpenHashSet sharedFunctions) {
            return new Enclosing(sharedFunctions);
        }

        /** Functions of the merged inputs whose name (a canonical string offset) is in two or more inputs. */
        static Enclosing of(Merger.Merged m) {
            int[] w = m.words;
            int[] st = m.starts;
            int first = m.firstId;
            int[] inputFirst = m.inputFirst;
            byte[] kinds = m.kinds;
            Int2IntOpenHashMap inputOf = new Int2IntOpenHashMap();
            inputOf.defaultReturnValue(-1);
            IntOpenHashSet shared = new IntOpenHashSet();
            for (int u = 0; u + 1 < inputFirst.length; u++) {
                for (int i = inputFirst[u] - first; i < inputFirst[u + 1] - first; i++) {
                    if (TypeKinds.kind(kinds[i]) == Kind.FUNC && TypeKinds.named(kinds[i])) {
                        int s = st[i];
                        int old = inputOf.putIfAbsent(w[s], u);
                        if (old >= 0 && old != u) {
                            shared.add(w[s]);
                        }
                    }
                }
            }
            return new Enclosing(shared);
        }

        /** Whether the type at {@code w[s]} is an enclosing definition (a base's type: no byte made). */
        boolean is(int[] w, int s) {
            return is(TypeKinds.of(w, s), w, s);
        }

        /** Whether the type with {@link TypeKinds} byte {@code k}, its words at {@code w[s]}, is an enclosing definition. */
        boolean is(byte k, int[] w, int s) {
            int kind = TypeKinds.kind(k);
            return TypeKinds.named(k) && (Kind.isComposite(kind) && TypeKinds.hasMembers(k) || kind == Kind.TYPEDEF
                    || kind == Kind.FUNC && sharedFunctions.contains(w[s]));
        }
    }

    private int[] wordsOf(int id) {
        return id < first ? base.base().words() : m.words;
    }

    private int startOf(int id) {
        return id < first ? base.base().starts()[id - 1] : m.starts[id - first];
    }

    /**
     * Walks the types under {@code root} in field order down to named tags; each tag reached is
     * a numbered place. Pass 1 records places holding an ambiguous declaration; pass 2 records
     * the definitions found at recorded places.
     */
    private void walk(int root, boolean declarations) {
        int delta = defs.defOf(root);
        int place = 0;
        int steps = 0;
        stackNode.clear();
        stackEdge.clear();
        stackNode.add(root);
        stackEdge.add(0);
        while (!stackNode.isEmpty()) {
            int top = stackNode.size() - 1;
            int y = stackNode.getInt(top);
            int e = stackEdge.getInt(top);
            int[] w = wordsOf(y);
            int s = startOf(y);
            if (e >= TypeRefs.typeIdCount(w, s)) {
                stackNode.removeInt(top);
                stackEdge.removeInt(top);
                continue;
            }
            stackEdge.set(top, e + 1);
            if (++steps > MAX_STEPS) {
                return;
            }
            int c = w[TypeRefs.typeIdSlot(w, s, e)];
            if (c == 0) {
                continue;
            }
            int[] cw = wordsOf(c);
            int cs = startOf(c);
            if (Definitions.tagOf(cw, cs) < 0) {
                stackNode.add(c);
                stackEdge.add(0);
                continue;
            }
            long key = ((long) delta << 16) | (place++ & 0xffff);
            if (declarations) {
                if (c >= first && !aliases.isAlias(c - first) && Declarations.isDeclaration(cw, cs) && ambiguous(cw, cs)) {
                    int p = places.get(key);
                    if (p < 0) {
                        p = placeDef.size();
                        places.put(key, p);
                        placeDef.add(NO_DEF);
                        placeDecls.add(new IntArrayList());
                        placeRoots.add(new IntArrayList());
                        interesting.add(delta);
                    }
                    placeDecls.get(p).add(c);
                    placeRoots.get(p).add(root);
                }
            } else if (!Declarations.isDeclaration(cw, cs)) {
                int p = places.get(key);
                if (p >= 0) {
                    int d = defs.defOf(c);
                    int old = placeDef.getInt(p);
                    placeDef.set(p, old == NO_DEF || old == d ? d : CONFLICT);
                }
            }
        }
    }

    private boolean ambiguous(int[] w, int s) {
        return isAmbiguous(w[s], Kind.kindOf(w[s + 1]) == Kind.FWD);
    }

    /** Whether several definitions carry {@code name} (struct/union tags, or enum tags). */
    private boolean isAmbiguous(int name, boolean composite) {
        return isAmbiguous(own, base, name, composite);
    }

    /** Whether several definitions carry {@code name} in {@code own} and {@code base} (may be null) together. */
    static boolean isAmbiguous(Definitions.ByName own, BaseIndex base, int name, boolean composite) {
        int d = composite ? own.composites.get(name) : own.enums.get(name);
        if (base != null) {
            d = Names.combine(d, composite ? base.byName.composites.get(name) : base.byName.enums.get(name));
        }
        return d == Names.AMBIGUOUS;
    }
}
