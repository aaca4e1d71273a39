package io.btfkit.dedup;

/** Phase timings on stderr when the system property {@code btfkit.timing} is set (for profiling runs). */
final class Timer {
    private static final boolean ON = Boolean.getBoolean("btfkit.timing");
    private long last = System.nanoTime();

    void lap(String phase) {
        if (ON) {
            long now = System.nanoTime();
            System.err.printf("btfkit: timing %-16s %8.1f ms%n", phase, (now - last) / 1e6);
            last = now;
        }
    }
}
