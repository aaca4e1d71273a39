package io.btfkit.validate;

import io.btfkit.core.Btf;
import io.btfkit.core.TypeRefs;
import java.util.Arrays;

/**
 * The strongly connected components of a BTF's own reference graph (every type-id field is an
 * edge; references into the base or out of range are left out), numbered so that two own types
 * share a group exactly when each reaches the other. {@link OutputCheck} uses them to say that
 * a reference cycle of an output is "the same" as one of its input: the validator reports a
 * cycle at whatever type its walk started from, which an operation that reorders types moves.
 *
 * <p>Iterative Tarjan (no recursion: chains of a million modifiers are fine), linear in types
 * plus references.
 */
final class CycleGroups {
    private final int first;
    private final int[] group;

    private CycleGroups(int first, int[] group) {
        this.first = first;
        this.group = group;
    }

    /** The group of own type {@code id}, or -1 for void, base and out-of-range ids. */
    int groupOf(int id) {
        int i = id - first;
        return i < 0 || i >= group.length ? -1 : group[i];
    }

    static CycleGroups of(Btf btf) {
        int first = btf.firstId();
        int n = btf.ownTypeCount();
        int[] w = btf.words();
        int[] starts = btf.starts();
        int[] index = new int[n];
        int[] low = new int[n];
        int[] group = new int[n];
        Arrays.fill(index, -1);
        Arrays.fill(group, -1);
        boolean[] onStack = new boolean[n];
        int[] stack = new int[n];
        int sp = 0;
        int[] callNode = new int[n];
        int[] callEdge = new int[n];
        int depth = 0;
        int counter = 0;
        int groups = 0;
        for (int root = 0; root < n; root++) {
            if (index[root] >= 0) {
                continue;
            }
            callNode[0] = root;
            callEdge[0] = 0;
            depth = 1;
            index[root] = low[root] = counter++;
            stack[sp++] = root;
            onStack[root] = true;
            while (depth > 0) {
                int v = callNode[depth - 1];
                int e = callEdge[depth - 1]++;
                int child = child(w, starts, v, e, first, n);
                if (child == -2) {
                    // all edges of v done: pop the call, close a component when v is its root
                    depth--;
                    if (low[v] == index[v]) {
                        int x;
                        do {
                            x = stack[--sp];
                            onStack[x] = false;
                            group[x] = groups;
                        } while (x != v);
                        groups++;
                    }
                    if (depth > 0) {
                        int parent = callNode[depth - 1];
                        low[parent] = Math.min(low[parent], low[v]);
                    }
                    continue;
                }
                if (child < 0) {
                    continue;
                }
                if (index[child] < 0) {
                    index[child] = low[child] = counter++;
                    stack[sp++] = child;
                    onStack[child] = true;
                    callNode[depth] = child;
                    callEdge[depth] = 0;
                    depth++;
                } else if (onStack[child]) {
                    low[v] = Math.min(low[v], index[child]);
                }
            }
        }
        return new CycleGroups(first, group);
    }

    /**
     * The own-type index the {@code e}-th reference of own type {@code v} points to; -1 when it
     * points elsewhere (void, base, out of range, or the field lies outside the type's words);
     * -2 when {@code v} has no {@code e}-th reference.
     */
    static int child(int[] w, int[] starts, int v, int e, int first, int n) {
        int s = starts[v];
        if (s + 1 >= starts[v + 1] || e >= TypeRefs.typeIdCount(w, s)) {
            return -2;
        }
        int slot = TypeRefs.typeIdSlot(w, s, e);
        if (slot >= starts[v + 1]) {
            return -2;
        }
        int c = w[slot] - first;
        return c < 0 || c >= n ? -1 : c;
    }
}
