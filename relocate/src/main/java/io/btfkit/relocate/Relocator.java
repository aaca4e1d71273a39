package io.btfkit.relocate;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import io.btfkit.core.StringTable;
import io.btfkit.core.TypeRefs;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Relocates a split BTF from its distilled base onto a new full base (libbpf
 * {@code btf__relocate}, the same code the kernel runs when it loads a module with
 * {@code .BTF.base}).
 *
 * <p>Each distilled base type is mapped to one new-base type ({@link DistilledBaseMap}); then
 * the split's types are rewritten in place order: a reference to distilled type D becomes its
 * match, a reference to split type S becomes {@code S + newBase.typeCount() -
 * distilledBase.typeCount()} (the split keeps its order, right after the new base), a string
 * offset of a distilled name becomes the matched type's name offset, and a split string offset
 * moves by the difference of the two bases' string section ends. The split's own string bytes
 * are unchanged. So {@code BtfWriter.write} of the result equals libbpf's output byte for byte.
 *
 * <p>Example: distilled base {@code [1] INT 'int' size=4}, {@code [2] STRUCT 's' size=8
 * vlen=0}; split {@code [3] PTR type_id=2}. On a new base whose {@code [7] STRUCT 's' size=8}
 * and {@code [9] INT 'int' size=4} match, the result is split {@code [N] PTR type_id=7} where
 * N is the new base's type count.
 *
 * <p>For batches: index a base once with {@link NewBaseIndex#of(Btf)} and pass the index to
 * {@link #relocate(Btf, NewBaseIndex)} from any number of threads.
 */
public final class Relocator {
    private Relocator() {
    }

    /** Relocates {@code splitOnDistilled} onto {@code newBase} (indexes the base; prefer the other overload for many inputs). */
    public static Btf relocate(Btf splitOnDistilled, Btf newBase) {
        return relocate(splitOnDistilled, NewBaseIndex.of(newBase));
    }

    /**
     * Relocates {@code splitOnDistilled} (split BTF whose base is a distilled base) onto the base
     * indexed by {@code newBase}. The result is split BTF on {@code newBase.base()}, in the
     * input's byte order with the classic 24-byte header.
     *
     * @throws RelocationException when some distilled types cannot be mapped; it lists them all,
     *                             libbpf's complaint first
     * @throws OperationException  when the input is not split BTF on a standalone base, or the
     *                             new base is the input's own base
     */
    public static Btf relocate(Btf splitOnDistilled, NewBaseIndex newBase) {
        Btf split = Objects.requireNonNull(splitOnDistilled);
        checkShape(split, newBase);
        DistilledBaseMap map = DistilledBaseMap.build(split, newBase);
        if (!map.problems.isEmpty()) {
            throw new RelocationException(map.problems);
        }
        return rewrite(split, newBase.base(), map);
    }

    /**
     * Why {@code dist} is no distilled base at all, or null: types of kinds a distilled base never
     * holds (a full vmlinux given as one has 90,000 of them) — said once, where
     * {@link #relocate} would report each. A distilled base holds only named INT, FLOAT, ENUM,
     * STRUCT, UNION and FWD types (ENUM64 is distilled as a sized ENUM).
     */
    public static String notDistilled(Btf dist) {
        int bad = 0;
        int first = 0;
        java.util.TreeMap<String, Integer> kinds = new java.util.TreeMap<>();
        for (int id = 1; id < dist.typeCount(); id++) {
            int k = dist.kind(id);
            if (k != Kind.INT && k != Kind.FLOAT && k != Kind.ENUM && k != Kind.STRUCT && k != Kind.UNION && k != Kind.FWD) {
                first = bad++ == 0 ? id : first;
                kinds.merge(Kind.name(k), 1, Integer::sum);
            }
        }
        if (bad == 0) {
            return null;
        }
        return "not a distilled base: " + bad + " of its " + (dist.typeCount() - 1) + " types are of kinds a distilled base"
                + " does not hold (" + kinds.toString().replaceAll("[{}]", "") + "; the first, [" + first + "] "
                + Kind.name(dist.kind(first)) + "); a distilled base holds only named INT, FLOAT, ENUM, STRUCT, UNION"
                + " and FWD types, as 'btfkit distill' writes it (--base-out)";
    }

    /**
     * Every problem that would make {@link #relocate(Btf, NewBaseIndex)} fail, libbpf's complaint
     * first; empty when it would succeed. Builds no output.
     *
     * @throws OperationException as {@link #relocate(Btf, NewBaseIndex)} does for inputs that are not
     *                            split BTF on a standalone distilled base
     */
    public static List<Problem> problems(Btf splitOnDistilled, NewBaseIndex newBase) {
        Btf split = Objects.requireNonNull(splitOnDistilled);
        checkShape(split, newBase);
        DistilledBaseMap map = DistilledBaseMap.build(split, newBase);
        if (!map.problems.isEmpty()) {
            return map.problems;
        }
        List<Problem> strings = new ArrayList<>();
        rewriteStrings(split, newBase.base(), map, split.words().clone(), strings);
        return strings;
    }

    private static void checkShape(Btf split, NewBaseIndex newBase) {
        Btf dist = split.base();
        if (dist == null) {
            throw new OperationException("input is standalone BTF; relocation needs split BTF on a distilled base");
        }
        if (dist.isSplit()) {
            throw new OperationException("the input's base is itself split BTF; a distilled base is standalone");
        }
        if (dist == newBase.base()) {
            throw new OperationException("the new base is the input's own base; nothing to relocate");
        }
        int[] w = split.words();
        int[] st = split.starts();
        for (int i = 0; i < split.ownTypeCount(); i++) {
            int kind = Kind.kindOf(w[st[i] + 1]);
            if (!Kind.isKnown(kind)) {
                throw new OperationException("type [" + (split.firstId() + i) + "] has kind " + kind
                        + ", which btfkit does not know, so its references cannot be renumbered");
            }
        }
    }

    private static Btf rewrite(Btf split, Btf base, DistilledBaseMap map) {
        int[] w = split.words().clone();
        int[] st = split.starts();
        int nDist = split.base().typeCount();
        int idShift = base.typeCount() - nDist;
        int[] baseId = map.baseId;
        for (int i = 0; i < split.ownTypeCount(); i++) {
            int start = st[i];
            int refs = TypeRefs.typeIdCount(w, start);
            for (int r = 0; r < refs; r++) {
                int slot = TypeRefs.typeIdSlot(w, start, r);
                int ref = w[slot];
                w[slot] = ref < nDist ? baseId[ref] : ref + idShift;
            }
        }
        List<Problem> strings = new ArrayList<>();
        rewriteStrings(split, base, map, w, strings);
        if (!strings.isEmpty()) {
            throw new RelocationException(strings);
        }
        Btf.RawFormat format = new Btf.RawFormat(split.format().order(), 24, 0, null);
        return new Btf(base, w, st, new StringTable(base.strings(), split.strings().bytes()), format);
    }

    /** Rewrites string offsets in {@code w}; offsets into the distilled base's strings that no mapped type names go to {@code out}. */
    private static void rewriteStrings(Btf split, Btf base, DistilledBaseMap map, int[] w, List<Problem> out) {
        int distEnd = split.base().strings().end();
        int shift = base.strings().end() - distEnd;
        int[] strMap = map.strMap;
        int[] st = split.starts();
        int first = split.firstId();
        for (int i = 0; i < split.ownTypeCount(); i++) {
            int type = first + i;
            TypeRefs.forEachStringSlot(w, st[i], slot -> {
                int off = w[slot];
                if (off == 0) {
                    return;
                }
                if (Integer.compareUnsigned(off, distEnd) >= 0) {
                    w[slot] = off + shift;
                } else if (strMap[off] != 0) {
                    w[slot] = strMap[off];
                } else {
                    String s = split.strings().latin1(off);
                    out.add(new Problem(type, split.kind(type), s == null ? "(invalid)" : s, 0, Problem.Reason.STRING_UNMAPPED,
                            "offset " + off + " is in the distilled base's strings, but no distilled type with that name was mapped"));
                }
            });
        }
    }
}
