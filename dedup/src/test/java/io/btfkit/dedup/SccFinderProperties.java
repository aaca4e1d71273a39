package io.btfkit.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Kind;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link SccFinder} against a brute-force reference on random graphs (structs whose members
 * reference random types, self-loops and void included): every node reached is reported once,
 * in exactly its strongly connected component, components leaves first — while the sink
 * scribbles over the entries it is lent, as the partitioner does.
 */
class SccFinderProperties {
    /** A graph of {@code n} structs, ids 1..n, as BTF words; {@code edges[u]} its references. */
    private record Graph(WorkGraph graph, int[][] edges) {
        static Graph random(int n, long seed) {
            Random r = new Random(seed);
            int[][] edges = new int[n + 1][];
            List<Integer> words = new ArrayList<>();
            int[] starts = new int[n + 1];
            for (int u = 1; u <= n; u++) {
                int k = r.nextInt(5);
                edges[u] = new int[k];
                starts[u - 1] = words.size();
                words.add(0);
                words.add(Kind.info(Kind.STRUCT, k, false));
                words.add(8);
                for (int i = 0; i < k; i++) {
                    // mostly nearby ids (chains and small cycles, as in type graphs), some far, some void
                    int v = r.nextInt(10) == 0 ? 0 : r.nextInt(3) == 0 ? 1 + r.nextInt(n)
                            : Math.max(1, Math.min(n, u + r.nextInt(7) - 3));
                    edges[u][i] = v;
                    words.add(0);
                    words.add(v);
                    words.add(0);
                }
            }
            starts[n] = words.size();
            int[] w = words.stream().mapToInt(Integer::intValue).toArray();
            return new Graph(new WorkGraph(w, starts, 1, null), edges);
        }

        boolean[][] reach() {
            int n = edges.length - 1;
            boolean[][] reach = new boolean[n + 1][n + 1];
            for (int u = 1; u <= n; u++) {
                reach[u][u] = true;
                for (int v : edges[u]) {
                    if (v > 0) {
                        reach[u][v] = true;
                    }
                }
            }
            for (int k = 1; k <= n; k++) {
                for (int i = 1; i <= n; i++) {
                    if (reach[i][k]) {
                        for (int j = 1; j <= n; j++) {
                            reach[i][j] |= reach[k][j];
                        }
                    }
                }
            }
            return reach;
        }
    }

    @Property(tries = 300)
    void componentsAreExactAndLeavesFirst(@ForAll @IntRange(min = 1, max = 70) int n, @ForAll long seed,
                                          @ForAll boolean fromSomeRoots) {
        Graph g = Graph.random(n, seed);
        BitSet roots = null;
        if (fromSomeRoots) {
            roots = new BitSet();
            Random r = new Random(~seed);
            for (int i = 0; i < n; i++) {
                if (r.nextInt(4) == 0) {
                    roots.set(i);
                }
            }
        }
        int[] componentOf = new int[n + 1];
        java.util.Arrays.fill(componentOf, -1);
        int[] count = {0};
        Random scribble = new Random(seed);
        SccFinder.run(g.graph(), (members, from, to, free) -> {
            for (int i = from; i < to; i++) {
                int u = members[i] + 1;
                assertEquals(-1, componentOf[u], "node " + u + " reported twice");
                componentOf[u] = count[0];
            }
            for (int i = from; i < to; i++) {
                free[members[i]] = scribble.nextInt(); // the sink's to use
            }
            count[0]++;
        }, roots);
        boolean[][] reach = g.reach();
        for (int u = 1; u <= n; u++) {
            boolean reached = roots == null;
            for (int s = 0; !reached && s < n; s++) {
                reached = roots.get(s) && reach[s + 1][u];
            }
            assertEquals(reached, componentOf[u] >= 0, "node " + u + " reported iff reachable from the roots");
            if (!reached) {
                continue;
            }
            for (int v = 1; v <= n; v++) {
                if (componentOf[v] >= 0) {
                    assertEquals(reach[u][v] && reach[v][u], componentOf[u] == componentOf[v],
                            "nodes " + u + " and " + v + " share a component iff each reaches the other");
                }
            }
            for (int v : g.edges()[u]) {
                if (v > 0 && componentOf[v] != componentOf[u]) {
                    assertTrue(componentOf[v] < componentOf[u], "edge " + u + " -> " + v + ": callee's component first");
                }
            }
        }
    }
}
