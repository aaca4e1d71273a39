package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An output staged on its own thread while the caller verifies it lands only once verified and
 * committed; a failed verification or a failed encoding leaves nothing, the encoding's own
 * exception reaching the caller as it was thrown.
 */
class StagedOutputTest {
    @TempDir
    Path tmp;

    private List<Path> files() throws Exception {
        try (var s = Files.list(tmp)) {
            return s.toList();
        }
    }

    @Test
    void aVerifiedOutputLandsWhenCommitted() throws Exception {
        Path out = tmp.resolve("out.btf");
        byte[] bytes = {1, 2, 3};
        CountDownLatch encoding = new CountDownLatch(1);
        try (Outputs.Transaction t = new Outputs.Transaction()) {
            StagedOutput staged = new StagedOutput(t, out, () -> {
                encoding.countDown();
                return bytes;
            });
            encoding.await(); // (the encoding runs beside this "verification")
            assertFalse(Files.exists(out), "not in place before the commit");
            staged.settle();
            staged.done();
            t.commit();
        }
        assertArrayEquals(bytes, Files.readAllBytes(out));
        assertEquals(List.of(out), files(), "no temporary file left");
    }

    @Test
    void aFailedVerificationLeavesNothing() throws Exception {
        Path out = tmp.resolve("out.btf");
        IllegalStateException refused = new IllegalStateException("verification failed");
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> {
            try (Outputs.Transaction t = new Outputs.Transaction()) {
                StagedOutput staged = new StagedOutput(t, out, () -> new byte[1 << 20]);
                try {
                    throw refused;
                } finally {
                    staged.settle();
                }
            }
        });
        assertSame(refused, thrown);
        assertEquals(List.of(), files(), "neither the output nor its temporary file");
    }

    @Test
    void aFailedEncodingIsThrownAsItWasAndLeavesNothing() throws Exception {
        Path out = tmp.resolve("out.btf");
        WriteException failed = new WriteException(out, new java.io.IOException("disk full"));
        WriteException thrown = assertThrows(WriteException.class, () -> {
            try (Outputs.Transaction t = new Outputs.Transaction()) {
                StagedOutput staged = new StagedOutput(t, out, () -> {
                    throw failed;
                });
                staged.settle();
                staged.done();
                t.commit();
            }
        });
        assertSame(failed, thrown);
        assertEquals(List.of(), files());
    }
}
