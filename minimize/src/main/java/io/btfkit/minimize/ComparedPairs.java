package io.btfkit.minimize;

import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.function.BooleanSupplier;

/**
 * The pairs (local type, target type) one type comparison of {@link TypeCompat} has compared,
 * with their results: each pair is compared once, then its result replayed.
 *
 * <p>Why: libbpf's {@code bpf_core_types_are_compat} recurses into every parameter of a
 * prototype, and {@code bpf_core_types_match} also into every member pair of the same name,
 * bounded only in depth. 16 levels of prototypes whose 4 parameters are all the previous level
 * make 4^16 comparisons of the same 17 pairs: minutes for libbpf, and for btfkit before.
 *
 * <p>Why replaying gives libbpf's answer: a pair's result does not depend on where it is met,
 * except through libbpf's level budget — the top call gets {@code levels}, each nested call one
 * less, and a call left without budget fails (compat: before a parameter is compared with no
 * level left; match: on entry with no level left). So each compared pair records the budget it
 * needed ({@code need}: the depth of nested calls below it, plus one where the call itself needs
 * a level), and the top comparison fails when that is more than it had — exactly when libbpf's
 * walk would have run out somewhere below. A pair met again while it is still being compared is
 * a cycle, which libbpf follows until its budget runs out: an error too.
 *
 * <p>The memo also bounds the work: at most {@link #MAX_STEPS} steps (types followed,
 * parameters and member pairs tried) per comparison, a bound libbpf does not have and no real
 * kernel comes near; past it the relocation fails with a message.
 */
final class ComparedPairs {
    /** Steps one comparison may take. */
    static final int MAX_STEPS = 1 << 22;

    /** A compared pair: its result and the level budget it needed. */
    private record Seen(boolean result, int need) {
    }

    private final int levels;
    private final int ownNeed;
    private final Long2ObjectOpenHashMap<Seen> seen = new Long2ObjectOpenHashMap<>();
    private final LongOpenHashSet open = new LongOpenHashSet();
    /** Nested calls in progress (0 in the top call). */
    private int depth;
    /** The budget the call in progress needs so far. */
    private int need;
    private int steps;

    /**
     * @param levels  libbpf's budget for the top call
     * @param ownNeed the budget every call needs for itself (match: 1, it fails on entry without
     *                one; compat: 0, only its parameters need one)
     */
    ComparedPairs(int levels, int ownNeed) {
        this.levels = levels;
        this.ownNeed = ownNeed;
    }

    static long key(int localId, int targId, boolean behindPtr) {
        return ((long) localId << 32 | Integer.toUnsignedLong(targId)) ^ (behindPtr ? 1L << 63 : 0);
    }

    /** The top comparison of the pair {@code key}, done by {@code compare}. */
    boolean top(long key, BooleanSupplier compare) {
        Seen s = once(key, compare);
        if (s.need > levels) {
            throw tooDeep();
        }
        return s.result;
    }

    /** A comparison nested in the one in progress (one level down: a parameter, a member pair). */
    boolean nested(long key, BooleanSupplier compare) {
        Seen s = once(key, compare);
        need = Math.max(need, 1 + s.need);
        return s.result;
    }

    /** Counts one step of the comparison in progress. */
    void step() {
        if (++steps > MAX_STEPS) {
            throw new ReloFailure("type comparison takes more than " + MAX_STEPS + " steps");
        }
    }

    private Seen once(long key, BooleanSupplier compare) {
        Seen s = seen.get(key);
        if (s != null) {
            return s;
        }
        if (depth + ownNeed > levels) {
            // the budget is spent at this depth, whatever is below (and the stack stays short)
            throw tooDeep();
        }
        if (!open.add(key)) {
            throw tooDeep();
        }
        int outer = need;
        need = ownNeed;
        depth++;
        boolean result = compare.getAsBoolean();
        depth--;
        s = new Seen(result, need);
        need = outer;
        open.remove(key);
        seen.put(key, s);
        return s;
    }

    private ReloFailure tooDeep() {
        return new ReloFailure("types nested deeper than " + levels + " levels");
    }
}
