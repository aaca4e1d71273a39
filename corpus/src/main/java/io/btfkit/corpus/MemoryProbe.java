package io.btfkit.corpus;

import java.util.Random;

/**
 * How long a random read takes on this machine right now: a pointer chase over a 64 MB
 * {@code int} array (each read's address is the previous read's value, so no two overlap) and
 * one sequential pass over it. Run it once as is and once with
 * {@code -XX:+UseTransparentHugePages} to see what a TLB miss costs in this hour: on the
 * project's VMs a chase step took 440-620 ns with 4 KB pages and 160-175 ns with 2 MB ones, and
 * the link's hash tables and type arrays are read the same way (docs/BENCHMARKS.md).
 *
 * <pre>java [-XX:+UseTransparentHugePages] -cp corpus/target/benchmarks.jar io.btfkit.corpus.MemoryProbe [MB]</pre>
 */
public final class MemoryProbe {
    private MemoryProbe() {
    }

    public static void main(String[] args) {
        int mb = args.length > 0 ? Integer.parseInt(args[0]) : 64;
        int n = mb << 18; // ints
        int[] next = cycle(n, new Random(1));
        int steps = 5_000_000;
        for (int round = 0; round < 3; round++) {
            long t0 = System.nanoTime();
            int x = 0;
            for (int i = 0; i < steps; i++) {
                x = next[x];
            }
            long t1 = System.nanoTime();
            long sum = 0;
            for (int v : next) {
                sum += v;
            }
            long t2 = System.nanoTime();
            System.out.printf("random read %.0f ns, sequential %.2f GB/s (%d MB; %d)%n", (t1 - t0) / (double) steps,
                    4.0 * n / (t2 - t1), mb, (x ^ sum) & 1);
        }
    }

    /** A single cycle through all {@code n} indexes in random order: {@code next[i]} follows {@code i}. */
    private static int[] cycle(int n, Random r) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int[] next = new int[n];
        for (int i = 0; i < n; i++) {
            next[order[i]] = order[(i + 1) % n];
        }
        return next;
    }
}
