package io.btfkit.cli;

import io.btfkit.core.BtfException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one command over many inputs in parallel in one JVM (the base is read and indexed once
 * by the caller and shared read-only). One input's failure does not stop the others: it is
 * reported as {@code btfkit: FILE: message}, and the exit status is 1 if any failed. On a
 * terminal a progress line is shown; a summary line ends the run.
 */
final class Batch {
    /** The work for one input; throws to report a failure. */
    interface Job {
        void run(Path input);
    }

    private Batch() {
    }

    static int run(String command, List<Path> inputs, Job job, boolean quiet) {
        PrintWriter err = Streams.err();
        long t0 = System.nanoTime();
        AtomicInteger done = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        Progress progress = new Progress(command, inputs.size(), err, !quiet && System.console() != null);
        int threads = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), inputs.size()));
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "btfkit-batch");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> futures = inputs.stream().map(in -> pool.submit(() -> {
                try {
                    job.run(in);
                } catch (CommandFailedException e) {
                    failed.incrementAndGet(); // already reported
                } catch (FileException e) {
                    failed.incrementAndGet();
                    progress.message("btfkit: " + e.file() + ": " + e.getMessage());
                } catch (BtfException e) {
                    failed.incrementAndGet();
                    progress.message("btfkit: " + in + ": " + e.getMessage());
                } catch (RuntimeException | OutOfMemoryError e) {
                    failed.incrementAndGet();
                    progress.message("btfkit: " + in + ": internal error: " + e);
                }
                progress.step(done.incrementAndGet());
            })).collect(java.util.stream.Collectors.toList());
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailedException(ExitCodes.FAILED);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
            try {
                pool.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        progress.finish();
        double secs = (System.nanoTime() - t0) / 1e9;
        int ok = inputs.size() - failed.get();
        err.printf("btfkit: %s: %d ok, %d failed in %.2f s%n", command, ok, failed.get(), secs);
        err.flush();
        return failed.get() == 0 ? ExitCodes.OK : ExitCodes.FAILED;
    }

    /** A one-line progress bar on stderr, redrawn at most ten times a second. */
    private static final class Progress {
        private final String command;
        private final int total;
        private final PrintWriter err;
        private final boolean on;
        private long lastDraw;

        Progress(String command, int total, PrintWriter err, boolean on) {
            this.command = command;
            this.total = total;
            this.err = err;
            this.on = on;
        }

        synchronized void step(int done) {
            long now = System.nanoTime();
            if (on && (now - lastDraw > 100_000_000L || done == total)) {
                lastDraw = now;
                int width = 30;
                int filled = total == 0 ? width : (int) ((long) done * width / total);
                err.print("\r" + command + " [" + "=".repeat(filled) + " ".repeat(width - filled) + "] " + done + "/" + total);
                err.flush();
            }
        }

        synchronized void message(String line) {
            if (on) {
                err.print("\r\033[K");
            }
            err.println(line);
            err.flush();
        }

        synchronized void finish() {
            if (on) {
                err.print("\r\033[K");
                err.flush();
            }
        }
    }
}
