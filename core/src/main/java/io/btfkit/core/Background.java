package io.btfkit.core;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/**
 * Work started on a thread of its own, its result asked for later: for a step that needs only
 * what is already known and would otherwise run after a single-threaded one while the other
 * core idles. The thread is a daemon and not the common pool's (whose one worker on two cores
 * the parallel passes need).
 */
public final class Background {
    private Background() {
    }

    /**
     * Starts {@code task} on a thread named {@code name}; the supplier returned waits for it and
     * gives its result, or throws what it threw, as it threw it.
     */
    public static <T> Supplier<T> start(String name, Supplier<T> task) {
        FutureTask<T> future = new FutureTask<>(task::get);
        Thread t = new Thread(future, name);
        t.setDaemon(true);
        t.start();
        return () -> result(future, name);
    }

    private static <T> T result(FutureTask<T> future, String name) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + name, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
