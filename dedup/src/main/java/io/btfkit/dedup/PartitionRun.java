package io.btfkit.dedup;

import java.util.BitSet;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Partitions a graph made of closed parts (no part references another; all may reference the
 * base) using every core: each part is partitioned on its own, in parallel, against the shared
 * read-only base classes; then the parts' classes — one small graph each — are partitioned
 * together. The result is the same coarsest equivalence as partitioning everything at once,
 * because a quotient keeps exactly the equivalences of the graph it came from.
 */
final class PartitionRun {
    /** Final class table: the union of the parts' classes (or the single part's table). */
    final ClassTable table;
    private final ClassTable[] layers;
    private final int[] offset;
    private final int base;

    private PartitionRun(ClassTable table, ClassTable[] layers, int[] offset, int base) {
        this.table = table;
        this.layers = layers;
        this.offset = offset;
        this.base = base;
    }

    /**
     * @param parts     the parts' graphs (each closed but for references into the base)
     * @param roots     per part, the own nodes to classify (null entries: all)
     * @param baseLayer the base's classes, or null
     */
    static PartitionRun partition(List<WorkGraph> parts, List<BitSet> roots, ClassTable baseLayer) {
        return partition(parts, roots, baseLayer, null);
    }

    /**
     * References between parts: in part {@code p}, own nodes from {@code cross.realCount[p]}
     * on are placeholders (unique leaves) standing for the nodes {@code cross.targets[p][k]}
     * (ids of the whole graph) of other parts — part {@code q} holds the ids
     * {@code [firstId, firstId + ownCount[q])} — and the union step puts each target's class in
     * its placeholder's place. A part partitioned with such leaves is finer than the truth but
     * closed under references, so the union step still yields the exact result.
     */
    record Cross(int[] realCount, int[] ownCount, int[][] targets) {
    }

    static PartitionRun partition(List<WorkGraph> parts, List<BitSet> roots, ClassTable baseLayer, Cross cross) {
        int p = parts.size();
        io.btfkit.core.PhaseTimer timer = new io.btfkit.core.PhaseTimer();
        ClassTable[] layers = new ClassTable[p];
        IntStream.range(0, p).parallel().forEach(i -> {
            ClassTable t = new ClassTable(baseLayer, parts.get(i));
            BitSet r = roots == null ? null : roots.get(i);
            if (r == null) {
                new Partitioner(t).run();
            } else {
                new Partitioner(t).run(r);
            }
            layers[i] = t;
        });
        int b = baseLayer == null ? 1 : baseLayer.classCount();
        timer.lap("parts(" + p + ")");
        if (p == 1) {
            return new PartitionRun(layers[0], layers, new int[] {0}, b);
        }
        int[] offset = new int[p + 1];
        for (int i = 0; i < p; i++) {
            offset[i + 1] = offset[i] + layers[i].ownClassCount();
        }
        WorkGraph ug = unionGraph(layers, offset, b, cross);
        ClassTable union = new ClassTable(baseLayer, ug, ug.size());
        for (ClassTable t : layers) {
            t.keepOnlyNodeClasses();
        }
        timer.lap("union graph(" + offset[p] + ")");
        new Partitioner(union).run();
        timer.lap("union(" + union.ownClassCount() + ")");
        return new PartitionRun(union, layers, offset, b);
    }

    /** One node per class of every part, its children being (renumbered) classes. */
    private static WorkGraph unionGraph(ClassTable[] layers, int[] offset, int b, Cross cross) {
        int n = offset[layers.length];
        int[] starts = new int[n + 1];
        int total = 0;
        for (int i = 0; i < layers.length; i++) {
            ClassTable t = layers[i];
            for (int c = t.first; c < t.classCount(); c++) {
                starts[offset[i] + c - t.first] = total;
                int r = t.rep(c);
                total += t.graph.wordLength(r);
            }
        }
        starts[n] = total;
        int[] words = new int[total];
        for (int i = 0; i < layers.length; i++) {
            ClassTable t = layers[i];
            for (int c = t.first; c < t.classCount(); c++) {
                int at = starts[offset[i] + c - t.first];
                int r = t.rep(c);
                int from = t.graph.start(r);
                System.arraycopy(t.graph.wordsOf(r), from, words, at, starts[offset[i] + c - t.first + 1] - at);
                int kids = io.btfkit.core.TypeRefs.typeIdCount(words, at);
                for (int k = 0; k < kids; k++) {
                    int cc = t.childClass(c, k);
                    int child = t.graph.child(r, k);
                    if (cross != null && child >= t.graph.firstId + cross.realCount()[i]) {
                        cc = targetClass(layers, cross, child - t.graph.firstId - cross.realCount()[i], i, offset, b);
                        words[io.btfkit.core.TypeRefs.typeIdSlot(words, at, k)] = cc;
                        continue;
                    }
                    words[io.btfkit.core.TypeRefs.typeIdSlot(words, at, k)] = cc < b ? cc : b + offset[i] + cc - t.first;
                }
            }
        }
        return new WorkGraph(words, starts, b, null);
    }

    /** Union-graph id of the class of placeholder {@code k} of part {@code i}'s target. */
    private static int targetClass(ClassTable[] layers, Cross cross, int k, int i, int[] offset, int b) {
        int target = cross.targets()[i][k];
        for (int q = 0; q < layers.length; q++) {
            WorkGraph g = layers[q].graph;
            if (target >= g.firstId && target < g.firstId + cross.ownCount()[q]) {
                int c = layers[q].nodeClass[target - g.firstId];
                return c < b ? c : b + offset[q] + c - layers[q].first;
            }
        }
        throw new IllegalStateException("placeholder target " + target + " is in no part");
    }

    /** Final class of own node {@code node} of part {@code part}, or -1 if it was not classified. */
    int classOf(int part, int node) {
        ClassTable t = layers[part];
        int c = t.classOfNode(node);
        if (c < 0 || layers.length == 1 || c < t.first) {
            return c;
        }
        return table.nodeClass[offset[part] + c - t.first];
    }
}
