package io.btfkit.dedup;

import io.btfkit.core.TypeRefs;

/**
 * The type graph a dedup pass works on: the own nodes' words (the type encoding, string offsets
 * already canonical) with node ids from {@code firstId}; ids below {@code firstId} are external
 * nodes whose equivalence classes are already known ({@code extClass}, or the id itself when
 * null — used when the external nodes are classes).
 *
 * <p>The referenced ids of every node are also laid out once as adjacency arrays, so the hot
 * loops (component search, hash-consing, matching) read a node's children without decoding
 * its kind each time.
 */
final class WorkGraph {
    final int[] words;
    final int[] starts;
    final int firstId;
    final int[] extClass;
    private final int[] edgeStart;
    private final int[] edges;

    WorkGraph(int[] words, int[] starts, int firstId, int[] extClass) {
        this.words = words;
        this.starts = starts;
        this.firstId = firstId;
        this.extClass = extClass;
        int n = starts.length - 1;
        edgeStart = new int[n + 1];
        long total = 0;
        for (int i = 0; i < n; i++) {
            edgeStart[i] = (int) total;
            total += TypeRefs.typeIdCount(words, starts[i]);
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new io.btfkit.core.BtfException("too many references to deduplicate: " + total);
        }
        edgeStart[n] = (int) total;
        edges = new int[(int) total];
        for (int i = 0; i < n; i++) {
            int s = starts[i];
            int at = edgeStart[i];
            int count = edgeStart[i + 1] - at;
            for (int k = 0; k < count; k++) {
                edges[at + k] = words[TypeRefs.typeIdSlot(words, s, k)];
            }
        }
    }

    int size() {
        return starts.length - 1;
    }

    int start(int node) {
        return starts[node - firstId];
    }

    int childCount(int node) {
        int i = node - firstId;
        return edgeStart[i + 1] - edgeStart[i];
    }

    int child(int node, int i) {
        return edges[edgeStart[node - firstId] + i];
    }

    /** Class of an external node. */
    int extClassOf(int id) {
        return extClass == null ? id : extClass[id];
    }
}
