package io.btfkit.validate;

import io.btfkit.core.Btf;
import java.util.BitSet;

/**
 * The own types of a BTF that are broken or refer, directly or through other types, to a broken
 * one. The validator stays silent about a type that depends on a failed type ("one defect, one
 * finding"), so which of them gets reported depends on the order the walk meets them in; an
 * operation that reorders or merges types can make the walk report one of these dependents
 * instead. {@link OutputCheck} counts such a finding as carried.
 *
 * <p>A breadth-first walk over the reversed reference graph (built once, compressed rows):
 * linear in types plus references.
 */
final class DependsOnBroken {
    private DependsOnBroken() {
    }

    /**
     * Per own-type index (id - firstId): the broken type (own-type index, one of {@code broken})
     * it is or reaches first in a breadth-first walk back from the broken ones — the defect a
     * message about it should name — or -1 when it reaches none.
     */
    static int[] of(Btf btf, BitSet broken) {
        int first = btf.firstId();
        int n = btf.ownTypeCount();
        int[] w = btf.words();
        int[] starts = btf.starts();
        int[] inStart = new int[n + 1];
        for (int v = 0; v < n; v++) {
            for (int e = 0;; e++) {
                int c = CycleGroups.child(w, starts, v, e, first, n);
                if (c == -2) {
                    break;
                }
                if (c >= 0) {
                    inStart[c + 1]++;
                }
            }
        }
        for (int i = 0; i < n; i++) {
            inStart[i + 1] += inStart[i];
        }
        int[] from = new int[inStart[n]];
        int[] fill = java.util.Arrays.copyOf(inStart, n);
        for (int v = 0; v < n; v++) {
            for (int e = 0;; e++) {
                int c = CycleGroups.child(w, starts, v, e, first, n);
                if (c == -2) {
                    break;
                }
                if (c >= 0) {
                    from[fill[c]++] = v;
                }
            }
        }
        int[] origin = new int[n];
        java.util.Arrays.fill(origin, -1);
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        for (int i = broken.nextSetBit(0); i >= 0 && i < n; i = broken.nextSetBit(i + 1)) {
            origin[i] = i;
            queue[tail++] = i;
        }
        while (head < tail) {
            int x = queue[head++];
            for (int k = inStart[x]; k < inStart[x + 1]; k++) {
                int y = from[k];
                if (origin[y] < 0) {
                    origin[y] = origin[x];
                    queue[tail++] = y;
                }
            }
        }
        return origin;
    }
}
