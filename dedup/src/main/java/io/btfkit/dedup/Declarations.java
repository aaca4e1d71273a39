package io.btfkit.dedup;

import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;

/**
 * What the declaration rules ({@link DeclarationChain}) share: what a declaration is — a FWD
 * (struct or union by kind_flag) or an ENUM/ENUM64 without values — whether a full type is of
 * the kind it declares, where a definition's node is, and the redirection of every reference to
 * a resolved declaration once the chain has run.
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

    /**
     * Redirects every reference to a resolved declaration to its definition (in parallel, by
     * input); returns how many of the rewritten references now cross from one of the
     * {@code parts} (own-node indexes where each starts, then the end) to another.
     */
    static long redirect(Merger.Merged m, Aliases aliases, int[] parts) {
        if (!aliases.any()) {
            return 0;
        }
        int[] w = m.words;
        int[] st = m.starts;
        int first = m.firstId;
        int[] inputFirst = m.inputFirst;
        long[] crossing = new long[inputFirst.length - 1];
        java.util.stream.IntStream.range(0, inputFirst.length - 1).parallel().forEach(u -> {
            int from = inputFirst[u] - first;
            int part = DeclarationEvidence.partOf(parts, from);
            for (int i = from; i < inputFirst[u + 1] - first; i++) {
                int s = st[i];
                int count = TypeRefs.typeIdCount(w, s);
                for (int k = 0, slot = TypeRefs.firstTypeIdSlot(w, s), stride = TypeRefs.typeIdStride(w, s); k < count;
                        k++, slot += stride) {
                    int ref = w[slot];
                    if (ref < first || !aliases.isAlias(ref - first)) {
                        continue;
                    }
                    while (ref >= first && aliases.isAlias(ref - first)) {
                        ref = aliases.target(ref - first);
                    }
                    w[slot] = ref;
                    if (ref >= first && DeclarationEvidence.partOf(parts, ref - first) != part) {
                        crossing[u]++;
                    }
                }
            }
        });
        return java.util.Arrays.stream(crossing).sum();
    }
}
