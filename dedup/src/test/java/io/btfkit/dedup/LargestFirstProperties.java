package io.btfkit.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.atomic.AtomicIntegerArray;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The merge's rounds take their inputs largest first on every core ({@link Merger#largestFirst}):
 * each input exactly once, in size order, equal sizes in input order.
 */
class LargestFirstProperties {
    @Property(tries = 200)
    void everyInputOnceLargestFirst(@ForAll long seed, @ForAll @IntRange(min = 0, max = 3000) int from,
                                    @ForAll @IntRange(min = 0, max = 300) int n,
                                    @ForAll @IntRange(min = 1, max = 1_000_000) int maxSize) {
        Random rnd = new Random(seed);
        int[] sizes = new int[from + n];
        for (int i = from; i < from + n; i++) {
            // (few distinct sizes now and then, so that ties are met)
            sizes[i] = rnd.nextBoolean() ? rnd.nextInt(maxSize) : rnd.nextInt(4);
        }
        int[] order = Merger.largestFirstOrder(from, from + n, k -> sizes[k]);
        assertEquals(n, order.length);
        for (int i = 1; i < n; i++) {
            int a = order[i - 1];
            int b = order[i];
            assertTrue(sizes[a] > sizes[b] || sizes[a] == sizes[b] && a < b,
                    "input " + a + " (size " + sizes[a] + ") before " + b + " (size " + sizes[b] + ")");
        }
        AtomicIntegerArray calls = new AtomicIntegerArray(from + n);
        Merger.largestFirst(from, from + n, k -> sizes[k], calls::incrementAndGet);
        for (int k = 0; k < from + n; k++) {
            assertEquals(k < from ? 0 : 1, calls.get(k), "calls of input " + k);
        }
    }
}
