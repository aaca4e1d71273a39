package io.btfkit.dedup;

import java.util.BitSet;
import java.util.stream.IntStream;

/**
 * Partitions one graph using every core: ranges of its own nodes (whole inputs) are searched at
 * once, one thread each, all classifying into one {@link ClassTable} — so the classes are final
 * as they are made, with no union step to unify the ranges' classes afterwards (that step cost
 * as much as a range when the inputs share little: kernel modules).
 *
 * <p>A range's search stops at a node of another range: whatever reaches it is left for a last,
 * single search once every range is done (nodes of one input reference only that input and the
 * base, so this is rare: a declaration resolved to another input's definition). The extra nodes
 * after the real ones (the definitions pass's atoms: leaves) are classified before the ranges.
 */
final class SharedPartition {
    private SharedPartition() {
    }

    /**
     * Classifies the own nodes of {@code g} reachable from {@code roots} (own-node indexes; null:
     * all), the real ones in {@code ranges} (own-node indexes where each starts, then the end of
     * the real nodes) at once.
     *
     * @return the table; its {@code nodeClass} holds every classified node's class
     */
    static ClassTable partition(WorkGraph g, int[] ranges, BitSet roots, ClassTable parent, int expectedClasses) {
        ClassTable table = new ClassTable(parent, g, expectedClasses);
        int size = g.size();
        int[] rindex = new int[size];
        if (ranges.length <= 2) {
            new Partitioner(table).run(roots, SccFinder.Scope.all(size), rindex);
            return table;
        }
        int real = ranges[ranges.length - 1];
        if (size > real) {
            new Partitioner(table).run(null, new SccFinder.Scope(real, size, size, false, null, null), rindex);
        }
        boolean[] blocked = new boolean[size];
        io.btfkit.core.PhaseTimer timer = new io.btfkit.core.PhaseTimer(); // (-Dbtfkit.timing)
        IntStream.range(0, ranges.length - 1).parallel().forEach(p -> new Partitioner(table).run(roots,
                new SccFinder.Scope(ranges[p], ranges[p + 1], real, false, null, blocked), rindex));
        timer.lap("parts(" + (ranges.length - 1) + ")");
        BitSet again = new BitSet(size);
        int[] cls = table.nodeClass;
        for (int i = 0; i < real; i++) {
            if (blocked[i] && cls[i] < 0) {
                again.set(i);
                rindex[i] = 0;
            }
        }
        if (!again.isEmpty()) {
            new Partitioner(table).run(again, new SccFinder.Scope(0, size, size, true, cls, null), rindex);
        }
        timer.lap("blocked(" + again.cardinality() + ")");
        return table;
    }
}
