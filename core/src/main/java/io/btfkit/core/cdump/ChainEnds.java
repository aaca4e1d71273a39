package io.btfkit.core.cdump;

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
 * <p>Computed once for all ids, iteratively, each id visited once. A chain that loops among
 * pass-through types only has no end ({@link #NONE}); the walkers then take it step by step
 * and report the loop as before.
 */
final class ChainEnds {
    static final int NONE = -1;

    /** Per id: the end of its chain; the id itself when it does not pass through. */
    private final int[] end;
    /** Per id: an ARRAY lies between the id (included) and its end (excluded). */
    private final boolean[] array;

    ChainEnds(Types types, boolean throughPointers) {
        int n = types.count;
        end = new int[n];
        array = new boolean[n];
        // 0 unvisited, 1 on the current path, 2 done
        byte[] state = new byte[n];
        int[] path = new int[64];
        for (int id = 0; id < n; id++) {
            if (state[id] == 2) {
                continue;
            }
            int len = 0;
            int cur = id;
            while (cur >= 0 && cur < n && state[cur] == 0 && passes(types, cur, throughPointers)) {
                if (len == path.length) {
                    path = Arrays.copyOf(path, len * 2);
                }
                path[len++] = cur;
                state[cur] = 1;
                cur = next(types, cur);
            }
            int e;
            boolean arr = false;
            if (cur < 0 || cur >= n || state[cur] == 1) {
                e = NONE; // a loop among pass-through types, or a reference out of range
            } else if (state[cur] == 2 && passes(types, cur, throughPointers)) {
                e = end[cur];
                arr = array[cur];
            } else {
                e = cur;
                if (state[cur] == 0) {
                    end[cur] = cur;
                    state[cur] = 2;
                }
            }
            for (int k = len - 1; k >= 0; k--) {
                int t = path[k];
                arr |= types.kind(t) == Kind.ARRAY;
                end[t] = e;
                array[t] = e != NONE && arr;
                state[t] = 2;
            }
        }
    }

    /** The end of {@code id}'s chain ({@code id} itself when it does not pass through), or {@link #NONE}. */
    int end(int id) {
        return end[id];
    }

    /** Whether an array lies between {@code id} and {@link #end}: below it nothing is reached through a pointer. */
    boolean passesArray(int id) {
        return array[id];
    }

    private static boolean passes(Types types, int id, boolean throughPointers) {
        if (id == 0) {
            return false;
        }
        return switch (types.kind(id)) {
            case Kind.CONST, Kind.VOLATILE, Kind.RESTRICT, Kind.TYPE_TAG, Kind.ARRAY -> true;
            case Kind.PTR -> throughPointers;
            default -> false;
        };
    }

    private static int next(Types types, int id) {
        return types.kind(id) == Kind.ARRAY ? types.arrayElem(id) : types.ref(id);
    }
}
