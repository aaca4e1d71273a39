package io.btfkit.dedup;

/**
 * Tarjan's strongly connected components over the own nodes of a {@link WorkGraph}, iterative
 * (inputs have millions of nodes and chains thousands deep). Components are reported as soon
 * as they are complete, which is leaves first: every component a node references has been
 * reported before the node's own. Edges to external nodes are ignored (their classes are known).
 */
final class SccFinder {
    /**
     * Receives one component: {@code members[from, to)} are own-node indexes (id - firstId).
     * The entries of {@code free} at those indexes are the sink's to use (the search no longer
     * reads them; their values are arbitrary), so a sink needs no per-node scratch of its own.
     */
    interface Sink {
        void component(int[] members, int from, int to, int[] free);
    }

    private static final int DONE = Integer.MAX_VALUE;

    private SccFinder() {
    }

    static void run(WorkGraph g, Sink sink) {
        run(g, sink, null);
    }

    /**
     * As {@link #run(WorkGraph, Sink)}, starting only from own nodes {@code roots} accepts (null:
     * all); nodes not reachable from those are never reported.
     */
    static void run(WorkGraph g, Sink sink, java.util.BitSet roots) {
        int n = g.size();
        int first = g.firstId;
        int[] index = new int[n];
        int[] low = new int[n];
        // the component stack and the call stack grow as needed: they hold a path and the open
        // components on it, far fewer than n nodes in type graphs (n int arrays each would be
        // 60 MB on a link of 7 M types)
        int[] stack = new int[Math.min(n, 1024)];
        // per open call: its node, the word of its next reference, the references left, and
        // the distance between references (read from the graph's words, not an adjacency array)
        int[] callNode = new int[Math.min(n, 1024)];
        int[] callSlot = new int[callNode.length];
        int[] callLeft = new int[callNode.length];
        int[] callStride = new int[callNode.length];
        int counter = 0;
        for (int root = 0; root < n; root++) {
            if (index[root] != 0 || (roots != null && !roots.get(root))) {
                continue;
            }
            int sp = 0;
            int csp = 0;
            index[root] = low[root] = ++counter;
            stack[sp++] = root;
            open(g, root + first, callNode, callSlot, callLeft, callStride, csp++);
            while (csp > 0) {
                int top = csp - 1;
                int v = callNode[top];
                int left = callLeft[top];
                if (left > 0) {
                    int slot = callSlot[top];
                    callLeft[top] = left - 1;
                    callSlot[top] = slot + callStride[top];
                    int w = g.ref(slot) - first;
                    if (w < 0) {
                        continue;
                    }
                    int iw = index[w];
                    if (iw == 0) {
                        if (sp == stack.length) {
                            stack = java.util.Arrays.copyOf(stack, grow(stack.length, n));
                        }
                        if (csp == callNode.length) {
                            int len = grow(callNode.length, n);
                            callNode = java.util.Arrays.copyOf(callNode, len);
                            callSlot = java.util.Arrays.copyOf(callSlot, len);
                            callLeft = java.util.Arrays.copyOf(callLeft, len);
                            callStride = java.util.Arrays.copyOf(callStride, len);
                        }
                        index[w] = low[w] = ++counter;
                        stack[sp++] = w;
                        open(g, w + first, callNode, callSlot, callLeft, callStride, csp++);
                    } else if (iw != DONE && iw < low[v]) {
                        low[v] = iw;
                    }
                    continue;
                }
                csp--;
                if (low[v] == index[v]) {
                    int from = sp;
                    do {
                        from--;
                    } while (stack[from] != v);
                    sink.component(stack, from, sp, low);
                    for (int i = from; i < sp; i++) {
                        index[stack[i]] = DONE;
                    }
                    sp = from;
                } else if (csp > 0) {
                    // (a component's root never lowers its parent, and its low entry is the sink's)
                    int u = callNode[csp - 1];
                    if (low[v] < low[u]) {
                        low[u] = low[v];
                    }
                }
            }
        }
    }

    /** Opens the call for {@code node} at depth {@code at}. */
    private static void open(WorkGraph g, int node, int[] callNode, int[] callSlot, int[] callLeft, int[] callStride, int at) {
        int count = g.childCount(node);
        callNode[at] = node - g.firstId;
        callLeft[at] = count;
        if (count > 0) {
            callSlot[at] = g.childSlot(node);
            callStride[at] = g.childStride(node);
        }
    }

    private static int grow(int length, int n) {
        return (int) Math.min(n, Math.max(16L, 2L * length));
    }
}
