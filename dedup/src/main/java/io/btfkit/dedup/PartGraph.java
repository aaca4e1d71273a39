package io.btfkit.dedup;

import io.btfkit.core.Kind;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;

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
        int first = m.firstId;
        int lo = first + a;
        int hi = first + b;
        Int2IntOpenHashMap placeholder = new Int2IntOpenHashMap();
        placeholder.defaultReturnValue(-1);
        IntArrayList targets = new IntArrayList();
        WorkGraph g = new WorkGraph(m.words, m.starts, a, b - a, lo, extClass, ref -> {
            if (ref < first || (ref >= lo && ref < hi)) {
                return ref;
            }
            int ph = placeholder.get(ref);
            if (ph < 0) {
                ph = targets.size();
                placeholder.put(ref, ph);
                targets.add(ref);
            }
            return hi + ph;
        });
        g.setExtras(placeholders(targets.size()));
        return new PartGraph(g, targets.toIntArray());
    }

    /** Words of {@code count} placeholder nodes. */
    static int[] placeholders(int count) {
        int[] words = new int[WorkGraph.EXTRA_WORDS * count];
        for (int k = 0; k < count; k++) {
            words[WorkGraph.EXTRA_WORDS * k + 1] = Kind.info(PLACEHOLDER_KIND, 0, false);
        }
        return words;
    }
}
