package io.btfkit.cli;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * An output encoded and written to its temporary file on a thread of its own while the caller
 * verifies it; it lands (renamed into place when the transaction commits) only once verified,
 * and a failed verification leaves nothing (the transaction, closed uncommitted, removes it).
 * A module link's output takes 20-30 ms to encode and 35-80 ms to write beside 80-100 ms of
 * verification; a vmlinux dedup's 15-25 ms beside 35 ms.
 *
 * <p>The thread is its own, not the common pool's: the verification's field rules take the
 * pool's one worker on two cores ({@code Validator}), and the write would hold it.
 */
final class StagedOutput {
    private final CompletableFuture<Void> task;

    /** Starts staging {@code encode}'s bytes as {@code target} in {@code transaction}. */
    StagedOutput(Outputs.Transaction transaction, Path target, Supplier<byte[]> encode) {
        task = CompletableFuture.runAsync(() -> transaction.add(target, encode.get()), StagedOutput::onItsOwnThread);
    }

    private static void onItsOwnThread(Runnable r) {
        Thread t = new Thread(r, "btfkit-write");
        t.setDaemon(true);
        t.start();
    }

    /** Waits for the staging to end, whatever it did: before the transaction may close. */
    void settle() {
        task.handle((v, e) -> null).join();
    }

    /** Waits for the staging to end; throws what it threw, as it threw it. */
    void done() {
        try {
            task.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }
}
