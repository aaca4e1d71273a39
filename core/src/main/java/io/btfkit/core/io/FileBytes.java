package io.btfkit.core.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * File reads and writes in chunks of {@link #CHUNK} bytes. NIO copies a heap buffer through a
 * temporary native buffer as large as the request and keeps that buffer for the thread
 * afterwards, so reading or writing a 6 MB vmlinux BTF in one call costs 6 MB of process memory
 * for the rest of the run; in chunks it costs 64 KB.
 */
public final class FileBytes {
    /** The largest single read or write. */
    public static final int CHUNK = 1 << 16;

    private FileBytes() {
    }

    /** Judges the first bytes of a file before the rest is read. */
    @FunctionalInterface
    public interface HeadCheck {
        /** @throws RuntimeException to stop reading */
        void check(byte[] head, int n);
    }

    /**
     * The whole file (files whose size is not known in advance, such as those of /sys or /proc,
     * are read to their end); at most {@code limit} bytes, else an IOException.
     */
    public static byte[] read(Path path, long limit) throws IOException {
        return read(path, limit, 0, (head, n) -> { });
    }

    /**
     * {@link #read(Path, long)}, showing the first {@code headLength} bytes (fewer when the file
     * is shorter) to {@code check} before reading on: a device or pipe of unending bytes is
     * judged by its start, not after filling memory.
     */
    public static byte[] read(Path path, long limit, int headLength, HeadCheck check) throws IOException {
        try (FileChannel ch = FileChannel.open(path)) {
            long size = ch.size();
            if (size > limit) {
                throw new IOException("file is " + size + " bytes, larger than the " + limit + "-byte limit");
            }
            int head = (int) Math.min(headLength, size > 0 ? size : Math.min(headLength, limit));
            byte[] buf;
            int n;
            if (headLength > 0) {
                // judged before the file's whole size is allocated (and zeroed: 1 GB of zeros cost 1 GB)
                byte[] first = new byte[head];
                n = readUpTo(ch, first, 0, head);
                check.check(first, n);
                if (n < head || (size > 0 && size <= head)) {
                    return n == first.length ? first : java.util.Arrays.copyOf(first, n);
                }
                buf = size > head ? java.util.Arrays.copyOf(first, (int) size) : first;
            } else {
                buf = new byte[(int) size];
                n = 0;
            }
            n = readUpTo(ch, buf, n, buf.length);
            if (n < buf.length) {
                return java.util.Arrays.copyOf(buf, n); // (shrank while read)
            }
            // as long as the size said; more only where it said nothing true (/sys, /proc, pipes)
            byte[] probe = new byte[1 << 12];
            int more = readUpTo(ch, probe, 0, probe.length);
            while (more > 0) {
                if ((long) n + more > limit) {
                    throw new IOException("file is larger than the " + limit + "-byte limit");
                }
                if (n + more > buf.length) {
                    buf = java.util.Arrays.copyOf(buf, (int) Math.min(limit, Math.max(n + more, 2L * buf.length)));
                }
                System.arraycopy(probe, 0, buf, n, more);
                n += more;
                more = readUpTo(ch, probe, 0, probe.length);
            }
            return n == buf.length ? buf : java.util.Arrays.copyOf(buf, n);
        }
    }

    /**
     * All of {@code in} (a pipe: standard input), at most {@code limit} bytes, else an
     * IOException as soon as one byte more arrives — the bound holds before the bytes are kept.
     */
    public static byte[] read(java.io.InputStream in, long limit) throws IOException {
        return read(in, limit, 0, (head, n) -> { });
    }

    /**
     * {@link #read(java.io.InputStream, long)}, showing the first {@code headLength} bytes (fewer
     * when the stream is shorter) to {@code check} before reading on, as for a file.
     */
    public static byte[] read(java.io.InputStream in, long limit, int headLength, HeadCheck check) throws IOException {
        byte[] buf = new byte[(int) Math.min(Math.max(CHUNK, headLength), limit)];
        int n = 0;
        boolean judged = headLength <= 0;
        while (true) {
            if (!judged && n >= Math.min(headLength, buf.length)) {
                check.check(buf, Math.min(headLength, n));
                judged = true;
            }
            if (n == buf.length) {
                if (n >= limit) {
                    if (in.read() < 0) {
                        return buf;
                    }
                    throw new IOException("input is larger than the " + limit + "-byte limit");
                }
                buf = java.util.Arrays.copyOf(buf, (int) Math.min(limit, 2L * buf.length));
            }
            int r = in.read(buf, n, Math.min(CHUNK, buf.length - n));
            if (r < 0) {
                if (!judged) {
                    check.check(buf, n);
                }
                return java.util.Arrays.copyOf(buf, n);
            }
            n += r;
        }
    }

    /** Reads into {@code buf[from..end)} until it is full or the channel ends; returns the bytes in {@code buf}. */
    private static int readUpTo(FileChannel ch, byte[] buf, int from, int end) throws IOException {
        int n = from;
        while (n < end) {
            int r = ch.read(ByteBuffer.wrap(buf, n, Math.min(CHUNK, end - n)));
            if (r < 0) {
                break;
            }
            n += r;
        }
        return n;
    }

    /** Reads exactly {@code buf[from, to)} from the channel's position; false at an early end. */
    public static boolean readFully(FileChannel ch, byte[] buf, int from, int to) throws IOException {
        return readUpTo(ch, buf, from, to) == to;
    }

    /** Reads exactly {@code len} bytes into {@code buf} from the channel's position; false at an early end. */
    public static boolean readFully(FileChannel ch, byte[] buf, int len) throws IOException {
        int n = 0;
        while (n < len) {
            int r = ch.read(ByteBuffer.wrap(buf, n, Math.min(CHUNK, len - n)));
            if (r < 0) {
                return false;
            }
            n += r;
        }
        return true;
    }

    /** {@code out} with every write cut into writes of at most {@link #CHUNK} bytes. */
    public static OutputStream chunked(OutputStream out) {
        return new java.io.FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                while (len > 0) {
                    int n = Math.min(CHUNK, len);
                    out.write(b, off, n);
                    off += n;
                    len -= n;
                }
            }
        };
    }
}
