package io.btfkit.core.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileBytesTest {
    @TempDir
    Path dir;

    @Test
    void readsFilesOfEverySizeWhole() throws IOException {
        Random r = new Random(1);
        for (int size : new int[] {0, 1, 4095, 4096, FileBytes.CHUNK - 1, FileBytes.CHUNK, 3 * FileBytes.CHUNK + 17}) {
            byte[] data = new byte[size];
            r.nextBytes(data);
            Path f = dir.resolve("f" + size);
            Files.write(f, data);
            assertArrayEquals(data, FileBytes.read(f, 1 << 20), size + " bytes");
        }
    }

    @Test
    void aFileOfKnownSizeCostsItsSizeInMemory() throws IOException {
        // (a read that grew its array on filling it, before seeing the end, took three times
        // the file's size: 9 MB more peak memory for a vmlinux base)
        Path f = dir.resolve("sized");
        Files.write(f, new byte[1 << 20]);
        FileBytes.read(f, 1 << 24); // (classes loaded, buffers cached)
        if (!(java.lang.management.ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t)) {
            return;
        }
        long before = t.getCurrentThreadAllocatedBytes();
        byte[] got = FileBytes.read(f, 1 << 24);
        long allocated = t.getCurrentThreadAllocatedBytes() - before;
        assertTrue(got.length == 1 << 20);
        assertTrue(allocated < (1 << 20) + (1 << 17), allocated + " bytes allocated to read 1 MiB");
    }

    @Test
    void readsFilesThatDoNotKnowTheirSizeToTheirEnd() throws IOException {
        Path proc = Paths.get("/proc/self/mountinfo"); // size 0 in stat, several KB of text
        if (!Files.isReadable(proc)) {
            return;
        }
        byte[] got = FileBytes.read(proc, 1 << 24);
        assertTrue(got.length > 0);
        assertArrayEquals(Files.readAllBytes(proc), got);
    }

    @Test
    void refusesFilesAboveTheLimit() throws IOException {
        Path f = dir.resolve("big");
        Files.write(f, new byte[5000]);
        assertThrows(IOException.class, () -> FileBytes.read(f, 4999));
    }

    /** A device that never ends (as stdin or a pipe may not) is read only to the limit. */
    @Test
    void refusesEndlessStreamsAtTheLimit() {
        Path urandom = Paths.get("/dev/urandom");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(urandom), "skipped: no /dev/urandom");
        IOException e = assertThrows(IOException.class, () -> FileBytes.read(urandom, 1 << 20));
        assertTrue(e.getMessage().contains("larger than the 1048576-byte limit"), e.getMessage());
    }

    /** The head is shown to the check before the rest is read; a short file is shown whole. */
    @Test
    void showsTheHeadFirst() throws IOException {
        Path f = dir.resolve("f");
        byte[] data = new byte[100_000];
        new Random(3).nextBytes(data);
        Files.write(f, data);
        int[] seen = new int[1];
        assertArrayEquals(data, FileBytes.read(f, 1 << 20, 4096, (head, n) -> seen[0] = n));
        assertTrue(seen[0] == 4096, "head of " + seen[0]);
        Path small = Files.write(dir.resolve("small"), new byte[] {1, 2, 3});
        assertArrayEquals(new byte[] {1, 2, 3}, FileBytes.read(small, 1 << 20, 4096, (head, n) -> seen[0] = n));
        assertTrue(seen[0] == 3, "head of " + seen[0]);
        assertThrows(IllegalStateException.class, () -> FileBytes.read(f, 1 << 20, 4096, (head, n) -> {
            throw new IllegalStateException("refused");
        }));
    }

    @Test
    void writesInChunks() throws IOException {
        byte[] data = new byte[5 * FileBytes.CHUNK + 3];
        new Random(2).nextBytes(data);
        List<Integer> writes = new ArrayList<>();
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        OutputStream recording = new OutputStream() {
            @Override
            public void write(int b) {
                writes.add(1);
                sink.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                writes.add(len);
                sink.write(b, off, len);
            }
        };
        FileBytes.chunked(recording).write(data, 0, data.length);
        assertArrayEquals(data, sink.toByteArray());
        assertTrue(writes.stream().allMatch(n -> n <= FileBytes.CHUNK), writes.toString());
        assertTrue(writes.size() == 6, writes.toString());
    }

    /** A pipe of endless zeros (`cat /dev/zero | btfkit dump -`) is refused by its start, not after the cap. */
    @Test
    void anEndlessStreamIsJudgedByItsStart() {
        long[] served = {0};
        java.io.InputStream zeros = new java.io.InputStream() {
            @Override
            public int read() {
                served[0]++;
                return 0;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                java.util.Arrays.fill(b, off, off + len, (byte) 0);
                served[0] += len;
                return len;
            }
        };
        io.btfkit.core.BtfFormatException e = assertThrows(io.btfkit.core.BtfFormatException.class,
                () -> InputLoader.readStream(zeros));
        assertTrue(e.getMessage().contains("00 00 00 00"), e.getMessage());
        assertTrue(served[0] <= 2 * InputHead.LENGTH, "read " + served[0] + " bytes before judging");
    }

    /** A short stream is judged too (the check runs at its end when it is shorter than the head). */
    @Test
    void aShortStreamIsReadWhole() throws IOException {
        byte[] data = {1, 2, 3};
        int[] seen = {-1};
        byte[] got = FileBytes.read(new java.io.ByteArrayInputStream(data), 100, 64, (head, n) -> seen[0] = n);
        assertArrayEquals(data, got);
        assertTrue(seen[0] == 3, "head check saw " + seen[0] + " bytes");
    }
}
