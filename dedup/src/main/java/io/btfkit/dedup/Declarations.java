package io.btfkit.dedup;

import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;

/**
 * Resolution of declarations — a FWD (struct or union by kind_flag) or an ENUM/ENUM64 without
 * values — to the full type they declare, only where something proves which one:
 *
 * <ul>
 *   <li><b>within a compilation unit</b>: a unit has one tag type per name, so a declaration
 *       whose unit also defines that name (with the matching kind) declares that definition;</li>
 *   <li><b>by a unique name</b>: when exactly one class of full types carries the name (struct
 *       and union tags share a namespace), every declaration of that name declares it.</li>
 * </ul>
 * A name with several different definitions is never resolved by name alone (libbpf resolves
 * it by guessing from context; that guess can be wrong).
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
     * Within each unit {@code [unitFirst[u], unitFirst[u+1])} of the merged graph, redirects
     * every reference to a declaration to the unit's own definition of that name, and records
     * the declaration as an alias of it. Returns how many declarations were resolved.
     */
    static int resolveWithinUnits(Merger.Merged m, int[] aliasTarget) {
        int[] w = m.words;
        int[] st = m.starts;
        int first = m.firstId;
        int resolved = 0;
        Int2IntOpenHashMap composites = new Int2IntOpenHashMap();
        Int2IntOpenHashMap enums = new Int2IntOpenHashMap();
        composites.defaultReturnValue(Names.ABSENT);
        enums.defaultReturnValue(Names.ABSENT);
        for (int u = 0; u + 1 < m.inputFirst.length; u++) {
            int from = m.inputFirst[u];
            int to = m.inputFirst[u + 1];
            composites.clear();
            enums.clear();
            boolean anyDecl = false;
            for (int id = from; id < to; id++) {
                int s = st[id - first];
                int info = w[s + 1];
                int kind = Kind.kindOf(info);
                int name = w[s];
                if (name == 0) {
                    continue;
                }
                if (Kind.isComposite(kind)) {
                    composites.put(name, composites.get(name) == Names.ABSENT ? id : Names.AMBIGUOUS);
                } else if (Kind.isEnum(kind) && Kind.vlenOf(info) > 0) {
                    enums.put(name, enums.get(name) == Names.ABSENT ? id : Names.AMBIGUOUS);
                } else if (isDeclaration(w, s)) {
                    anyDecl = true;
                }
            }
            if (!anyDecl) {
                continue;
            }
            int unitResolved = 0;
            for (int id = from; id < to; id++) {
                int s = st[id - first];
                if (!isDeclaration(w, s) || w[s] == 0) {
                    continue;
                }
                int target = Kind.kindOf(w[s + 1]) == Kind.FWD ? composites.get(w[s]) : enums.get(w[s]);
                if (target >= 0 && kindMatches(w, s, w, st[target - first])) {
                    aliasTarget[id - first] = target;
                    unitResolved++;
                }
            }
            if (unitResolved == 0) {
                continue;
            }
            resolved += unitResolved;
            for (int id = from; id < to; id++) {
                TypeRefs.forEachTypeIdSlot(w, st[id - first], slot -> {
                    int ref = w[slot];
                    if (ref >= first && aliasTarget[ref - first] >= 0) {
                        w[slot] = aliasTarget[ref - first];
                    }
                });
            }
        }
        return resolved;
    }
}
