package io.btfkit.core;

/**
 * Phase timings on stderr when the system property {@code btfkit.timing} is set (for profiling
 * runs): wall time and the process's CPU time of each phase (CPU below cores × wall means
 * threads waited) and the bytes the live threads allocated in it (what makes collections);
 * {@code -Dbtfkit.timing=heap} also collects garbage at each lap and prints the live heap
 * (slower, but shows which phase holds the most data).
 */
public final class PhaseTimer {
    private static final String MODE = System.getProperty("btfkit.timing", "false");
    private static final boolean ON = !MODE.equals("false");
    private static final boolean HEAP = MODE.equals("heap");
    private long last = System.nanoTime();
    private long lastCpu = cpuNanos();
    private long lastAlloc = allocatedBytes();

    /** Whether timings are printed. */
    public static boolean on() {
        return ON;
    }

    private static long cpuNanos() {
        if (!ON) {
            return 0;
        }
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean b ? b.getProcessCpuTime() : 0;
    }

    /** Bytes allocated so far by the threads alive now (a thread that ended is not counted). */
    private static long allocatedBytes() {
        if (!ON || !(java.lang.management.ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t)) {
            return 0;
        }
        long sum = 0;
        for (long b : t.getThreadAllocatedBytes(t.getAllThreadIds())) {
            sum += Math.max(b, 0);
        }
        return sum;
    }

    /** Prints the time since the last lap (or since this timer was made) for {@code phase}. */
    public void lap(String phase) {
        if (ON) {
            long now = System.nanoTime();
            long cpu = cpuNanos();
            long alloc = allocatedBytes();
            String live = "";
            if (HEAP) {
                Runtime rt = Runtime.getRuntime();
                rt.gc();
                live = String.format("  live %6d MB", (rt.totalMemory() - rt.freeMemory()) >> 20);
            }
            System.err.printf("btfkit: timing %-16s %8.1f ms  cpu %8.1f ms  alloc %6d MB%s%n", phase, (now - last) / 1e6,
                    (cpu - lastCpu) / 1e6, Math.max(0, alloc - lastAlloc) >> 20, live);
            last = System.nanoTime();
            lastCpu = cpuNanos();
            lastAlloc = allocatedBytes();
        }
    }
}
