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

    static PartGraph of(Merger.Merged m, int a, int b, int[] extClass) {
        WorkGraph g = new WorkGraph(m.words, m.starts, a, b - a, m.firstId + a, m.firstId, extClass);
        return new PartGraph(g, g.addPlaceholders(PLACEHOLDER_KIND));
    }
}
