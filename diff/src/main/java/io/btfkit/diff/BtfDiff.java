package io.btfkit.diff;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntList;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A structural diff of two BTFs by name, the way a kernel engineer compares two kernels' vmlinux
 * BTF: which named types were added, removed or changed, and how (see {@link TypeComparer}).
 *
 * <p>What is compared: named STRUCT, UNION, ENUM/ENUM64, TYPEDEF, FUNC, VAR, DATASEC, INT, FLOAT
 * and FWD types, matched by (kind, name) with ENUM and ENUM64 one kind; anonymous enums, matched
 * by shared enumerator names; DECL_TAGs, matched by tag value and what they tag. Every other type
 * (pointers, arrays, qualifiers, prototypes, anonymous structs and unions) is compared through the
 * named types that use it. A name defined several times on a side is paired by
 * {@link DefinitionMatcher}, and the entry says so in its note.
 *
 * <p>Why it is fast: each side gets name-based fingerprints ({@link ShapeHash}) in one pass over
 * its types; a pair with equal fingerprints is skipped without being described, so only types
 * that differ are spelled out. Split BTF: by default only the own types of each side are compared
 * (references into the base are still spelled by name); {@link Options#withBase} compares the
 * base types too.
 *
 * <pre>
 * ~ struct device: size 744 -> 752
 *     + member 'foo' (u32) at 704
 * </pre>
 */
public final class BtfDiff {
    /** @param withBase also compare the base types of split inputs */
    public record Options(boolean withBase) {
        public static final Options DEFAULT = new Options(false);
    }

    private static final int[] KIND_ORDER = new int[Kind.COUNT];

    static {
        int[] order = {Kind.STRUCT, Kind.UNION, Kind.ENUM, Kind.ENUM64, Kind.TYPEDEF, Kind.FUNC, Kind.VAR, Kind.DATASEC,
            Kind.INT, Kind.FLOAT, Kind.FWD, Kind.DECL_TAG};
        java.util.Arrays.fill(KIND_ORDER, order.length);
        for (int i = 0; i < order.length; i++) {
            KIND_ORDER[order[i]] = order[i] == Kind.ENUM64 ? i - 1 : i;
        }
    }

    private final DiffBudget budget = new DiffBudget();
    private final Side sa;
    private final Side sb;
    private final TypeComparer comparer;
    private final List<TypeDiff> out = new ArrayList<>();

    private BtfDiff(Btf a, Btf b) {
        // the two sides are independent: fingerprint the second one on another core meanwhile
        CompletableFuture<Side> other = CompletableFuture.supplyAsync(() -> new Side(b, 1, budget));
        this.sa = new Side(a, 0, budget);
        try {
            this.sb = other.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        this.comparer = new TypeComparer(sa, sb);
    }

    /** The differences from {@code a} to {@code b} (own types of split inputs). */
    public static DiffReport diff(Btf a, Btf b) {
        return diff(a, b, Options.DEFAULT);
    }

    public static DiffReport diff(Btf a, Btf b, Options options) {
        BtfDiff d = new BtfDiff(a, b);
        EntityIndex ia = EntityIndex.of(d.sa, options.withBase() ? 1 : a.firstId());
        EntityIndex ib = EntityIndex.of(d.sb, options.withBase() ? 1 : b.firstId());
        DefinitionMatcher matcher = new DefinitionMatcher(d.sa, d.sb);
        int i = 0;
        int j = 0;
        while (i < ia.size() || j < ib.size()) {
            long key = j >= ib.size() || (i < ia.size() && ia.keys[i] <= ib.keys[j]) ? ia.keys[i] : ib.keys[j];
            int na = ia.runLength(i, key);
            int nb = ib.runLength(j, key);
            if (na == 1 && nb == 1 && d.unchanged(ia.ids[i], ib.ids[j])) {
                // the common case: one definition on each side, identical
                i++;
                j++;
                continue;
            }
            IntArrayList as = new IntArrayList(ia.ids, i, na);
            IntArrayList bs = new IntArrayList(ib.ids, j, nb);
            i += na;
            j += nb;
            if (options.withBase()) {
                // base and split may both hold one definition (distill copies base typedefs into
                // the split; relocating it keeps them): one side's identical copies count once
                as = d.distinctDefinitions(d.sa, as);
                bs = d.distinctDefinitions(d.sb, bs);
                if (as.size() == 1 && bs.size() == 1 && d.unchanged(as.getInt(0), bs.getInt(0))) {
                    continue;
                }
            }
            for (IntArrayList[] g : EntityIndex.split(d.sa, as, d.sb, bs)) {
                d.match(matcher, g[0], g[1]);
            }
        }
        d.out.sort(BtfDiff::reportOrder);
        return new DiffReport(d.out);
    }

    /** {@code ids} (one name's definitions on one side) with each identical definition once: same name and fingerprint. */
    private IntArrayList distinctDefinitions(Side side, IntArrayList ids) {
        IntArrayList out = new IntArrayList(ids.size());
        for (int k = 0; k < ids.size(); k++) {
            int id = ids.getInt(k);
            boolean seen = false;
            for (int m = 0; m < out.size() && !seen; m++) {
                seen = side.hash.body(out.getInt(m)) == side.hash.body(id) && EntityIndex.sameName(side, out.getInt(m), side, id);
            }
            if (!seen) {
                out.add(id);
            }
        }
        return out;
    }

    /** Whether {@code ia} and {@code ib}, alone under one key, are the same name with the same fingerprint. */
    private boolean unchanged(int ia, int ib) {
        return sa.hash.body(ia) == sb.hash.body(ib) && EntityIndex.sameName(sa, ia, sb, ib);
    }

    /** Kind (in {@link DiffReport}'s order), label, status, then ids. */
    private static int reportOrder(TypeDiff x, TypeDiff y) {
        int c = Integer.compare(KIND_ORDER[x.kind()], KIND_ORDER[y.kind()]);
        if (c == 0) {
            c = x.label().compareTo(y.label());
        }
        if (c == 0) {
            c = x.status().compareTo(y.status());
        }
        if (c == 0) {
            c = Integer.compare(x.idB(), y.idB());
        }
        return c != 0 ? c : Integer.compare(x.idA(), y.idA());
    }

    private void match(DefinitionMatcher matcher, IntList as, IntList bs) {
        int any = as.isEmpty() ? bs.getInt(0) : as.getInt(0);
        Side side = as.isEmpty() ? sb : sa;
        boolean anonymous = side.isAnonymousEnum(any);
        String note = null;
        if (!anonymous && (as.size() > 1 || bs.size() > 1)) {
            note = as.size() + (as.size() == 1 ? " definition" : " definitions") + " in a, " + bs.size() + " in b";
        }
        if (as.isEmpty() || bs.isEmpty()) {
            for (int i = 0; i < as.size(); i++) {
                add(single(Status.REMOVED, sa, as.getInt(i), note));
            }
            for (int i = 0; i < bs.size(); i++) {
                add(single(Status.ADDED, sb, bs.getInt(i), note));
            }
            return;
        }
        DefinitionMatcher.Result r = matcher.match(as, bs, anonymous);
        for (DefinitionMatcher.Pair p : r.pairs()) {
            if (sa.hash.body(p.a()) == sb.hash.body(p.b())) {
                continue;
            }
            String how = anonymous ? "matched by shared enumerator names"
                    : note == null ? null : note + "; matched by " + p.method();
            TypeDiff t = changed(p.a(), p.b(), how);
            if (t.hasChanges()) {
                add(t);
            }
        }
        String unmatched = note == null ? null : note + "; no match";
        for (int i = 0; i < r.unmatchedA().size(); i++) {
            add(single(Status.REMOVED, sa, r.unmatchedA().getInt(i), unmatched));
        }
        for (int i = 0; i < r.unmatchedB().size(); i++) {
            add(single(Status.ADDED, sb, r.unmatchedB().getInt(i), unmatched));
        }
    }

    /** Adds an entry to the report, within the run's {@link DiffBudget}. */
    private void add(TypeDiff t) {
        budget.report(t);
        out.add(t);
    }

    private TypeDiff changed(int ia, int ib, String note) {
        List<PropertyChange> props = new ArrayList<>();
        List<MemberDiff> members = new ArrayList<>();
        List<ValueDiff> values = new ArrayList<>();
        List<ParamDiff> params = new ArrayList<>();
        comparer.compare(ia, ib, props, members, values, params);
        return new TypeDiff(Status.CHANGED, sb.btf.kind(ib), sb.name(ib), label(sb, ib), ia, ib,
                TypeComparer.describe(sa, ia), TypeComparer.describe(sb, ib), note, props, members, values, params);
    }

    private static TypeDiff single(Status status, Side s, int id, String note) {
        boolean added = status == Status.ADDED;
        String desc = TypeComparer.describe(s, id);
        return new TypeDiff(status, s.btf.kind(id), s.name(id), label(s, id), added ? 0 : id, added ? id : 0,
                added ? null : desc, added ? desc : null, note, List.of(), List.of(), List.of(), List.of());
    }

    /** The name reports use: the name; {@code (anon) {FIRST, ...}}; {@code VALUE -> func foo} for a decl tag. */
    static String label(Side s, int id) {
        Btf btf = s.btf;
        int kind = btf.kind(id);
        String name = s.name(id);
        if (Kind.isEnum(kind) && name.isEmpty()) {
            int vlen = btf.vlen(id);
            if (vlen == 0) {
                return "(anon) {}";
            }
            String first = s.str(btf.extra(id, 0));
            return "(anon) {" + first + (vlen > 1 ? ", ...}" : "}");
        }
        if (kind != Kind.DECL_TAG) {
            return name;
        }
        int target = btf.sizeOrType(id);
        int component = btf.extra(id, 0);
        if (!btf.isValidId(target) || target == 0) {
            return name + " -> type " + Integer.toUnsignedString(target);
        }
        int tk = btf.kind(target);
        String tn = s.name(target);
        StringBuilder sb = new StringBuilder(name).append(" -> ").append(TypeDiff.kindWord(tk)).append(' ')
                .append(tn.isEmpty() ? "(anon)" : tn);
        if (component >= 0) {
            String what = "component " + component;
            if (Kind.isComposite(tk) && component < btf.vlen(target)) {
                what = "member '" + s.str(btf.extra(target, 3 * component)) + "'";
            } else if (tk == Kind.FUNC) {
                ParamInfo[] ps = s.names.params(target);
                if (component < ps.length) {
                    what = ps[component].name().isEmpty() ? "param " + (component + 1) : "param '" + ps[component].name() + "'";
                }
            }
            sb.append(' ').append(what);
        }
        return sb.toString();
    }
}
