package io.btfkit.cli;

import java.io.PrintWriter;

/**
 * Running out of heap is reported as one line, like any failure, not as a JVM stack trace:
 * {@code btfkit: out of memory linking 300 inputs (heap 128 MB); give more with
 * BTFKIT_JAVA_OPTS=-Xmx256m}, exit status 2. Caught in {@link Main} on the command's thread (an
 * {@link OutOfMemoryError} of a parallel pass reaches it through the pass's join, possibly as a
 * cause), per input in {@link Batch}, and by the default handler for any other thread.
 */
final class OutOfMemory {
    /** What the command is doing, for the message ("linking 300 inputs"); set by commands that know. */
    private static volatile String activity;

    private OutOfMemory() {
    }

    /** Records what the command is doing, e.g. {@code "linking 300 inputs"}. */
    static void during(String what) {
        activity = what;
    }

    static void clear() {
        activity = null;
    }

    /** Whether {@code t} is, or was caused by, running out of heap. */
    static boolean isCause(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof OutOfMemoryError) {
                return true;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return false;
    }

    /** The one line (without the {@code btfkit: } prefix) for a command named {@code command}. */
    static String message(String command) {
        String what = activity;
        if (what == null) {
            what = command == null ? "" : "in " + command;
        }
        long mb = heapBytes() >> 20;
        return "out of memory" + (what.isEmpty() ? "" : " " + what) + " (heap " + mb + " MB); give more with "
                + "BTFKIT_JAVA_OPTS=-Xmx" + Math.max(256, 2 * mb) + "m";
    }

    /** Reports it on {@code err}; returns the exit status. */
    static int report(String command, PrintWriter err) {
        err.println("btfkit: " + message(command));
        err.flush();
        return ExitCodes.BAD_INPUT;
    }

    /** Threads a command starts without joining them report it too, and end the run. */
    static void handleOtherThreads() {
        Thread.setDefaultUncaughtExceptionHandler(new OtherThreads(Thread.getDefaultUncaughtExceptionHandler()));
    }

    /**
     * The default handler as a named class, not a lambda: main() installs it in every run, and a
     * lambda the class-data archive does not hold costs its method handles' set-up at start
     * (about 20 ms of a 0.1 s command).
     */
    private static final class OtherThreads implements Thread.UncaughtExceptionHandler {
        private final Thread.UncaughtExceptionHandler previous;

        OtherThreads(Thread.UncaughtExceptionHandler previous) {
            this.previous = previous;
        }

        @Override
        public void uncaughtException(Thread t, Throwable e) {
            if (isCause(e)) {
                System.err.println("btfkit: " + message(null));
                System.exit(ExitCodes.BAD_INPUT);
            } else if (previous != null) {
                previous.uncaughtException(t, e);
            } else {
                e.printStackTrace();
            }
        }
    }

    /** The maximum heap as given (-Xmx), which {@link Runtime#maxMemory()} understates by a survivor space. */
    private static long heapBytes() {
        try {
            com.sun.management.HotSpotDiagnosticMXBean hs = java.lang.management.ManagementFactory
                    .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            return Long.parseLong(hs.getVMOption("MaxHeapSize").getValue());
        } catch (RuntimeException | LinkageError e) {
            return Runtime.getRuntime().maxMemory();
        }
    }
}
