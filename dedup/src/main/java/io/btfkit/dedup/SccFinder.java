package io.btfkit.dedup;

/**
 * Tarjan's strongly connected components over the own nodes of a {@link WorkGraph}, iterative
 * (inputs have millions of nodes and chains thousands deep). Components are reported as soon
 * as they are complete, which is leaves first: every component a node references has been
 * reported before the node's own. Edges to external nodes are ignored (their classes are known).
 */
final class SccFinder {
    /** Receives one component: {@code members[from, to)} are own-node indexes (id - firstId). */
    interface Sink {
        void component(int[] members, int from, int to);
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
        int[] stack = new int[n];
        int[] callNode = new int[n];
        int[] callEdge = new int[n];
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
                    sink.component(stack, from, sp);
                    for (int i = from; i < sp; i++) {
                        index[stack[i]] = DONE;
                    }
                    sp = from;
                }
                if (csp > 0) {
                    int u = callNode[csp - 1];
                    if (low[v] < low[u]) {
                        low[u] = low[v];
                    }
                }
            }
        }
    }
}
