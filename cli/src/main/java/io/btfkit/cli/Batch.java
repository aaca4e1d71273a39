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
 * reported as {@code btfkit: FILE: message}; the exit status is 1 if any failed, 2 if an output
 * could not be written (as in single mode). On a terminal a progress line is shown
 * ({@link ProgressBar}); whatever the inputs' work prints, on stderr or stdout, goes through the
 * bar's guards, which erase it first. A summary line ends the run.
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
        java.io.OutputStream stdout = Streams.out();
        long t0 = System.nanoTime();
        AtomicInteger done = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean unwritten = new java.util.concurrent.atomic.AtomicBoolean();
        ProgressBar progress = ProgressBar.forStderr(command, inputs.size(), err, quiet);
        PrintWriter messages = progress.guard(err);
        // the pool's threads, created below, inherit these: every line of the work clears the bar first
        Streams.set(progress.guard(stdout), messages);
        // Ctrl-C (or a kill) ends the JVM while the work goes on: erase the bar and say so (exit 130 is the JVM's)
        java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread onInterrupt = new Thread(() -> {
            if (running.get()) {
                progress.interrupted();
            }
        }, "btfkit-interrupted");
        Runtime.getRuntime().addShutdownHook(onInterrupt);
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
                    unwritten.compareAndSet(false, e instanceof WriteException);
                    failures.add(new String[] {e.file().toString(), e.getMessage()});
                    message(messages, "btfkit: " + Names.quote(e.file()) + ": " + e.getMessage());
                } catch (BtfException e) {
                    failed.incrementAndGet();
                    failures.add(new String[] {in.toString(), e.getMessage()});
                    message(messages, "btfkit: " + Names.quote(in) + ": " + e.getMessage());
                } catch (OutOfMemoryError e) {
                    failed.incrementAndGet(); // this input's garbage is gone with its stack: the others may fit
                    String m = OutOfMemory.message(command);
                    failures.add(new String[] {in.toString(), m});
                    message(messages, "btfkit: " + Names.quote(in) + ": " + m);
                } catch (RuntimeException e) {
                    failed.incrementAndGet();
                    String m = OutOfMemory.isCause(e) ? OutOfMemory.message(command) : "internal error: " + e;
                    failures.add(new String[] {in.toString(), m});
                    message(messages, "btfkit: " + Names.quote(in) + ": " + m);
                }
                progress.update(done.incrementAndGet());
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
            running.set(false);
            try {
                Runtime.getRuntime().removeShutdownHook(onInterrupt);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs (and, the run being over, says nothing)
            }
            pool.shutdownNow();
            try {
                pool.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            progress.clear();
            Streams.set(stdout, err);
        }
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
        // a write failure is exit 2 as in single mode (docs/GUIDE.md, "Outputs"); other failures 1
        return unwritten.get() ? ExitCodes.BAD_INPUT : failed.get() == 0 ? ExitCodes.OK : ExitCodes.FAILED;
    }

    private static void message(PrintWriter messages, String line) {
        synchronized (messages) {
            messages.println(io.btfkit.core.Printable.oneLine(line));
            messages.flush();
        }
    }
}
