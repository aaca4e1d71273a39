package io.btfkit.core.io;

import io.airlift.compress.zstd.ZstdInputStream;
import io.btfkit.core.BtfFormatException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * Transparent decompression of xz, zstd and gzip inputs (kernel modules ship as .ko.xz and
 * .ko.zst), detected by magic bytes, never by file name.
 *
 * <p>Output is capped so a small hostile file cannot expand into gigabytes: at most
 * {@link #MAX_OUTPUT} bytes, and at most {@link #MAX_RATIO} times the compressed size once past
 * {@link #RATIO_FLOOR} (real modules and kernel images compress 3-10x; zero-filled bombs
 * compress 1000x). Output is collected in chunks and copied once, so refusing a bomb costs
 * about the cap, not several times it.
 */
public final class Decompressor {
    public static final long MAX_OUTPUT = 1L << 30;
    public static final long MAX_RATIO = 30;
    public static final long RATIO_FLOOR = 64L << 20;

    /** Compression formats btfkit reads. */
    public enum Format {
        XZ("xz"), ZSTD("zstd"), GZIP("gzip");

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
        if (data.length >= 6 && (data[0] & 0xff) == 0xfd && data[1] == '7' && data[2] == 'z' && data[3] == 'X'
                && data[4] == 'Z' && data[5] == 0) {
            return Format.XZ;
        }
        if (data.length >= 4 && (data[0] & 0xff) == 0x28 && (data[1] & 0xff) == 0xb5 && (data[2] & 0xff) == 0x2f
                && (data[3] & 0xff) == 0xfd) {
            return Format.ZSTD;
        }
        if (data.length >= 2 && (data[0] & 0xff) == 0x1f && (data[1] & 0xff) == 0x8b) {
            return Format.GZIP;
        }
        return null;
    }

    /** Decompresses {@code data} in format {@code f}, within the output cap. */
    public static byte[] decompress(byte[] data, Format f) {
        long limit = Math.min(MAX_OUTPUT, Math.max(RATIO_FLOOR, MAX_RATIO * data.length));
        try (InputStream in = open(new ByteArrayInputStream(data), f)) {
            return readCapped(in, limit, f, data.length);
        } catch (BtfFormatException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            // The decoders signal corrupt input with IOExceptions and, for some malformed
            // frames, unchecked exceptions; both mean the same thing to a user.
            throw new BtfFormatException("corrupt " + f.label() + " data: " + why(e), e);
        }
    }

    private static String why(Exception e) {
        if (e instanceof java.io.EOFException) {
            return "truncated (the compressed stream ends early)";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** Reads all of {@code in} into one array, refusing more than {@code limit} bytes. */
    private static byte[] readCapped(InputStream in, long limit, Format f, int compressed) throws IOException {
        java.util.List<byte[]> chunks = new java.util.ArrayList<>();
        long total = 0;
        int chunk = 1 << 16;
        while (true) {
            byte[] c = new byte[chunk];
            int used = 0;
            int n;
            while (used < c.length && (n = in.read(c, used, c.length - used)) > 0) {
                used += n;
            }
            if (used > 0) {
                total += used;
                if (total > limit) {
                    throw new BtfFormatException(f.label() + " data expands past " + limit + " bytes (" + compressed
                            + " compressed); refusing to decompress further");
                }
                chunks.add(used == c.length ? c : java.util.Arrays.copyOf(c, used));
            }
            if (used < c.length) {
                break;
            }
            chunk = (int) Math.min(1 << 24, chunk * 2L);
        }
        if (total == 0) {
            throw new BtfFormatException(f.label() + " data decompresses to nothing");
        }
        byte[] out = new byte[(int) total];
        int at = 0;
        for (byte[] c : chunks) {
            System.arraycopy(c, 0, out, at, c.length);
            at += c.length;
        }
        return out;
    }

    /**
     * Decompresses only the first stream (a kernel image appends the uncompressed size after
     * its xz stream, which is not another stream).
     */
    public static byte[] decompressFirstStream(byte[] data, Format f) {
        if (f != Format.XZ) {
            return decompress(data, f);
        }
        try (InputStream in = new org.tukaani.xz.SingleXZInputStream(new ByteArrayInputStream(data), 256 * 1024)) {
            return in.readAllBytes();
        } catch (IOException | RuntimeException e) {
            throw new BtfFormatException("corrupt xz data: " + why(e), e);
        }
    }

    private static InputStream open(InputStream in, Format f) throws IOException {
        switch (f) {
            case XZ:
                return new XZInputStream(in, 256 * 1024);
            case ZSTD:
                return new ZstdInputStream(in);
            case GZIP:
                return new GZIPInputStream(in, 1 << 16);
            default:
                throw new IllegalArgumentException(f.toString());
        }
    }
}
