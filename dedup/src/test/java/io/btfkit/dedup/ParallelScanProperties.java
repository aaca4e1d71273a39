package io.btfkit.dedup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A scan on every core picks what one loop in order picks, in the same order, whatever the size
 * (below {@link ParallelScan#PARALLEL_FROM} one range, above it several).
 */
class ParallelScanProperties {
    @Property(tries = 60)
    void picksWhatOneLoopPicksInOrder(@ForAll long seed, @ForAll @IntRange(min = 0, max = 200_000) int n,
                                      @ForAll @IntRange(min = 1, max = 100) int percent) {
        boolean[] picked = new boolean[n];
        Random rnd = new Random(seed);
        for (int i = 0; i < n; i++) {
            picked[i] = rnd.nextInt(100) < percent;
        }
        int[] expected = IntStream.range(0, n).filter(i -> picked[i]).toArray();
        int[] got = ParallelScan.picks(n, (from, to, out) -> {
            for (int i = from; i < to; i++) {
                if (picked[i]) {
                    out.add(i);
                }
            }
        });
        assertArrayEquals(expected, got);
    }

    @Property(tries = 60)
    void marksWhatOneLoopMarks(@ForAll long seed, @ForAll @IntRange(min = 0, max = 200_000) int n,
                               @ForAll @IntRange(min = 1, max = 100) int percent) {
        java.util.BitSet expected = new java.util.BitSet();
        Random rnd = new Random(seed);
        for (int i = 0; i < n; i++) {
            if (rnd.nextInt(100) < percent) {
                expected.set(i);
            }
        }
        java.util.BitSet got = ParallelScan.marks(n, (from, to, words) -> {
            for (int i = from; i < to; i++) {
                if (expected.get(i)) {
                    words[i >>> 6] |= 1L << i;
                }
            }
        });
        org.junit.jupiter.api.Assertions.assertEquals(expected, got);
    }
}
