package io.btfkit.diff;

import io.btfkit.core.Kind;
import it.unimi.dsi.fastutil.ints.Int2IntMap;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pairs the definitions of one name (one kind class) across the two sides. Usually each side has
 * one and they pair up; a vmlinux can hold several structs or static functions of one name (from
 * different compilation units), and every anonymous enum shares the empty name. Then, in order:
 *
 * <ol>
 *   <li>identical definitions (equal {@link ShapeHash#body}) pair up, in id order;</li>
 *   <li>(named types) definitions of equal size pair up, the one sharing most member names first;</li>
 *   <li>the rest pair with the definition sharing most member, enumerator or parameter names
 *       (at least one);</li>
 *   <li>(named types) when exactly one definition is left on each side, they pair up.</li>
 * </ol>
 *
 * Steps 2 and 3 take the best-scoring candidate pairs first and break ties by the lower sum of
 * the two ids, so the pairing is deterministic and the same whichever side comes first. What is left is reported added or removed. Steps 2 and
 * 3 compare every candidate pair; when a name has so many definitions that this would be slow
 * (more than 2^18 pairs left after step 1, which only pathological input has), named types are
 * paired in id order instead ({@code order}) and anonymous enums are left unpaired.
 */
final class DefinitionMatcher {
    /** A pairing and the step that made it: {@code unique}, {@code identical}, {@code size}, {@code overlap}, {@code remaining}. */
    record Pair(int a, int b, String method) {
    }

    record Result(List<Pair> pairs, IntList unmatchedA, IntList unmatchedB) {
    }

    /** Beyond this many candidate pairs for one name, the quadratic steps are skipped. */
    private static final long MAX_CANDIDATE_PAIRS = 1L << 18;

    private final Side sa;
    private final Side sb;

    DefinitionMatcher(Side sa, Side sb) {
        this.sa = sa;
        this.sb = sb;
    }

    Result match(IntList as, IntList bs, boolean anonymous) {
        List<Pair> pairs = new ArrayList<>();
        if (!anonymous && as.size() == 1 && bs.size() == 1) {
            pairs.add(new Pair(as.getInt(0), bs.getInt(0), "unique"));
            return new Result(pairs, new IntArrayList(), new IntArrayList());
        }
        IntArrayList ra = new IntArrayList(as);
        IntArrayList rb = new IntArrayList(bs);
        identical(ra, rb, pairs);
        if ((long) ra.size() * rb.size() > MAX_CANDIDATE_PAIRS) {
            // pathological input (thousands of definitions of one name): pair in id order
            byOrder(ra, rb, pairs, anonymous);
        } else {
            if (!anonymous) {
                bySize(ra, rb, pairs);
            }
            byOverlap(ra, rb, pairs);
        }
        if (!anonymous && ra.size() == 1 && rb.size() == 1) {
            pairs.add(new Pair(ra.getInt(0), rb.getInt(0), "remaining"));
            ra.clear();
            rb.clear();
        }
        return new Result(pairs, ra, rb);
    }

    private void identical(IntArrayList ra, IntArrayList rb, List<Pair> pairs) {
        Long2ObjectOpenHashMap<IntArrayList> byHash = new Long2ObjectOpenHashMap<>();
        for (int i = 0; i < rb.size(); i++) {
            byHash.computeIfAbsent(sb.hash.body(rb.getInt(i)), k -> new IntArrayList()).add(rb.getInt(i));
        }
        // each bucket is consumed from its front: a read position per hash instead of removing
        // the first element (which made a million identical definitions quadratic)
        Long2IntOpenHashMap taken = new Long2IntOpenHashMap();
        IntArrayList keepA = new IntArrayList();
        IntOpenHashSet usedB = new IntOpenHashSet();
        for (int i = 0; i < ra.size(); i++) {
            int x = ra.getInt(i);
            long h = sa.hash.body(x);
            IntArrayList q = byHash.get(h);
            int at = taken.get(h);
            if (q != null && at < q.size()) {
                int y = q.getInt(at);
                taken.put(h, at + 1);
                pairs.add(new Pair(x, y, "identical"));
                usedB.add(y);
            } else {
                keepA.add(x);
            }
        }
        ra.clear();
        ra.addAll(keepA);
        rb.removeIf((java.util.function.IntPredicate) usedB::contains);
    }

    private static void byOrder(IntArrayList ra, IntArrayList rb, List<Pair> pairs, boolean anonymous) {
        int n = anonymous ? 0 : Math.min(ra.size(), rb.size());
        for (int i = 0; i < n; i++) {
            pairs.add(new Pair(ra.getInt(i), rb.getInt(i), "order"));
        }
        if (anonymous) {
            return;
        }
        ra.removeElements(0, n);
        rb.removeElements(0, n);
    }

    private void bySize(IntArrayList ra, IntArrayList rb, List<Pair> pairs) {
        List<Set<String>> fb = new ArrayList<>();
        for (int j = 0; j < rb.size(); j++) {
            fb.add(features(sb, rb.getInt(j)));
        }
        List<long[]> candidates = new ArrayList<>();
        for (int i = 0; i < ra.size(); i++) {
            int x = ra.getInt(i);
            long size = size(sa, x);
            if (size < 0) {
                continue;
            }
            Set<String> fx = features(sa, x);
            for (int j = 0; j < rb.size(); j++) {
                int y = rb.getInt(j);
                if (size(sb, y) == size) {
                    candidates.add(new long[] {overlap(fx, fb.get(j)), x, y});
                }
            }
        }
        pairGreedily(candidates, ra, rb, pairs, "size");
    }

    private void byOverlap(IntArrayList ra, IntArrayList rb, List<Pair> pairs) {
        if (ra.isEmpty() || rb.isEmpty()) {
            return;
        }
        Map<String, IntArrayList> index = new HashMap<>();
        for (int j = 0; j < rb.size(); j++) {
            for (String f : features(sb, rb.getInt(j))) {
                index.computeIfAbsent(f, k -> new IntArrayList()).add(rb.getInt(j));
            }
        }
        List<long[]> candidates = new ArrayList<>();
        for (int i = 0; i < ra.size(); i++) {
            int x = ra.getInt(i);
            Int2IntOpenHashMap hits = new Int2IntOpenHashMap();
            for (String f : features(sa, x)) {
                IntArrayList ys = index.get(f);
                if (ys != null) {
                    for (int k = 0; k < ys.size(); k++) {
                        hits.addTo(ys.getInt(k), 1);
                    }
                }
            }
            for (Int2IntMap.Entry e : hits.int2IntEntrySet()) {
                candidates.add(new long[] {e.getIntValue(), x, e.getIntKey()});
            }
        }
        pairGreedily(candidates, ra, rb, pairs, "overlap");
    }

    /**
     * Pairs candidates {score, a, b} best score first, each definition at most once, and
     * removes the paired ones from {@code ra} and {@code rb}. Equal scores go by the lower sum
     * of the two ids: two candidates sharing a definition then never tie, so the result does not
     * depend on which side is a — diff(b, a) pairs exactly what diff(a, b) pairs.
     */
    private static void pairGreedily(List<long[]> candidates, IntArrayList ra, IntArrayList rb, List<Pair> pairs,
                                     String method) {
        candidates.sort((p, q) -> p[0] != q[0] ? Long.compare(q[0], p[0]) : Long.compare(p[1] + p[2], q[1] + q[2]));
        IntOpenHashSet usedA = new IntOpenHashSet();
        IntOpenHashSet usedB = new IntOpenHashSet();
        List<Pair> found = new ArrayList<>();
        for (long[] c : candidates) {
            int x = (int) c[1];
            int y = (int) c[2];
            if (!usedA.contains(x) && !usedB.contains(y)) {
                usedA.add(x);
                usedB.add(y);
                found.add(new Pair(x, y, method));
            }
        }
        found.sort((p, q) -> Integer.compare(p.a(), q.a()));
        pairs.addAll(found);
        ra.removeIf((java.util.function.IntPredicate) usedA::contains);
        rb.removeIf((java.util.function.IntPredicate) usedB::contains);
    }

    private static int overlap(Set<String> x, Set<String> y) {
        int n = 0;
        for (String s : x) {
            if (y.contains(s)) {
                n++;
            }
        }
        return n;
    }

    private static long size(Side s, int id) {
        int kind = s.btf.kind(id);
        return Kind.hasSize(kind) ? Integer.toUnsignedLong(s.btf.sizeOrType(id)) : -1;
    }

    /** Names that identify a definition: members, enumerators, parameters; else its description. */
    private static Set<String> features(Side s, int id) {
        Set<String> out = new HashSet<>();
        int kind = s.btf.kind(id);
        int vlen = s.btf.vlen(id);
        switch (kind) {
            case Kind.STRUCT:
            case Kind.UNION:
                for (int i = 0; i < vlen; i++) {
                    out.add(s.str(s.btf.extra(id, 3 * i)));
                }
                break;
            case Kind.ENUM:
            case Kind.ENUM64:
                out.addAll(s.values(id).keySet());
                break;
            case Kind.FUNC:
                for (ParamInfo p : s.names.params(id)) {
                    out.add(p.name() + " " + p.type());
                }
                break;
            default:
                out.add(TypeComparer.describe(s, id));
                break;
        }
        out.remove("");
        return out;
    }
}
