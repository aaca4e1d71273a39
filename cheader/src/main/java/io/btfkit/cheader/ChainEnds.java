package io.btfkit.cheader;

import io.btfkit.core.Kind;
import java.util.Arrays;

/**
 * Where a chain of pass-through types ends: for each type that is a qualifier, type tag or
 * array (and, when asked, a pointer), the first type below it that is none of these, and
 * whether an array lies on the way. The planner and the emitter walk such chains for every
 * definition that reaches them; jumping to the end instead keeps a million-long chain of
 * {@code const} or array dimensions linear instead of quadratic (nothing happens at a
 * pass-through type itself: it has no state, prints nothing, orders nothing).
 *
 * <p>Computed on demand and remembered for every type of the chain walked, so each type is
 * walked once (a full pass over all ids up front cost 6% of printing vmlinux). A chain that
 * loops among pass-through types only has no end ({@link #NONE}); the walkers then take it
 * step by step and report the loop as before.
 */
final class ChainEnds {
    static final int NONE = -1;

    private static final int UNKNOWN = 0;
    private static final int ON_PATH = -1;

    private final Types types;
    private final boolean throughPointers;
    /** Per id: UNKNOWN, ON_PATH while being walked, else the end plus 2 (1 for {@link #NONE}). */
    private final int[] end;
    /** Per id: an ARRAY lies between the id (included) and its end (excluded). */
    private final boolean[] array;
    private int[] path = new int[64];

    ChainEnds(Types types, boolean throughPointers) {
        this.types = types;
        this.throughPointers = throughPointers;
        this.end = new int[types.count];
        this.array = new boolean[types.count];
    }

    /** The end of {@code id}'s chain ({@code id} itself when it does not pass through), or {@link #NONE}. */
    int end(int id) {
        if (!passes(id)) {
            return id; // the common case: decided by the kind, which the caller reads next anyway
        }
        int e = end[id];
        if (e > 0) {
            return e - 2;
        }
        int len = 0;
        int cur = id;
        while (cur >= 0 && cur < end.length && end[cur] == UNKNOWN && passes(cur)) {
            if (len == path.length) {
                path = Arrays.copyOf(path, len * 2);
            }
            path[len++] = cur;
            end[cur] = ON_PATH;
            cur = next(cur);
        }
        int result;
        boolean arr = false;
        if (cur < 0 || cur >= end.length || end[cur] == ON_PATH) {
            result = NONE; // a loop among pass-through types, or a reference out of range
        } else if (end[cur] > 0) {
            result = end[cur] - 2;
            arr = array[cur];
        } else {
            result = cur; // the first type that does not pass through
        }
        for (int k = len - 1; k >= 0; k--) {
            int t = path[k];
            arr |= types.kind(t) == Kind.ARRAY;
            end[t] = result + 2;
            array[t] = result != NONE && arr;
        }
        return result;
    }

    /** Whether an array lies between {@code id} and {@link #end}: below it nothing is reached through a pointer. */
    boolean passesArray(int id) {
        return array[id];
    }

    private boolean passes(int id) {
        if (id == 0) {
            return false;
        }
        return switch (types.kind(id)) {
            case Kind.CONST, Kind.VOLATILE, Kind.RESTRICT, Kind.TYPE_TAG, Kind.ARRAY -> true;
            case Kind.PTR -> throughPointers;
            default -> false;
        };
    }

    private int next(int id) {
        return types.kind(id) == Kind.ARRAY ? types.arrayElem(id) : types.ref(id);
    }
}
