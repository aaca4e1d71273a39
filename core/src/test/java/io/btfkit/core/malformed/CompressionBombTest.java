package io.btfkit.core.malformed;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.BtfFormatException;
import io.btfkit.core.io.Decompressor;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Small compressed files that would expand to a gigabyte (concatenated streams of 16 MiB of
 * zeros, which the gzip and xz readers read one after the other) must be refused with a message
 * saying so, after the decompressor has produced no more than its cap: the bytes the loading
 * thread allocates (a deterministic count, unlike heap usage) stay within a small multiple of
 * {@link Decompressor}'s cap for that input size, far below the expansion.
 */
class CompressionBombTest {
    private static final int MEMBER = 16 << 20;
    private static final int COPIES = 64;
    private static final long EXPANSION = (long) MEMBER * COPIES;

    @TempDir
    Path dir;

    @Test
    void xzBomb() throws IOException {
        refused(MalformedFiles.repeat(MalformedFiles.xz(new byte[MEMBER]), COPIES), "xz");
    }

    @Test
    void gzipBomb() throws IOException {
        refused(MalformedFiles.repeat(MalformedFiles.gzip(new byte[MEMBER]), COPIES), "gzip");
    }

    private void refused(byte[] bomb, String format) throws IOException {
        com.sun.management.ThreadMXBean threads = threadBean();
        long cap = Math.min(Decompressor.MAX_OUTPUT, Math.max(Decompressor.RATIO_FLOOR, Decompressor.MAX_RATIO * bomb.length));
        assertTrue(cap * 4 < EXPANSION, "the bomb must expand far past the cap: " + bomb.length + " bytes, cap " + cap);
        Path file = Files.write(dir.resolve("bomb." + format), bomb);
        long before = threads.getCurrentThreadAllocatedBytes();
        BtfFormatException e = assertThrows(BtfFormatException.class, () -> CliLoad.load(file));
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        String m = e.getMessage();
        assertTrue(m.startsWith(format + " data expands past " + cap + " bytes (" + bomb.length + " compressed)"), m);
        assertTrue(allocated < 4 * cap, format + " bomb of " + bomb.length + " bytes: loading allocated " + allocated
                + " bytes, more than 4x the " + cap + "-byte cap");
    }

    private static com.sun.management.ThreadMXBean threadBean() {
        java.lang.management.ThreadMXBean t = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(t instanceof com.sun.management.ThreadMXBean
                && ((com.sun.management.ThreadMXBean) t).isThreadAllocatedMemorySupported(),
                "skipped: this JVM does not count allocated bytes per thread");
        return (com.sun.management.ThreadMXBean) t;
    }
}
