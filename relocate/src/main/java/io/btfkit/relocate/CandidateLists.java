package io.btfkit.relocate;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The new-base candidates of distilled types, searched and listed once per name group and
 * distilled shape rather than once per distilled type.
 *
 * <p>Why: what {@link DistilledBaseMap} finds for a distilled type depends only on its name
 * group in the new base and on what the match test reads of it (kind, kind_flag, INT encoding,
 * size, whether the split embeds it by value). A distilled base of 60,000 {@code STRUCT 's'
 * size=4} against a new base of 60,000 other {@code s} made every type search, then list, the
 * whole group: 3.6 billion steps, over two minutes. Now each shape of each group is scanned once.
 */
final class CandidateLists {
    /** What the candidate search reads of a distilled type, with its name group. */
    private record Shape(int group, int kind, boolean kindFlag, int encoding, int size, boolean embedded) {
    }

    /**
     * The new-base types of a group that could stand for a distilled kind at all, listed, and
     * the first of each (masked) size.
     */
    record Family(List<Integer> ids, String listed, boolean allForwards, Map<Integer, Integer> firstBySize) {
        /** The first of these types whose size (masked as the index masks it) is {@code size}, or 0. */
        int firstOfSize(int size) {
            return firstBySize.getOrDefault(size, 0);
        }
    }

    private final Btf dist;
    private final Btf base;
    private final NewBaseIndex index;
    private final Map<Shape, int[]> firstTwo = new HashMap<>();
    private final Map<Shape, String> matching = new HashMap<>();
    private final Map<Shape, Family> families = new HashMap<>();
    private final Map<Integer, String> groups = new HashMap<>();

    CandidateLists(Btf dist, NewBaseIndex index) {
        this.dist = dist;
        this.base = index.base();
        this.index = index;
    }

    private Shape shape(int d, int g, boolean embedded) {
        int kind = dist.kind(d);
        return new Shape(g, kind, dist.kindFlag(d), kind == Kind.INT ? DistilledBaseMap.intEncoding(dist, d) : 0,
                dist.sizeOrType(d), embedded);
    }

    /**
     * The first two candidates of group {@code g} that match {@code d} (0 where there are fewer),
     * in new-base id order; {@code embedded}: the split embeds {@code d} by value, so the first
     * match must also have its size.
     */
    int[] firstTwo(int d, int g, boolean embedded) {
        return firstTwo.computeIfAbsent(shape(d, g, embedded), s -> {
            int first = 0;
            for (int e = index.groupStart(g); e < index.groupEnd(g); e++) {
                int b = index.id(e);
                if (fits(d, e) && DistilledBaseMap.matches(dist, d, base, b, embedded && first == 0)) {
                    if (first != 0) {
                        return new int[] {first, b};
                    }
                    first = b;
                }
            }
            return new int[] {first, 0};
        });
    }

    /** Every candidate of group {@code g} that matches {@code d}, listed (an ambiguity). */
    String matching(int d, int g, boolean embedded) {
        return matching.computeIfAbsent(shape(d, g, embedded), s -> {
            List<Integer> all = new ArrayList<>();
            for (int e = index.groupStart(g); e < index.groupEnd(g); e++) {
                int b = index.id(e);
                if (fits(d, e) && DistilledBaseMap.matches(dist, d, base, b, embedded && all.isEmpty())) {
                    all.add(b);
                }
            }
            return list(base, all);
        });
    }

    /** The candidates of group {@code g} of {@code d}'s kind family (sizes and encodings aside). */
    Family family(int d, int g) {
        int kind = dist.kind(d);
        Shape key = new Shape(g, kind, kind == Kind.FWD && dist.kindFlag(d), 0, 0, false);
        return families.computeIfAbsent(key, s -> {
            List<Integer> ids = new ArrayList<>();
            for (int e = index.groupStart(g); e < index.groupEnd(g); e++) {
                if (DistilledBaseMap.sameKindFamily(dist, d, base, index.id(e))) {
                    ids.add(index.id(e));
                }
            }
            Map<Integer, Integer> bySize = new HashMap<>();
            for (int b : ids) {
                bySize.putIfAbsent(base.sizeOrType(b) & NewBaseIndex.SIZE_MASK, b);
            }
            return new Family(ids, list(base, ids), ids.stream().allMatch(b -> base.kind(b) == Kind.FWD), bySize);
        });
    }

    /** The whole group {@code g}, listed. */
    String group(int g) {
        return groups.computeIfAbsent(g, x -> {
            List<Integer> ids = new ArrayList<>();
            for (int e = index.groupStart(g); e < index.groupEnd(g); e++) {
                ids.add(index.id(e));
            }
            return list(base, ids);
        });
    }

    /** Whether candidate {@code e} passes the size filter of a group where the new base has several sizes. */
    private boolean fits(int d, int e) {
        return !index.needsSize(e)
                || (base.sizeOrType(index.id(e)) & NewBaseIndex.SIZE_MASK) == (dist.sizeOrType(d) & NewBaseIndex.SIZE_MASK);
    }

    /** The first four types, then how many more: {@code [3] STRUCT 's' size=4, ... and 59996 more}. */
    static String list(Btf base, List<Integer> ids) {
        StringBuilder b = new StringBuilder();
        int shown = Math.min(ids.size(), 4);
        for (int i = 0; i < shown; i++) {
            b.append(i == 0 ? "" : i == shown - 1 && shown == ids.size() ? " and " : ", ")
                    .append(DistilledBaseMap.describe(base, ids.get(i)));
        }
        if (ids.size() > shown) {
            b.append(" and ").append(ids.size() - shown).append(" more");
        }
        return b.toString();
    }
}
