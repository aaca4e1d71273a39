package io.btfkit.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The alias table gives back what was set, before and after it is settled, also when rules set at once. */
class AliasesTest {
    @Test
    void noAliasUntilOneIsSet() {
        Aliases a = new Aliases(10);
        assertFalse(a.any());
        assertEquals(-1, a.target(3));
        a.settle();
        assertFalse(a.any());
        assertEquals(-1, a.target(9));
    }

    @Test
    void settledTableAnswersAsTheFullOne() {
        Random r = new Random(24);
        int n = 50_000;
        Aliases a = new Aliases(n);
        int[] expected = new int[n];
        java.util.Arrays.fill(expected, -1);
        for (int k = 0; k < 3_000; k++) {
            int i = r.nextInt(n);
            expected[i] = r.nextInt(1 << 30);
            a.set(i, expected[i]);
        }
        for (int i = 0; i < n; i++) {
            assertEquals(expected[i], a.target(i), "before settling, type " + i);
        }
        a.settle();
        assertTrue(a.any());
        for (int i = 0; i < n; i++) {
            assertEquals(expected[i], a.target(i), "settled, type " + i);
        }
        assertThrows(IllegalStateException.class, () -> a.set(0, 1));
    }

    /** The rules resolve in parallel (UniqueDefinitionRule): the first aliases of two threads are both kept. */
    @Test
    void firstAliasesSetAtOnceAreAllKept() throws Exception {
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 100; round++) {
                // (a large table: making it takes long enough for the threads to meet there)
                Aliases a = new Aliases(1 << 20);
                CyclicBarrier start = new CyclicBarrier(threads);
                Future<?>[] done = new Future<?>[threads];
                for (int t = 0; t < threads; t++) {
                    int i = t;
                    done[t] = pool.submit(() -> {
                        start.await();
                        a.set(i, 100 + i);
                        return null;
                    });
                }
                for (Future<?> f : done) {
                    f.get();
                }
                for (int t = 0; t < threads; t++) {
                    assertEquals(100 + t, a.target(t), "round " + round + ", thread " + t);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
