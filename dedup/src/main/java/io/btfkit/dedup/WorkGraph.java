package io.btfkit.dedup;

import io.btfkit.core.TypeRefs;

/**
 * The type graph a dedup pass works on: the own nodes' words (the type encoding, string offsets
 * already canonical) with node ids from {@code firstId}; ids below {@code firstId} are external
 * nodes whose equivalence classes are already known ({@code extClass}, or the id itself when
 * null — used when the external nodes are classes).
 */
final class WorkGraph {
    final int[] words;
    final int[] starts;
    final int firstId;
    final int[] extClass;

    WorkGraph(int[] words, int[] starts, int firstId, int[] extClass) {
        this.words = words;
        this.starts = starts;
        this.firstId = firstId;
        this.extClass = extClass;
    }

    int size() {
        return starts.length - 1;
    }

    int start(int node) {
        return starts[node - firstId];
    }

    int childCount(int node) {
        return TypeRefs.typeIdCount(words, starts[node - firstId]);
    }

    int child(int node, int i) {
        int s = starts[node - firstId];
        return words[TypeRefs.typeIdSlot(words, s, i)];
    }

    /** Class of an external node. */
    int extClassOf(int id) {
        return extClass == null ? id : extClass[id];
    }
}
