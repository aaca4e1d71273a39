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
        int[] callNode = new int[Math.min(n, 1024)];
        int[] callEdge = new int[Math.min(n, 1024)];
        int counter = 0;
        for (int root = 0; root < n; root++) {
            if (index[root] != 0 || (roots != null && !roots.get(root))) {
                continue;
            }
            int sp = 0;
            int csp = 0;
            index[root] = low[root] = ++counter;
            stack[sp++] = root;
            callNode[csp] = root;
            callEdge[csp++] = 0;
            while (csp > 0) {
                int v = callNode[csp - 1];
                int e = callEdge[csp - 1];
                if (e < g.childCount(v + first)) {
                    callEdge[csp - 1] = e + 1;
                    int w = g.child(v + first, e) - first;
                    if (w < 0) {
                        continue;
                    }
                    int iw = index[w];
                    if (iw == 0) {
                        if (sp == stack.length) {
                            stack = java.util.Arrays.copyOf(stack, grow(stack.length, n));
                        }
                        if (csp == callNode.length) {
                            callNode = java.util.Arrays.copyOf(callNode, grow(callNode.length, n));
                            callEdge = java.util.Arrays.copyOf(callEdge, callNode.length);
                        }
                        index[w] = low[w] = ++counter;
                        stack[sp++] = w;
                        callNode[csp] = w;
                        callEdge[csp++] = 0;
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

    private static int grow(int length, int n) {
        return (int) Math.min(n, Math.max(16L, 2L * length));
    }
}
