package io.btfkit.dedup;

import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;

/**
 * Strongly connected components over the own nodes of a {@link WorkGraph}, iterative (inputs
 * have millions of nodes and chains thousands deep). Components are reported as soon as they
 * are complete, which is leaves first: every component a node references has been reported
 * before the node's own. Edges to external nodes are ignored (their classes are known).
 *
 * <p>Tarjan's search in Pearce's space-efficient form ("A space-efficient algorithm for
 * finding strongly connected components", 2016): one {@code int} per node instead of an index
 * and a low-link. A node's entry is 0 before it is visited; while it is open, its visit number,
 * lowered to the smallest one its descendants reach; once its component is complete, the
 * component's number, counted down from the node count. Open entries stay below every complete
 * one (at most as many nodes are open as are not yet in a component), so "reaches a smaller
 * entry" needs no separate test for completed nodes. That is a quarter of a pass's per-node
 * memory (30 MB on a link of 7.6 M types).
 *
 * <p>A search may be confined to a {@link Scope}: the nodes of one thread's range, where a node
 * of another range that is not classified yet <em>blocks</em> every component reaching it —
 * those are not reported, and are searched again once every range is done.
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

    /**
     * Which own nodes (index from 0) a search may enter: {@code [lo, hi)}. Outside it a node of
     * index {@code knownFrom} or more was classified before the search began (taken as
     * external); with {@code skipClassified}, so is any node whose class in {@code classes} is
     * set (in or out of the range: the searches after the first parallel ranges); any other
     * blocks. {@code blocked} (this search's own) collects the blocked nodes (null when nothing can block), and
     * {@code blockers} (when not null; this search's own) the nodes outside the range that
     * blocked them.
     */
    record Scope(int lo, int hi, int knownFrom, boolean skipClassified, int[] classes, java.util.BitSet blocked,
                 java.util.BitSet blockers) {
        static Scope all(int n) {
            return new Scope(0, n, n, false, null, null, null);
        }
    }

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
        run(g, sink, roots, Scope.all(n), new int[n]);
    }

    /**
     * As {@link #run(WorkGraph, Sink, java.util.BitSet)} within {@code scope}, with {@code rindex}
     * (one entry per own node, 0 where not yet searched) as the search's per-node memory; ranges
     * searched at once share one array.
     */
    static void run(WorkGraph g, Sink sink, java.util.BitSet roots, Scope scope, int[] rindex) {
        int n = scope.hi() - scope.lo();
        int lo = scope.lo();
        int hi = scope.hi();
        int knownFrom = scope.knownFrom();
        int[] classes = scope.skipClassified() ? scope.classes() : null;
        java.util.BitSet blocked = scope.blocked();
        java.util.BitSet blockers = scope.blockers();
        int first = g.firstId;
        // the component stack and the call stack grow as needed: they hold a path and the open
        // components on it, far fewer than n nodes in type graphs
        int[] stack = new int[Math.min(n, 1024) + 1];
        // per open call: its node, the word of its next reference, the references left, the
        // distance between references (read from the graph's words, not an adjacency array),
        // and whether the node is still its component's root
        int[] callNode = new int[Math.max(1, Math.min(n, 1024))];
        int[] callSlot = new int[callNode.length];
        int[] callLeft = new int[callNode.length];
        int[] callStride = new int[callNode.length];
        boolean[] callRoot = new boolean[callNode.length];
        int index = 1;
        int component = n;
        for (int root = roots == null ? lo : roots.nextSetBit(lo); root >= 0 && root < hi;
                root = roots == null ? root + 1 : roots.nextSetBit(root + 1)) {
            if (rindex[root] != 0 || classes != null && classes[root] >= 0) {
                continue;
            }
            int sp = 0;
            int csp = 0;
            rindex[root] = index++;
            open(g, root + first, callNode, callSlot, callLeft, callStride, callRoot, csp++);
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
                    if (w < lo || w >= hi) {
                        if (w < knownFrom && (classes == null || classes[w] < 0)) {
                            blocked.set(v); // (a node of another range, classified there or later)
                            if (blockers != null) {
                                blockers.set(w);
                            }
                        }
                        continue;
                    }
                    if (classes != null && classes[w] >= 0) {
                        continue;
                    }
                    int rw = rindex[w];
                    if (rw == 0) {
                        if (csp == callNode.length) {
                            int len = grow(callNode.length, n);
                            callNode = java.util.Arrays.copyOf(callNode, len);
                            callSlot = java.util.Arrays.copyOf(callSlot, len);
                            callLeft = java.util.Arrays.copyOf(callLeft, len);
                            callStride = java.util.Arrays.copyOf(callStride, len);
                            callRoot = java.util.Arrays.copyOf(callRoot, len);
                        }
                        rindex[w] = index++;
                        open(g, w + first, callNode, callSlot, callLeft, callStride, callRoot, csp++);
                    } else {
                        if (rw < rindex[v]) {
                            rindex[v] = rw;
                            callRoot[top] = false;
                        }
                        if (blocked != null && blocked.get(w)) {
                            blocked.set(v);
                        }
                    }
                    continue;
                }
                csp--;
                if (sp == stack.length) {
                    stack = java.util.Arrays.copyOf(stack, grow(stack.length, n + 1));
                }
                if (callRoot[top]) {
                    // v and the open nodes above it on the stack form a component
                    int rv = rindex[v];
                    int from = sp;
                    while (from > 0 && rv <= rindex[stack[from - 1]]) {
                        from--;
                    }
                    stack[sp++] = v;
                    index -= sp - from;
                    if (blocked == null || !anyBlocked(stack, from, sp, blocked)) {
                        sink.component(stack, from, sp, rindex);
                    }
                    for (int i = from; i < sp; i++) {
                        rindex[stack[i]] = component;
                    }
                    component--;
                    sp = from;
                } else {
                    stack[sp++] = v;
                    // (a component's root, whose entry is now above every open one, never
                    // lowers its parent; the first node of a search is always a root)
                    if (csp > 0) {
                        int u = callNode[csp - 1];
                        if (rindex[v] < rindex[u]) {
                            rindex[u] = rindex[v];
                            callRoot[csp - 1] = false;
                        }
                    }
                }
                if (blocked != null && csp > 0 && blocked.get(v)) {
                    blocked.set(callNode[csp - 1]);
                }
            }
        }
    }

    /** Whether a member of the component is blocked; if so all are (they reach each other). */
    private static boolean anyBlocked(int[] members, int from, int to, java.util.BitSet blocked) {
        boolean any = false;
        for (int i = from; i < to && !any; i++) {
            any = blocked.get(members[i]);
        }
        if (any) {
            for (int i = from; i < to; i++) {
                blocked.set(members[i]);
            }
        }
        return any;
    }

    /** Opens the call for {@code node} at depth {@code at}. */
    private static void open(WorkGraph g, int node, int[] callNode, int[] callSlot, int[] callLeft, int[] callStride,
                             boolean[] callRoot, int at) {
        callNode[at] = node - g.firstId;
        callRoot[at] = true;
        int s = g.realStart(node);
        if (s < 0) {
            callLeft[at] = 0;
            return;
        }
        int info = g.realWords()[s + 1];
        int kind = Kind.kindOf(info);
        callLeft[at] = TypeRefs.typeIdCountOf(kind, Kind.vlenOf(info));
        callSlot[at] = s + TypeRefs.firstTypeIdOffset(kind);
        callStride[at] = TypeRefs.typeIdStrideOf(kind);
    }

    private static int grow(int length, int n) {
        return (int) Math.min(n, Math.max(16L, 2L * length));
    }
}
