package io.btfkit.corpus;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import io.btfkit.dedup.DedupResult;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.List;

/**
 * Checks a link of {@link CuSplitter} units against the splitter's truth: every unit type must
 * map to an output type that <em>describes</em> the source type it came from — the same shape,
 * with referenced types that describe the source's referenced types, where a declaration
 * (FWD, enum without values) describes any full type of its name and kind. A false merge (an
 * output type standing for a different type than one of its inputs) fails this check; two
 * pointers to one declaration merged from different units do not, since each unit only had
 * the declaration.
 */
public final class LinkAudit {
    /** Outcome: output types, unit types whose output does not describe them, one example. */
    public record Report(int outputTypes, int falseMerges, String example) {
    }

    private final Btf out;
    private final Btf src;
    private final LongOpenHashSet proven = new LongOpenHashSet();

    private LinkAudit(Btf out, Btf src) {
        this.out = out;
        this.src = src;
    }

    public static Report audit(Btf source, List<CuSplitter.Unit> units, DedupResult result) {
        LinkAudit a = new LinkAudit(result.btf(), source);
        int falseMerges = 0;
        String example = null;
        for (int k = 0; k < units.size(); k++) {
            int[] truth = units.get(k).truth();
            for (int id = 1; id < truth.length; id++) {
                int o = result.outputId(k, id, 1);
                if (!a.describes(o, truth[id])) {
                    falseMerges++;
                    if (example == null) {
                        example = "unit " + k + " type [" + id + "] (source " + source.type(truth[id]) + ") maps to output "
                                + result.btf().type(o) + ", which does not describe it";
                    }
                }
            }
        }
        return new Report(result.btf().ownTypeCount(), falseMerges, example);
    }

    /**
     * The units that define and declare one tag name (a full struct or union and a FWD, or a
     * valued and a value-less enum): a compiler emits no declaration of a tag complete in the
     * same unit, so such a unit holds two different tags of that name. Returns {units, names}.
     */
    public static int[] definedAndDeclared(List<CuSplitter.Unit> units) {
        int count = 0;
        int names = 0;
        for (CuSplitter.Unit unit : units) {
            Btf u = unit.btf();
            java.util.Set<String> full = new java.util.HashSet<>();
            java.util.Set<String> declared = new java.util.HashSet<>();
            for (int id = 1; id < u.typeCount(); id++) {
                int k = u.kind(id);
                if (u.nameOff(id) == 0 || !(Kind.isComposite(k) || Kind.isEnum(k) || k == Kind.FWD)) {
                    continue;
                }
                String key = (Kind.isEnum(k) ? "enum " : "tag ") + u.name(id);
                (isDeclaration(u.words(), u.startOf(id)) ? declared : full).add(key);
            }
            declared.retainAll(full);
            if (!declared.isEmpty()) {
                count++;
                names += declared.size();
            }
        }
        return new int[] {count, names};
    }

    /** Whether output type {@code o} describes source type {@code s} (coinductively, with memo). */
    private boolean describes(int o, int s) {
        IntArrayList work = new IntArrayList();
        LongOpenHashSet assumed = new LongOpenHashSet();
        work.add(o);
        work.add(s);
        while (!work.isEmpty()) {
            int ss = work.popInt();
            int oo = work.popInt();
            long key = ((long) oo << 32) | (ss & 0xffffffffL);
            if (proven.contains(key) || !assumed.add(key)) {
                continue;
            }
            if (oo == 0 || ss == 0) {
                if (oo != ss) {
                    return false;
                }
                continue;
            }
            int[] ow = out.owner(oo).words();
            int os = out.startOf(oo);
            int[] sw = src.words();
            int sst = src.startOf(ss);
            if (isDeclaration(ow, os)) {
                if (!sameName(oo, ss) || !declares(ow, os, sw, sst)) {
                    return false;
                }
                continue;
            }
            if (!sameShape(ow, os, sw, sst, oo, ss)) {
                return false;
            }
            int n = TypeRefs.typeIdCount(ow, os);
            for (int i = 0; i < n; i++) {
                work.add(ow[TypeRefs.typeIdSlot(ow, os, i)]);
                work.add(sw[TypeRefs.typeIdSlot(sw, sst, i)]);
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

    private boolean sameName(int o, int s) {
        return String.valueOf(out.name(o)).equals(src.name(s));
    }

    private static boolean declares(int[] ow, int os, int[] sw, int ss) {
        int oinfo = ow[os + 1];
        int sk = Kind.kindOf(sw[ss + 1]);
        if (Kind.kindOf(oinfo) == Kind.FWD) {
            int want = Kind.kindFlagOf(oinfo) ? Kind.UNION : Kind.STRUCT;
            return sk == want || (sk == Kind.FWD && sw[ss + 1] == oinfo);
        }
        return Kind.isEnum(sk);
    }

    /** Same words except type ids, strings compared by content. */
    private boolean sameShape(int[] ow, int os, int[] sw, int ss, int o, int s) {
        int info = ow[os + 1];
        if (info != sw[ss + 1]) {
            return false;
        }
        int len = out.wordCount(o);
        if (len != src.wordCount(s)) {
            return false;
        }
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
