package io.btfkit.dedup;

import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.Arrays;

/**
 * One part of the merged graph made closed for parallel partitioning: its own types, where
 * each reference to a type of another part (left by resolving a declaration to a definition
 * elsewhere) goes to a placeholder — a leaf equal to nothing else — that {@link PartitionRun}
 * later replaces by the target's class.
 */
record PartGraph(WorkGraph graph, int[] targets) {
    /** A kind btfkit does not know: no references, never equal to another node. */
    static final int PLACEHOLDER_KIND = 0x7f;

    static PartGraph of(Merger.Merged m, int a, int b, int[] extClass) {
        int first = m.firstId;
        int from = m.starts[a];
        int n = b - a;
        int[] words = Arrays.copyOfRange(m.words, from, m.starts[b]);
        int[] starts = new int[n + 1];
        for (int i = a; i <= b; i++) {
            starts[i - a] = m.starts[i] - from;
        }
        int lo = first + a;
        int hi = first + b;
        Int2IntOpenHashMap placeholder = new Int2IntOpenHashMap();
        placeholder.defaultReturnValue(-1);
        IntArrayList targets = new IntArrayList();
        for (int i = 0; i < n; i++) {
            int s = starts[i];
            int count = TypeRefs.typeIdCount(words, s);
            for (int k = 0; k < count; k++) {
                int slot = TypeRefs.typeIdSlot(words, s, k);
                int ref = words[slot];
                if (ref >= first && (ref < lo || ref >= hi)) {
                    int ph = placeholder.get(ref);
                    if (ph < 0) {
                        ph = targets.size();
                        placeholder.put(ref, ph);
                        targets.add(ref);
                    }
                    words[slot] = hi + ph;
                }
            }
        }
        int ph = targets.size();
        if (ph > 0) {
            int base = words.length;
            words = Arrays.copyOf(words, base + 3 * ph);
            starts = Arrays.copyOf(starts, n + ph + 1);
            for (int k = 0; k < ph; k++) {
                starts[n + k] = base + 3 * k;
                words[base + 3 * k + 1] = Kind.info(PLACEHOLDER_KIND, 0, false);
            }
            starts[n + ph] = words.length;
        }
        return new PartGraph(new WorkGraph(words, starts, lo, extClass), targets.toIntArray());
    }
}
