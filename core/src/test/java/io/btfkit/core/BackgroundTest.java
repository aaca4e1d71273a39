package io.btfkit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Work started on a thread of its own gives its result when asked, or throws what it threw. */
class BackgroundTest {
    @Test
    void runsOnAThreadOfItsOwnWhileTheCallerGoesOn() throws Exception {
        CountDownLatch callerWent = new CountDownLatch(1);
        Supplier<String> r = Background.start("btfkit-test", () -> {
            try {
                callerWent.await(); // (finishes only once the caller has gone on)
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return Thread.currentThread().getName();
        });
        callerWent.countDown();
        assertEquals("btfkit-test", r.get());
        assertNotEquals("btfkit-test", Thread.currentThread().getName());
        assertEquals("btfkit-test", r.get(), "asked twice, the same result");
    }

    @Test
    void whatTheWorkThrowsReachesTheCallerAsItWasThrown() {
        BtfFormatException bad = new BtfFormatException("bad input");
        Supplier<Object> r = Background.start("btfkit-test", () -> {
            throw bad;
        });
        assertSame(bad, assertThrows(BtfFormatException.class, r::get));
        OutOfMemoryError oom = new OutOfMemoryError("test");
        Supplier<Object> e = Background.start("btfkit-test", () -> {
            throw oom;
        });
        assertSame(oom, assertThrows(OutOfMemoryError.class, e::get));
    }
}
