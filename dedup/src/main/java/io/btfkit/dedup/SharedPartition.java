package io.btfkit.dedup;

import java.util.BitSet;
import java.util.stream.IntStream;

/**
 * Partitions one graph using every core: ranges of its own nodes (whole inputs) are searched at
 * once, one thread each, all classifying into one {@link ClassTable} — so the classes are final
 * as they are made, with no union step to unify the ranges' classes afterwards (that step cost
 * as much as a range when the inputs share little: kernel modules).
 *
 * <p>A range's search stops at a node of another range (a <em>blocker</em>: nodes of one input
 * reference only that input and the base, so a blocker is a definition a declaration was
 * resolved to, whose part has no copy of it) and leaves whatever reaches it. Once every range is
 * done, one search classifies what the blockers reach — every cycle across ranges lies there,
 * since a path leaves a range only through a blocker — and then the ranges take the rest of the
 * blocked nodes at once again, which now reach other ranges through classified nodes only. (350
 * gcc objects: 59 blockers, 335,000 blocked nodes; a single search over them all had taken
 * 100-119 ms, the two steps take 83-94 ms, 37-42 of it on both cores; most of the rest is one
 * new component of 39,482 nodes across units, minimised.) The extra
 * nodes after the real ones (the definitions pass's atoms: leaves) are classified before the
 * ranges.
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
        return partition(g, ranges, roots, parent, expectedClasses, null);
    }

    /** ... trying first the classes {@code seeds} guesses (null: none). */
    static ClassTable partition(WorkGraph g, int[] ranges, BitSet roots, ClassTable parent, int expectedClasses,
                                DefinitionSeeds seeds) {
        ClassTable table = new ClassTable(parent, g, expectedClasses, seeds == null ? null : seeds.nodeClasses);
        int size = g.size();
        int[] rindex = new int[size];
        if (ranges.length <= 2) {
            new Partitioner(table, seeds).run(roots, SccFinder.Scope.all(size), rindex);
            return table;
        }
        int real = ranges[ranges.length - 1];
        if (size > real) {
            new Partitioner(table, seeds).run(null, new SccFinder.Scope(real, size, size, false, null, null, null), rindex);
        }
        // (each range's blocked nodes and blockers apart: a bit set is not written by two threads)
        BitSet[] blocked = new BitSet[ranges.length - 1];
        BitSet[] blockers = new BitSet[ranges.length - 1];
        io.btfkit.core.PhaseTimer timer = new io.btfkit.core.PhaseTimer(); // (-Dbtfkit.timing)
        IntStream.range(0, ranges.length - 1).parallel().forEach(p -> new Partitioner(table, seeds).run(roots,
                new SccFinder.Scope(ranges[p], ranges[p + 1], real, false, null, blocked[p] = new BitSet(),
                        blockers[p] = new BitSet()),
                rindex));
        timer.lap("parts(" + (ranges.length - 1) + ")");
        int[] cls = table.nodeClass;
        BitSet again = unclassified(blocked, cls, rindex);
        if (again.isEmpty()) {
            return table;
        }
        // what the blockers reach, in one search: every path from a range to another enters
        // it through a blocker, so a cycle across ranges lies within what the blockers reach
        BitSet reached = unclassified(blockers, cls, rindex);
        new Partitioner(table, seeds).run(reached, new SccFinder.Scope(0, size, size, true, cls, null, null), rindex);
        timer.lap("blockers(" + reached.cardinality() + ")");
        // the rest of the blocked nodes reach other ranges only through classified nodes now
        BitSet rest = unclassified(blocked, cls, rindex);
        BitSet[] stillBlocked = new BitSet[ranges.length - 1];
        IntStream.range(0, ranges.length - 1).parallel().forEach(p -> new Partitioner(table, seeds).run(rest,
                new SccFinder.Scope(ranges[p], ranges[p + 1], real, true, cls, stillBlocked[p] = new BitSet(), null),
                rindex));
        timer.lap("blocked(" + rest.cardinality() + ")");
        BitSet last = unclassified(stillBlocked, cls, rindex);
        if (!last.isEmpty()) { // (none: kept so that a wrong premise costs time, not classes)
            new Partitioner(table, seeds).run(last, new SccFinder.Scope(0, size, size, true, cls, null, null), rindex);
            timer.lap("last(" + last.cardinality() + ")");
        }
        return table;
    }

    /** The nodes marked in any of {@code marks} that have no class yet, made unsearched for the next search. */
    private static BitSet unclassified(BitSet[] marks, int[] cls, int[] rindex) {
        BitSet out = new BitSet();
        for (BitSet m : marks) {
            out.or(m);
        }
        for (int i = out.nextSetBit(0); i >= 0; i = out.nextSetBit(i + 1)) {
            if (cls[i] >= 0) {
                out.clear(i);
            } else {
                rindex[i] = 0;
            }
        }
        return out;
    }
}
