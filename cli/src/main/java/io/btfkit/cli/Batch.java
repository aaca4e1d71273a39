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
        return run(command, inputs, job, quiet, false);
    }

    /**
     * @param json also print the summary as one JSON object on stdout:
     *             {@code {"command":..,"inputs":N,"ok":N,"failed":N,"seconds":S,"failures":[{"file":..,"message":..}]}}
     */
    static int run(String command, List<Path> inputs, Job job, boolean quiet, boolean json) {
        java.util.List<String[]> failures = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
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
                    failures.add(new String[] {in.toString(), "failed (see above)"});
                } catch (FileException e) {
                    failed.incrementAndGet();
                    failures.add(new String[] {e.file().toString(), e.getMessage()});
                    progress.message("btfkit: " + e.file() + ": " + e.getMessage());
                } catch (BtfException e) {
                    failed.incrementAndGet();
                    failures.add(new String[] {in.toString(), e.getMessage()});
                    progress.message("btfkit: " + in + ": " + e.getMessage());
                } catch (OutOfMemoryError e) {
                    failed.incrementAndGet(); // this input's garbage is gone with its stack: the others may fit
                    String m = OutOfMemory.message(command);
                    failures.add(new String[] {in.toString(), m});
                    progress.message("btfkit: " + in + ": " + m);
                } catch (RuntimeException e) {
                    failed.incrementAndGet();
                    String m = OutOfMemory.isCause(e) ? OutOfMemory.message(command) : "internal error: " + e;
                    failures.add(new String[] {in.toString(), m});
                    progress.message("btfkit: " + in + ": " + m);
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
        if (json) {
            io.btfkit.core.json.JsonWriter w = new io.btfkit.core.json.JsonWriter();
            w.beginObject();
            w.name("command").value(command);
            w.name("inputs").value(inputs.size());
            w.name("ok").value(ok);
            w.name("failed").value(failed.get());
            w.name("seconds").number(String.format(java.util.Locale.ROOT, "%.3f", secs));
            w.name("failures").beginArray();
            synchronized (failures) {
                failures.sort(java.util.Comparator.comparing(f -> f[0]));
                for (String[] f : failures) {
                    w.beginObject().name("file").value(f[0]).name("message").value(f[1]).endObject();
                }
            }
            w.endArray().endObject();
            PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(Streams.out(), java.nio.charset.StandardCharsets.UTF_8));
            out.println(w.toString());
            out.flush();
        }
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
            err.println(io.btfkit.core.Printable.oneLine(line));
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
