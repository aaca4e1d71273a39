package io.btfkit.dedup;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.stream.IntStream;

/**
 * A pass over every merged type that picks out a few, run on every core: the types are cut into
 * ranges, each scanned by one plain loop, and the picks come back in index order. (A predicate
 * called per type through a parallel stream doubled such a pass's CPU on C1 code, which does not
 * inline it: 3,000 units, the rules' tag scan 240 → 420 ms of CPU.) Fewer than
 * {@link #PARALLEL_FROM} types are one range, scanned on the caller's thread: a batch dedups
 * thousands of modules of a few hundred types each, already one per core.
 */
final class ParallelScan {
    /** Ranges of a large scan: a few per core, so that one slow range does not hold up the rest. */
    static final int CHUNKS = 8;
    /** Types from which a scan is cut in {@link #CHUNKS} ranges. */
    static final int PARALLEL_FROM = 1 << 16;

    private ParallelScan() {
    }

    /** How many ranges a scan of {@code n} types takes. */
    static int ranges(int n) {
        return n < PARALLEL_FROM ? 1 : CHUNKS;
    }

    /** Where range {@code k} of {@code ranges} over {@code n} types starts. */
    static int start(int k, int ranges, int n) {
        return (int) ((long) n * k / ranges);
    }

    /** Runs {@code task} for each range {@code 0..ranges-1}: at once when several, else here. */
    static void each(int ranges, java.util.function.IntConsumer task) {
        if (ranges == 1) {
            task.accept(0);
        } else {
            IntStream.range(0, ranges).parallel().forEach(task);
        }
    }

    /** Scans types {@code [from, to)} in order, adding the picked ones to {@code out}. */
    interface Range {
        void scan(int from, int to, IntArrayList out);
    }

    /** The indexes below {@code n} that {@code range} picks, in increasing order ({@code range} only reads). */
    static int[] picks(int n, Range range) {
        int ranges = ranges(n);
        IntArrayList[] found = new IntArrayList[ranges];
        each(ranges, k -> {
            found[k] = new IntArrayList();
            range.scan(start(k, ranges, n), start(k + 1, ranges, n), found[k]);
        });
        if (ranges == 1) {
            return found[0].toIntArray();
        }
        int total = 0;
        for (IntArrayList f : found) {
            total += f.size();
        }
        int[] out = new int[total];
        int at = 0;
        for (IntArrayList f : found) {
            f.getElements(0, out, at, f.size());
            at += f.size();
        }
        return out;
    }

    /** Marks, in {@code words} (bit {@code i} of word {@code i >>> 6}), the types of {@code [from, to)} it picks. */
    interface Marks {
        void scan(int from, int to, long[] words);
    }

    /**
     * The indexes below {@code n} that {@code marks} picks, as a bit set ({@code marks} only
     * reads): the ranges start at multiples of 64, so no two write one word.
     */
    static java.util.BitSet marks(int n, Marks marks) {
        long[] words = new long[(n + 63) >>> 6];
        int ranges = ranges(n);
        each(ranges, k -> marks.scan(Math.min(n, start(k, ranges, words.length) << 6),
                Math.min(n, start(k + 1, ranges, words.length) << 6), words));
        return java.util.BitSet.valueOf(words);
    }
}
