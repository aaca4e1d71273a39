package io.btfkit.corpus;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import io.btfkit.dedup.DedupResult;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.List;

/**
 * No false merge in a link of real compilation units: every type of every unit maps to an
 * output type that describes it — the same shape (strings compared by content) with referenced
 * types that describe the unit's referenced types, cycles included. A declaration (FWD, enum
 * without values) says only its name and tag kind, so it is described by any type of that name
 * and kind, a definition included; this is what resolving it may do. Unlike {@link LinkAudit}
 * there is no splitter truth: each unit is its own truth. Units split on a base (modules) refer
 * to base types, which the output, split on the same base, must refer to unchanged.
 */
final class UnitLinkAudit {
    private final Btf out;
    private final LongOpenHashSet proven = new LongOpenHashSet();

    private UnitLinkAudit(Btf out) {
        this.out = out;
    }

    /** The number of unit types whose output type does not describe them, and the first one. */
    static LinkAudit.Report audit(List<Btf> units, DedupResult r) {
        UnitLinkAudit a = new UnitLinkAudit(r.btf());
        int bad = 0;
        String example = null;
        for (int k = 0; k < units.size(); k++) {
            Btf u = units.get(k);
            a.proven.clear(); // pairs are (output id, unit id): proven for this unit only
            for (int id = u.firstId(); id < u.typeCount(); id++) {
                int o = r.outputId(k, id, u.firstId());
                if (!a.describes(u, o, id)) {
                    bad++;
                    if (example == null) {
                        example = "unit " + k + " type " + u.type(id) + " maps to output " + r.btf().type(o);
                    }
                }
            }
        }
        return new LinkAudit.Report(r.btf().ownTypeCount(), bad, example);
    }

    private boolean describes(Btf src, int o0, int s0) {
        IntArrayList work = new IntArrayList();
        LongOpenHashSet assumed = new LongOpenHashSet();
        work.add(o0);
        work.add(s0);
        while (!work.isEmpty()) {
            int s = work.popInt();
            int o = work.popInt();
            long key = ((long) o << 32) | (s & 0xffffffffL);
            if (proven.contains(key) || !assumed.add(key)) {
                continue;
            }
            if (o == 0 || s == 0 || s < src.firstId()) {
                if (o != s) {
                    return false; // void and base types stay what they are
                }
                continue;
            }
            int[] ow = out.owner(o).words(); // a unit's type may map to a base type
            int os = out.startOf(o);
            int[] sw = src.words();
            int ss = src.startOf(s);
            boolean sDecl = isDeclaration(sw, ss);
            boolean oDecl = isDeclaration(ow, os);
            if (sDecl || oDecl) {
                if (!String.valueOf(out.name(o)).equals(src.name(s))
                        || tagKind(ow[os + 1]) != tagKind(sw[ss + 1])) {
                    return false;
                }
                continue;
            }
            if (!sameShape(src, ow, os, sw, ss, o, s)) {
                return false;
            }
            int n = TypeRefs.typeIdCount(ow, os);
            for (int i = 0; i < n; i++) {
                work.add(ow[TypeRefs.typeIdSlot(ow, os, i)]);
                work.add(sw[TypeRefs.typeIdSlot(sw, ss, i)]);
            }
        }
        proven.addAll(assumed);
        return true;
    }

    private static boolean isDeclaration(int[] w, int s) {
        int info = w[s + 1];
        int k = Kind.kindOf(info);
        return k == Kind.FWD || (Kind.isEnum(k) && Kind.vlenOf(info) == 0);
    }

    /** STRUCT, UNION or ENUM for a definition or a declaration of one; the kind itself otherwise. */
    private static int tagKind(int info) {
        int k = Kind.kindOf(info);
        if (k == Kind.FWD) {
            return Kind.kindFlagOf(info) ? Kind.UNION : Kind.STRUCT;
        }
        return Kind.isEnum(k) ? Kind.ENUM : k;
    }

    /** Same words except type ids, strings compared by content. */
    private boolean sameShape(Btf src, int[] ow, int os, int[] sw, int ss, int o, int s) {
        if (ow[os + 1] != sw[ss + 1] || out.wordCount(o) != src.wordCount(s)) {
            return false;
        }
        int len = out.wordCount(o);
        boolean[] skip = new boolean[len];
        boolean[] str = new boolean[len];
        TypeRefs.forEachTypeIdSlot(ow, os, slot -> skip[slot - os] = true);
        TypeRefs.forEachStringSlot(ow, os, slot -> str[slot - os] = true);
        for (int i = 0; i < len; i++) {
            if (skip[i]) {
                continue;
            }
            if (str[i]) {
                if (!String.valueOf(out.string(ow[os + i])).equals(src.string(sw[ss + i]))) {
                    return false;
                }
            } else if (ow[os + i] != sw[ss + i]) {
                return false;
            }
        }
        return true;
    }
}
