package io.btfkit.dedup;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.stream.IntStream;

/**
 * A pass over every merged type that picks out a few, run on every core: the types are cut into
 * {@link #CHUNKS} ranges, each scanned by one plain loop, and the picks come back in index
 * order. (A predicate called per type through a parallel stream doubled such a pass's CPU on C1
 * code, which does not inline it: 3,000 units, the rules' tag scan 240 → 420 ms of CPU.)
 */
final class ParallelScan {
    /** Ranges per scan: a few per core, so that one slow range does not hold up the rest. */
    static final int CHUNKS = 8;

    private ParallelScan() {
    }

    /** Scans types {@code [from, to)} in order, adding the picked ones to {@code out}. */
    interface Range {
        void scan(int from, int to, IntArrayList out);
    }

    /** The indexes below {@code n} that {@code range} picks, in increasing order ({@code range} only reads). */
    static int[] picks(int n, Range range) {
        IntArrayList[] found = new IntArrayList[CHUNKS];
        IntStream.range(0, CHUNKS).parallel().forEach(k -> {
            found[k] = new IntArrayList();
            range.scan(start(k, n), start(k + 1, n), found[k]);
        });
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
        IntStream.range(0, CHUNKS).parallel().forEach(k -> marks.scan(Math.min(n, start(k, words.length) << 6),
                Math.min(n, start(k + 1, words.length) << 6), words));
        return java.util.BitSet.valueOf(words);
    }

    private static int start(int k, int n) {
        return (int) ((long) n * k / CHUNKS);
    }
}
