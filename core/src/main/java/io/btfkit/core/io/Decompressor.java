package io.btfkit.core.io;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.btfkit.core.BtfFormatException;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;
import org.tukaani.xz.MemoryLimitException;
import org.tukaani.xz.SingleXZInputStream;

/**
 * Transparent decompression of xz, zstd and gzip inputs (kernel modules ship as .ko.xz and
 * .ko.zst), and of LZ4's legacy format (what {@code lz4 -l} writes and the kernel uses for an
 * LZ4-compressed bzImage, as Debian's cloud kernels are), detected by magic bytes, never by
 * file name.
 *
 * <p>Bounded while streaming, never after: the output may not pass the input cap
 * ({@link InputLimits}, 1 GiB unless raised), nor {@link #MAX_RATIO} times the compressed size
 * once past {@link #RATIO_FLOOR} (real modules and kernel images compress 3-10x; zero-filled
 * bombs 1000x); its first bytes must start something btfkit reads ({@link InputHead}), so a
 * bomb of zeros stops after 64 KiB. The memory a stream asks for up front is held to the cap
 * too: an xz dictionary or a zstd window larger than the cap is refused with that reason
 * (within it, e.g. {@code zstd --long=27}, it is read).
 *
 * <p>One rule for what follows a stream, for all formats: another stream of the same
 * format (concatenated streams are all read), or the format's own padding (xz stream padding:
 * zero bytes in fours; zstd skippable frames); anything else is an error. A kernel image
 * payload is read as its first stream only ({@link #firstStream}): the kernel appends the
 * uncompressed size after it.
 */
public final class Decompressor {
    public static final long MAX_RATIO = 30;
    public static final long RATIO_FLOOR = 64L << 20;

    /** Compression formats btfkit reads. */
    public enum Format {
        XZ("xz"), ZSTD("zstd"), GZIP("gzip"), LZ4("lz4");

        private final String label;

        Format(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    private Decompressor() {
    }

    /** The compression format of {@code data} by its magic, or null when it is not compressed. */
    public static Format detect(byte[] data) {
        return detect(data, 0, data.length);
    }

    static Format detect(byte[] d, int off, int len) {
        if (len >= 6 && (d[off] & 0xff) == 0xfd && d[off + 1] == '7' && d[off + 2] == 'z' && d[off + 3] == 'X'
                && d[off + 4] == 'Z' && d[off + 5] == 0) {
            return Format.XZ;
        }
        if (len >= 4 && (d[off] & 0xff) == 0x28 && (d[off + 1] & 0xff) == 0xb5 && (d[off + 2] & 0xff) == 0x2f
                && (d[off + 3] & 0xff) == 0xfd) {
            return Format.ZSTD;
        }
        if (len >= 2 && (d[off] & 0xff) == 0x1f && (d[off + 1] & 0xff) == 0x8b) {
            return Format.GZIP;
        }
        if (len >= 4 && le32(d, off) == LZ4_LEGACY_MAGIC) {
            return Format.LZ4;
        }
        return null;
    }

    /**
     * The first {@code n} bytes {@code in} decompresses to as format {@code f} (fewer when it
     * ends sooner), reading only as much of {@code in} as that takes: to tell what a compressed
     * file holds without decompressing it all. Null when it cannot say (damaged data, a
     * dictionary or window past the input cap, an LZ4 stream).
     */
    public static byte[] head(InputStream in, Format f, int n) {
        long cap = InputLimits.maxBytes();
        try {
            InputStream d = switch (f) {
                case XZ -> new org.tukaani.xz.XZInputStream(in, (int) Math.min(Integer.MAX_VALUE, (cap >> 10) + 1024));
                case ZSTD -> {
                    ZstdInputStreamNoFinalizer z = new ZstdInputStreamNoFinalizer(in);
                    z.setLongMax(Math.max(Zstd.windowLogMin(), Math.min(Zstd.windowLogMax(), 63 - Long.numberOfLeadingZeros(cap))));
                    yield z;
                }
                case GZIP -> new java.util.zip.GZIPInputStream(in);
                case LZ4 -> null;
            };
            return d == null ? null : d.readNBytes(n);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The output limit for {@code compressed} bytes under {@code cap}. */
    public static long limit(long compressed, long cap) {
        return Math.min(cap, Math.max(RATIO_FLOOR, MAX_RATIO * compressed));
    }

    /** Decompresses {@code data} in format {@code f} (every stream), within the cap in force. */
    public static byte[] decompress(byte[] data, Format f) {
        return decompress(data, 0, data.length, f, false, InputLimits.maxBytes(), f.label() + " data");
    }

    /** The first stream of {@code data[off, off+len)}, as a kernel image payload is read. */
    static byte[] firstStream(byte[] data, int off, int len, Format f, long cap, String what) {
        return decompress(data, off, len, f, true, cap, what);
    }

    /**
     * @param what names the data in messages ("xz data", "kernel image payload")
     */
    public static byte[] decompress(byte[] data, int off, int len, Format f, boolean firstOnly, long cap, String what) {
        Sink sink = new Sink(what, limit(len, cap), cap, len);
        int end = off + len;
        int p = off;
        try {
            while (true) {
                int start = p;
                p += switch (f) {
                    case XZ -> xzStream(data, p, end, cap, sink);
                    case ZSTD -> zstdFrame(data, p, end, cap, sink);
                    case GZIP -> gzipMember(data, p, end, sink);
                    case LZ4 -> lz4LegacyStream(data, p, end, sink);
                };
                if (f == Format.XZ) {
                    p = xzPadding(data, p, end);
                }
                if (firstOnly || p == end) {
                    break;
                }
                if (detect(data, p, end - p) != f && !(f == Format.ZSTD && isSkippableFrame(data, p, end))) {
                    throw new BtfFormatException(what + ": " + (end - p) + " bytes after the " + f.label() + " stream at offset "
                            + (start - off) + " are not another " + f.label() + " stream (at offset " + (p - off) + ")");
                }
            }
        } catch (BtfFormatException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            // The decoders signal corrupt input with IOExceptions and, for some malformed
            // frames, unchecked exceptions; both mean the same thing to a user.
            throw new BtfFormatException("corrupt " + what + ": " + why(e), e);
        }
        return sink.bytes();
    }

    private static String why(Exception e) {
        if (e instanceof EOFException || "Truncated source".equals(e.getMessage())) {
            return "truncated (the compressed stream ends early)";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** One xz stream from {@code p}; returns the bytes it took (the decoder reads no further). */
    private static int xzStream(byte[] d, int p, int end, long cap, Sink sink) throws IOException {
        ByteArrayInputStream bin = new ByteArrayInputStream(d, p, end - p);
        // the dictionary is the memory an xz stream demands up front: no more than the cap (+ 1 MiB for the rest)
        int limitKiB = (int) Math.min(Integer.MAX_VALUE, (cap >> 10) + 1024);
        try (InputStream in = new SingleXZInputStream(bin, limitKiB)) {
            sink.drain(in);
        } catch (MemoryLimitException e) {
            throw new BtfFormatException(sink.what + ": the xz dictionary needs " + (e.getMemoryNeeded() >> 10)
                    + " MiB, a window larger than the " + InputLimits.size(cap) + " cap on an input; "
                    + InputLimits.howToRaise(), e);
        }
        return end - p - bin.available();
    }

    /** xz stream padding: zero bytes in multiples of four between and after streams. */
    private static int xzPadding(byte[] d, int p, int end) {
        int q = p;
        while (q + 4 <= end && d[q] == 0 && d[q + 1] == 0 && d[q + 2] == 0 && d[q + 3] == 0) {
            q += 4;
        }
        return q;
    }

    private static boolean isSkippableFrame(byte[] d, int p, int end) {
        return end - p >= 4 && (d[p] & 0xf0) == 0x50 && (d[p + 1] & 0xff) == 0x2a && (d[p + 2] & 0xff) == 0x4d
                && (d[p + 3] & 0xff) == 0x18;
    }

    /** One zstd frame (or skippable frame) from {@code p}; returns its compressed size. */
    private static int zstdFrame(byte[] d, int p, int end, long cap, Sink sink) throws IOException {
        long size;
        try {
            size = Zstd.findFrameCompressedSize(d, p, end - p);
        } catch (RuntimeException e) {
            if ("Src size is incorrect".equals(e.getMessage())) {
                throw new EOFException(); // the frame runs past the data
            }
            throw e;
        }
        // the window is the memory a frame demands up front: no more than the cap
        int windowLog = Math.max(Zstd.windowLogMin(), Math.min(Zstd.windowLogMax(), 63 - Long.numberOfLeadingZeros(cap)));
        try (ZstdInputStreamNoFinalizer in = new ZstdInputStreamNoFinalizer(new ByteArrayInputStream(d, p, (int) size))) {
            in.setLongMax(windowLog);
            sink.drain(in);
        } catch (IOException e) {
            if (String.valueOf(e.getMessage()).contains("too much memory")) {
                throw new BtfFormatException(sink.what + ": a zstd frame has a window larger than the "
                        + InputLimits.size(cap) + " cap on an input; "
                        + InputLimits.howToRaise(), e);
            }
            throw e;
        }
        return (int) size;
    }

    /** One gzip member (RFC 1952) from {@code p}; returns its length, trailer included. */
    private static int gzipMember(byte[] d, int p, int end, Sink sink) throws IOException {
        int q = gzipHeaderEnd(d, p, end);
        Inflater inf = new Inflater(true);
        try {
            inf.setInput(d, q, end - q);
            CRC32 crc = new CRC32();
            byte[] buf = new byte[1 << 16];
            while (!inf.finished()) {
                int n;
                try {
                    n = inf.inflate(buf);
                } catch (DataFormatException e) {
                    throw new ZipException(e.getMessage());
                }
                if (n == 0 && (inf.needsInput() || inf.needsDictionary())) {
                    throw new EOFException();
                }
                crc.update(buf, 0, n);
                sink.write(buf, n);
            }
            int t = end - inf.getRemaining();
            if (end - t < 8) {
                throw new EOFException();
            }
            if (le32(d, t) != crc.getValue() || le32(d, t + 4) != (inf.getBytesWritten() & 0xffffffffL)) {
                throw new ZipException("gzip trailer does not match the data (CRC-32 or size)");
            }
            return t + 8 - p;
        } finally {
            inf.end();
        }
    }

    /** The magic that starts an LZ4 legacy stream. */
    private static final long LZ4_LEGACY_MAGIC = 0x184c2102L;
    /** A legacy block decompresses to at most 8 MiB; its compressed size is bounded by LZ4's worst case. */
    private static final int LZ4_LEGACY_BLOCK = 8 << 20;
    private static final int LZ4_LEGACY_MAX_COMPRESSED = LZ4_LEGACY_BLOCK + LZ4_LEGACY_BLOCK / 255 + 16;

    /**
     * One LZ4 legacy stream from {@code p} (at its magic): blocks of a 4-byte little-endian
     * compressed size and that many bytes. The format has no end mark; as lz4 and the kernel
     * read it, the stream ends at the data's end, at the next stream's magic, or at a size
     * that is no block (zero, past the data or past the largest block: a kernel image's
     * appended uncompressed size). Returns the bytes it took.
     */
    private static int lz4LegacyStream(byte[] d, int p, int end, Sink sink) {
        Lz4Decompressor lz4 = new Lz4Decompressor();
        byte[] block = null;
        int q = p + 4;
        while (end - q >= 4) {
            long size = le32(d, q);
            if (size == LZ4_LEGACY_MAGIC || size == 0 || size > end - q - 4 || size > LZ4_LEGACY_MAX_COMPRESSED) {
                break;
            }
            if (block == null) {
                block = new byte[LZ4_LEGACY_BLOCK];
            }
            int n = lz4.decompress(d, q + 4, (int) size, block, 0, block.length);
            sink.write(block, n);
            q += 4 + (int) size;
        }
        return q - p;
    }

    /** Where the deflate data of the gzip member at {@code p} starts. */
    private static int gzipHeaderEnd(byte[] d, int p, int end) throws IOException {
        if (end - p < 10) {
            throw new EOFException();
        }
        int flags = d[p + 3] & 0xff;
        if (d[p + 2] != 8 || (flags & 0xe0) != 0) {
            throw new ZipException("unsupported gzip header (method " + d[p + 2] + ", flags 0x" + Integer.toHexString(flags) + ")");
        }
        long q = p + 10;
        if ((flags & 4) != 0) { // FEXTRA
            if (end - q < 2) {
                throw new EOFException();
            }
            q += 2 + ((d[(int) q] & 0xff) | (d[(int) q + 1] & 0xff) << 8);
        }
        for (int bit : new int[] {8, 16}) { // FNAME, FCOMMENT: zero-terminated
            if ((flags & bit) != 0) {
                while (q < end && d[(int) q] != 0) {
                    q++;
                }
                q++;
            }
        }
        if ((flags & 2) != 0) { // FHCRC
            q += 2;
        }
        if (q > end) {
            throw new EOFException();
        }
        return (int) q;
    }

    private static long le32(byte[] d, int at) {
        return (d[at] & 0xffL) | (d[at + 1] & 0xffL) << 8 | (d[at + 2] & 0xffL) << 16 | (d[at + 3] & 0xffL) << 24;
    }

    /**
     * Collects the output in chunks (copied once at the end, so refusing a bomb costs about the
     * limit, not several times it), refusing past the limit and judging the first bytes.
     */
    private static final class Sink {
        final String what;
        private final long limit;
        private final long cap;
        private final int compressed;
        private final java.util.List<byte[]> chunks = new java.util.ArrayList<>();
        private byte[] chunk = new byte[InputHead.LENGTH];
        private int used;
        private long total;
        private boolean judged;

        Sink(String what, long limit, long cap, int compressed) {
            this.what = what;
            this.limit = limit;
            this.cap = cap;
            this.compressed = compressed;
        }

        void drain(InputStream in) throws IOException {
            byte[] buf = new byte[1 << 16];
            int n;
            while ((n = in.read(buf, 0, buf.length)) > 0) {
                write(buf, n);
            }
        }

        void write(byte[] b, int n) {
            if (total + n > limit) {
                throw new BtfFormatException(what + " expands past " + limit + " bytes (" + compressed + " compressed; "
                        + (limit == cap ? "the cap on an input; " + InputLimits.howToRaise()
                        : "more than " + MAX_RATIO + " times its compressed size") + "); refusing to decompress further");
            }
            total += n;
            int at = 0;
            while (at < n) {
                if (used == chunk.length) {
                    chunks.add(chunk);
                    chunk = new byte[(int) Math.min(1 << 24, Math.min(limit - (total - n + at), 2L * chunk.length))];
                    used = 0;
                }
                int k = Math.min(n - at, chunk.length - used);
                System.arraycopy(b, at, chunk, used, k);
                used += k;
                at += k;
            }
            if (!judged && total >= InputHead.LENGTH) {
                judge();
            }
        }

        private void judge() {
            judged = true;
            byte[] first = chunks.isEmpty() ? chunk : chunks.get(0);
            InputHead.check(first, (int) Math.min(first.length, total), cap, what);
        }

        byte[] bytes() {
            if (!judged) {
                judge();
            }
            byte[] out = new byte[(int) total];
            int at = 0;
            for (byte[] c : chunks) {
                System.arraycopy(c, 0, out, at, c.length);
                at += c.length;
            }
            System.arraycopy(chunk, 0, out, at, used);
            return out;
        }
    }
}
