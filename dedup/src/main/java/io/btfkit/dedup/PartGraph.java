package io.btfkit.dedup;

/**
 * One part of the merged graph made closed for parallel partitioning: its own types (a window
 * of the merged words, not a copy), where each reference to a type of another part (left by
 * resolving a declaration to a definition elsewhere) goes to a placeholder — an extra leaf
 * equal to nothing else — that {@link PartitionRun} later replaces by the target's class.
 */
record PartGraph(WorkGraph graph, int[] targets) {
    /** A kind btfkit does not know: no references, never equal to another node. */
    static final int PLACEHOLDER_KIND = 0x7f;

    /**
     * The part of the merged types {@code [a, b)} (whole inputs): its references to other parts
     * are found among those {@link Declarations#redirect} made when they are the only ones
     * between inputs, else by scanning the part.
     */
    static PartGraph of(Merger.Merged m, int a, int b, int[] extClass) {
        WorkGraph g = new WorkGraph(m.words, m.starts, a, b - a, m.firstId + a, m.firstId, extClass);
        if (!m.crossInputRefs) {
            return new PartGraph(g, new int[0]);
        }
        if (m.redirectedAcross == null) {
            return new PartGraph(g, g.addPlaceholders(PLACEHOLDER_KIND));
        }
        it.unimi.dsi.fastutil.ints.IntArrayList candidates = new it.unimi.dsi.fastutil.ints.IntArrayList();
        int u = java.util.Arrays.binarySearch(m.inputFirst, m.firstId + a);
        for (; u < m.inputFirst.length - 1 && m.inputFirst[u] < m.firstId + b; u++) {
            if (m.redirectedAcross[u] != null) {
                candidates.addElements(candidates.size(), m.redirectedAcross[u]);
            }
        }
        return new PartGraph(g, g.addPlaceholders(PLACEHOLDER_KIND, candidates.toIntArray()));
    }
}
