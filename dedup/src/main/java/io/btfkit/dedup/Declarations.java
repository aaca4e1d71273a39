package io.btfkit.dedup;

import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import java.util.ArrayList;
import java.util.List;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;

/**
 * Resolution of declarations — a FWD (struct or union by kind_flag) or an ENUM/ENUM64 without
 * values — to the full type they declare, only where something proves which one:
 *
 * <b>by a unique name</b>: when exactly one class of full types carries the name (struct and
 * union tags share a namespace), every declaration of that name declares it. A name with several
 * different definitions is never resolved by name alone (libbpf resolves it by guessing from
 * context; that guess can be wrong), nor by a definition in the declaration's own unit: a
 * compiler emits no declaration of a tag complete in the same unit, so the two are different
 * tags of one name ({@link ContextResolver} resolves such declarations from context).
 */
final class Declarations {
    private Declarations() {
    }

    /** A FWD, or an enum without values. */
    static boolean isDeclaration(int[] w, int s) {
        int info = w[s + 1];
        int kind = Kind.kindOf(info);
        return kind == Kind.FWD || (Kind.isEnum(kind) && Kind.vlenOf(info) == 0);
    }

    /** Whether full type at {@code w[t]} is what the declaration at {@code w[d]} declares, name aside. */
    static boolean kindMatches(int[] dw, int d, int[] tw, int t) {
        int dinfo = dw[d + 1];
        int tkind = Kind.kindOf(tw[t + 1]);
        if (Kind.kindOf(dinfo) == Kind.FWD) {
            return tkind == (Kind.kindFlagOf(dinfo) ? Kind.UNION : Kind.STRUCT);
        }
        return Kind.isEnum(tkind) && Kind.vlenOf(tw[t + 1]) > 0;
    }

    /**
     * Resolves declarations whose name has exactly one definition (counting the base's). In
     * {@code libbpfCompatible} mode (split dedup of a whole module) a declaration the base also
     * carries is left to the base's declaration, as libbpf maps it there first.
     */
    static int resolveByUniqueDefinition(Merger.Merged m, Definitions defs, Definitions.ByName own,
                                         BaseIndex base, boolean libbpfCompatible, int[] aliasTarget,
                                         java.util.function.IntUnaryOperator partOf) {
        int[] w = m.words;
        int[] st = m.starts;
        // each declaration on its own (the maps are only read): in parallel
        return java.util.stream.IntStream.range(0, st.length - 1).parallel().map(i -> {
            int s = st[i];
            if (aliasTarget[i] >= 0 || !isDeclaration(w, s) || w[s] == 0) {
                return 0;
            }
            if (libbpfCompatible && base != null && base.hasDeclaration(w, s)) {
                return 0;
            }
            int target = uniqueDefinitionNode(w, s, own, base, partOf.applyAsInt(i));
            if (target >= 0 && kindMatches(w, s, nodeWords(m, base, target), nodeStart(m, base, target))) {
                aliasTarget[i] = target;
                return 1;
            }
            return 0;
        }).sum();
    }

    /**
     * {@link #resolveByUniqueDefinition} without the definitions pass, for a standalone input
     * of whole programs (a vmlinux): when no declared name is carried by two or more full tags,
     * a declared name's definition is unique exactly when one full tag carries it, so that tag
     * is the target. Returns false, having resolved nothing, when some declared name has several
     * full tags: only the definitions pass can tell whether they are one definition.
     */
    static boolean resolveByOnlyTag(Merger.Merged m, int[] aliasTarget) {
        int[] w = m.words;
        int[] st = m.starts;
        int n = st.length - 1;
        IntOpenHashSet declaredTags = new IntOpenHashSet();
        IntOpenHashSet declaredEnums = new IntOpenHashSet();
        for (int i = 0; i < n; i++) {
            int s = st[i];
            if (w[s] != 0 && isDeclaration(w, s)) {
                (Kind.kindOf(w[s + 1]) == Kind.FWD ? declaredTags : declaredEnums).add(w[s]);
            }
        }
        if (declaredTags.isEmpty() && declaredEnums.isEmpty()) {
            return true;
        }
        Int2IntOpenHashMap composites = new Int2IntOpenHashMap();
        Int2IntOpenHashMap enums = new Int2IntOpenHashMap();
        composites.defaultReturnValue(Names.ABSENT);
        enums.defaultReturnValue(Names.ABSENT);
        for (int i = 0; i < n; i++) {
            int s = st[i];
            int info = w[s + 1];
            int kind = Kind.kindOf(info);
            Int2IntOpenHashMap map = Kind.isComposite(kind) && declaredTags.contains(w[s]) ? composites
                    : Kind.isEnum(kind) && Kind.vlenOf(info) > 0 && declaredEnums.contains(w[s]) ? enums : null;
            if (map != null) {
                if (map.get(w[s]) != Names.ABSENT) {
                    return false;
                }
                map.put(w[s], m.firstId + i);
            }
        }
        for (int i = 0; i < n; i++) {
            int s = st[i];
            if (w[s] == 0 || !isDeclaration(w, s)) {
                continue;
            }
            int target = Kind.kindOf(w[s + 1]) == Kind.FWD ? composites.get(w[s]) : enums.get(w[s]);
            if (target >= 0 && kindMatches(w, s, w, st[target - m.firstId])) {
                aliasTarget[i] = target;
            }
        }
        return true;
    }

    /** A full tag node of the one definition of the declaration's name, or -1. */
    static int uniqueDefinitionNode(int[] w, int s, Definitions.ByName own, BaseIndex base, int part) {
        int name = w[s];
        boolean fwd = Kind.kindOf(w[s + 1]) == Kind.FWD;
        int d = fwd ? own.composites.get(name) : own.enums.get(name);
        if (base != null) {
            d = Names.combine(d, fwd ? base.byName.composites.get(name) : base.byName.enums.get(name));
        }
        if (d < 0) {
            return -1;
        }
        return firstNodeOf(d, own, base, part);
    }

    static int firstNodeOf(int def, Definitions.ByName own, BaseIndex base) {
        return firstNodeOf(def, own, base, -1);
    }

    /**
     * A full tag node of definition {@code def}: the base's if it has one, else one in
     * {@code part} (so the reference stays inside its part for parallel partitioning), else any.
     */
    static int firstNodeOf(int def, Definitions.ByName own, BaseIndex base, int part) {
        int node = base == null ? -1 : base.byName.firstNode.get(def);
        if (node >= 0) {
            return node;
        }
        if (part >= 0) {
            node = own.nodeInPart.get(((long) def << 16) | part);
            if (node >= 0) {
                return node;
            }
        }
        return own.firstNode.get(def);
    }

    static int[] nodeWords(Merger.Merged m, BaseIndex base, int id) {
        return id < m.firstId ? base.base().words() : m.words;
    }

    static int nodeStart(Merger.Merged m, BaseIndex base, int id) {
        return id < m.firstId ? base.base().starts()[id - 1] : m.starts[id - m.firstId];
    }

    /** Redirects every reference to a resolved declaration to its definition. */
    static void redirect(Merger.Merged m, int[] aliasTarget) {
        int[] w = m.words;
        int[] st = m.starts;
        int first = m.firstId;
        int[] inputFirst = m.inputFirst;
        int[][] across = new int[inputFirst.length - 1][];
        boolean cross = java.util.stream.IntStream.range(0, inputFirst.length - 1).parallel().map(u -> {
            int lo = inputFirst[u];
            int hi = inputFirst[u + 1];
            it.unimi.dsi.fastutil.ints.IntArrayList out = null;
            for (int i = lo - first; i < hi - first; i++) {
                int s = st[i];
                int count = TypeRefs.typeIdCount(w, s);
                for (int k = 0, slot = TypeRefs.firstTypeIdSlot(w, s), stride = TypeRefs.typeIdStride(w, s); k < count;
                        k++, slot += stride) {
                    int ref = w[slot];
                    if (ref < first || aliasTarget[ref - first] < 0) {
                        continue;
                    }
                    while (ref >= first && aliasTarget[ref - first] >= 0) {
                        ref = aliasTarget[ref - first];
                    }
                    w[slot] = ref;
                    if (ref >= first && (ref < lo || ref >= hi)) {
                        if (out == null) {
                            out = new it.unimi.dsi.fastutil.ints.IntArrayList();
                        }
                        out.add(ref);
                    }
                }
            }
            across[u] = out == null ? null : out.toIntArray();
            return out == null ? 0 : 1;
        }).max().orElse(0) > 0;
        if (!m.crossInputRefs) {
            m.redirectedAcross = across; // (else a part must be scanned whole anyway)
        }
        m.crossInputRefs |= cross;
    }
}
