package io.btfkit.core;

/**
 * Phase timings on stderr when the system property {@code btfkit.timing} is set (for profiling
 * runs); {@code -Dbtfkit.timing=heap} also collects garbage at each lap and prints the live heap
 * (slower, but shows which phase holds the most data).
 */
public final class PhaseTimer {
    private static final String MODE = System.getProperty("btfkit.timing", "false");
    private static final boolean ON = !MODE.equals("false");
    private static final boolean HEAP = MODE.equals("heap");
    private long last = System.nanoTime();

    /** Whether timings are printed. */
    public static boolean on() {
        return ON;
    }

    /** Prints the time since the last lap (or since this timer was made) for {@code phase}. */
    public void lap(String phase) {
        if (ON) {
            long now = System.nanoTime();
            String live = "";
            if (HEAP) {
                Runtime rt = Runtime.getRuntime();
                rt.gc();
                live = String.format("  live %6d MB", (rt.totalMemory() - rt.freeMemory()) >> 20);
            }
            System.err.printf("btfkit: timing %-16s %8.1f ms%s%n", phase, (now - last) / 1e6, live);
            last = System.nanoTime();
        }
    }
}
