package io.btfkit.corpus;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

/**
 * Whether a type of one BTF describes a type of another: equal shapes (strings by content)
 * and referenced types that describe each other, where a declaration in the described BTF may
 * be described by the full type of its name and kind (it was resolved). Coinductive, iterative.
 */
final class Describes {
    private final Btf out;
    private final Btf in;
    private final LongOpenHashSet proven = new LongOpenHashSet();

    Describes(Btf out, Btf in) {
        this.out = out;
        this.in = in;
    }

    boolean describes(int o, int i) {
        IntArrayList work = new IntArrayList();
        LongOpenHashSet assumed = new LongOpenHashSet();
        work.add(o);
        work.add(i);
        while (!work.isEmpty()) {
            int ii = work.popInt();
            int oo = work.popInt();
            long key = ((long) oo << 32) | (ii & 0xffffffffL);
            if (proven.contains(key) || !assumed.add(key)) {
                continue;
            }
            if (oo == 0 || ii == 0) {
                if (oo != ii) {
                    return false;
                }
                continue;
            }
            int[] ow = out.owner(oo).words();
            int os = out.startOf(oo);
            int[] iw = in.owner(ii).words();
            int is = in.startOf(ii);
            int iinfo = iw[is + 1];
            int ik = Kind.kindOf(iinfo);
            boolean decl = ik == Kind.FWD || (Kind.isEnum(ik) && Kind.vlenOf(iinfo) == 0);
            if (decl && ow[os + 1] != iinfo) {
                int ok = Kind.kindOf(ow[os + 1]);
                boolean kindOk = ik == Kind.FWD ? ok == (Kind.kindFlagOf(iinfo) ? Kind.UNION : Kind.STRUCT) : Kind.isEnum(ok);
                if (!kindOk || !String.valueOf(out.name(oo)).equals(in.name(ii))) {
                    return false;
                }
                continue;
            }
            if (!sameShape(ow, os, iw, is, oo, ii)) {
                return false;
            }
            int n = TypeRefs.typeIdCount(ow, os);
            for (int k = 0; k < n; k++) {
                work.add(ow[TypeRefs.typeIdSlot(ow, os, k)]);
                work.add(iw[TypeRefs.typeIdSlot(iw, is, k)]);
            }
        }
        proven.addAll(assumed);
        return true;
    }

    private boolean sameShape(int[] ow, int os, int[] iw, int is, int o, int i) {
        if (ow[os + 1] != iw[is + 1]) {
            return false;
        }
        int len = out.wordCount(o);
        if (len != in.wordCount(i)) {
            return false;
        }
        boolean[] skip = new boolean[len];
        boolean[] str = new boolean[len];
        TypeRefs.forEachTypeIdSlot(ow, os, slot -> skip[slot - os] = true);
        TypeRefs.forEachStringSlot(ow, os, slot -> str[slot - os] = true);
        for (int k = 0; k < len; k++) {
            if (skip[k]) {
                continue;
            }
            if (str[k]) {
                if (!String.valueOf(out.string(ow[os + k])).equals(in.string(iw[is + k]))) {
                    return false;
                }
            } else if (ow[os + k] != iw[is + k]) {
                return false;
            }
        }
        return true;
    }
}
