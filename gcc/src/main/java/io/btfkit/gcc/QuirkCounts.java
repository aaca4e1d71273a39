package io.btfkit.gcc;

import java.util.Arrays;

/**
 * How many times each {@link GccQuirk} occurs (or was rewritten) in one input, with the first
 * type id of each as an example. Mutable while a scan or a rewrite fills it; {@link #plus}
 * sums the units of one file.
 */
public final class QuirkCounts {
    private static final GccQuirk[] ALL = GccQuirk.values();
    private final int[] counts = new int[ALL.length];
    private final int[] firstId = new int[ALL.length];

    public QuirkCounts() {
        Arrays.fill(firstId, -1);
    }

    /** Counts {@code n} more of {@code q}; {@code typeId} (or -1) is remembered if it is the first. */
    public void add(GccQuirk q, int n, int typeId) {
        if (n <= 0) {
            return;
        }
        counts[q.ordinal()] += n;
        if (firstId[q.ordinal()] < 0) {
            firstId[q.ordinal()] = typeId;
        }
    }

    public void add(GccQuirk q, int typeId) {
        add(q, 1, typeId);
    }

    public int count(GccQuirk q) {
        return counts[q.ordinal()];
    }

    /** First type id counted for {@code q}, or -1. */
    public int firstId(GccQuirk q) {
        return firstId[q.ordinal()];
    }

    /** Sum over all quirks. */
    public int total() {
        int t = 0;
        for (int c : counts) {
            t += c;
        }
        return t;
    }

    public boolean isEmpty() {
        return total() == 0;
    }

    /** A new count holding this one and {@code o} (first ids from this one when it has them). */
    public QuirkCounts plus(QuirkCounts o) {
        QuirkCounts r = new QuirkCounts();
        for (int i = 0; i < ALL.length; i++) {
            r.counts[i] = counts[i] + o.counts[i];
            r.firstId[i] = firstId[i] >= 0 ? firstId[i] : o.firstId[i];
        }
        return r;
    }

    /** {@code "3 gcc-fwd-type-field, 1 gcc-enum-fwd"} in rule order; "" when empty. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        for (GccQuirk q : ALL) {
            int c = counts[q.ordinal()];
            if (c > 0) {
                if (sb.length() > 0) {
                    sb.append(", ");
                }
                sb.append(c).append(' ').append(q.id());
            }
        }
        return sb.toString();
    }

    /**
     * The warning for one input: {@code "normalised 5 GCC encodings (4 gcc-fwd-type-field, 1
     * gcc-enum-fwd); kept 2 (2 gcc-anon-func)"}, or null when both counts are empty.
     */
    public static String describe(QuirkCounts applied, QuirkCounts kept) {
        if (applied.isEmpty() && kept.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        if (!applied.isEmpty()) {
            sb.append("normalised ").append(applied.total()).append(" GCC encodings (").append(applied.summary()).append(')');
        }
        if (!kept.isEmpty()) {
            sb.append(applied.isEmpty() ? "kept " : "; kept ").append(kept.total())
                    .append(applied.isEmpty() ? " GCC encodings (" : " (").append(kept.summary()).append(')');
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return summary();
    }
}
