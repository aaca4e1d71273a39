package io.btfkit.core.malformed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.io.Decompressor;
import io.btfkit.core.io.InputLimits;
import io.btfkit.core.io.InputLoader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * Inputs that would make btfkit spend far more than they are worth are refused while reading or
 * decompressing, never after: the bytes the loading thread allocates (a deterministic count,
 * unlike heap usage) stay within a small multiple of the limit, far below the expansion. Valid
 * compressed files whose windows are large but within the cap are read; beyond it they are
 * refused with that reason. What follows a stream follows one rule for all formats.
 */
class CompressionBombTest {
    private static final int MEMBER = 16 << 20;
    private static final int COPIES = 64;
    private static final long EXPANSION = (long) MEMBER * COPIES;

    @TempDir
    Path dir;

    /** Concatenated streams of 16 MiB of an ELF header and zeros: every stream is read, until the limit. */
    @Test
    void xzBomb() throws IOException {
        refused(MalformedFiles.repeat(MalformedFiles.xz(elfThenZeros(MEMBER)), COPIES), "xz");
    }

    @Test
    void gzipBomb() throws IOException {
        refused(MalformedFiles.repeat(MalformedFiles.gzip(elfThenZeros(MEMBER)), COPIES), "gzip");
    }

    @Test
    void zstdBomb() throws IOException {
        refused(MalformedFiles.repeat(MalformedFiles.zstd(elfThenZeros(MEMBER)), COPIES), "zstd");
    }

    @Test
    void lz4Bomb() throws IOException {
        refused(MalformedFiles.repeat(MalformedFiles.lz4Legacy(elfThenZeros(MEMBER)), COPIES), "lz4");
    }

    private void refused(byte[] bomb, String format) throws IOException {
        long limit = Decompressor.limit(bomb.length, InputLimits.maxBytes());
        assertTrue(limit * 4 < EXPANSION, "the bomb must expand far past the limit: " + bomb.length + " bytes, limit " + limit);
        Path file = Files.write(dir.resolve("bomb." + format), bomb);
        BtfFormatException e = refusedWithin(4 * limit, () -> CliLoad.load(file));
        assertTrue(e.getMessage().startsWith(format + " data expands past " + limit + " bytes (" + bomb.length + " compressed"),
                e.getMessage());
    }

    /** Zeros are refused by their first 64 KiB, however far they would expand. */
    @Test
    void zerosAreRefusedAtTheirStart() throws IOException {
        byte[] bomb = MalformedFiles.repeat(MalformedFiles.xz(new byte[MEMBER]), COPIES);
        Path file = Files.write(dir.resolve("zeros.xz"), bomb);
        BtfFormatException e = refusedWithin(8L << 20, () -> CliLoad.load(file));
        assertTrue(e.getMessage().startsWith("xz data: not BTF, ELF, compressed data or BTF text (starts with 00 00"),
                e.getMessage());
    }

    /** A kernel image whose xz payload expands to 160 MiB: stopped at the limit for its size. */
    @Test
    void kernelImagePayloadBomb() throws IOException {
        byte[] payload = xz(elfThenZeros(160 << 20), 1 << 20);
        byte[] image = bzImage(payload);
        long limit = Decompressor.limit(payload.length, InputLimits.maxBytes());
        Path file = Files.write(dir.resolve("vmlinuz"), image);
        BtfFormatException e = refusedWithin(4 * limit, () -> InputLoader.load(file, null));
        assertTrue(e.getMessage().startsWith("kernel image payload (xz) expands past " + limit + " bytes"), e.getMessage());
    }

    /** The kernel image payload is read as its first stream: the size the kernel appends is not junk. */
    @Test
    void kernelImagePayloadIsItsFirstStream() {
        byte[] elf = elfThenZeros(1 << 12);
        for (byte[] payload : new byte[][] {MalformedFiles.xz(elf), MalformedFiles.gzip(elf), MalformedFiles.zstd(elf),
            MalformedFiles.lz4Legacy(elf)}) {
            byte[] withSize = MalformedFiles.concat(payload, new byte[] {0, 16, 0, 0});
            BtfFormatException e = assertThrows(BtfFormatException.class,
                    () -> InputLoader.load(Path.of("vmlinuz"), bzImage(withSize), null));
            // it gets as far as the ELF reader: the payload was unwrapped whole
            assertTrue(e.getMessage().contains("ELF") || e.getMessage().contains("section"), e.getMessage());
        }
    }

    /** /dev/zero never ends: it is refused after its first bytes. */
    @Test
    void devZeroIsRefusedAtItsStart() {
        Path zero = Path.of("/dev/zero");
        Assumptions.assumeTrue(Files.isReadable(zero), "skipped: no /dev/zero");
        BtfFormatException e = refusedWithin(4L << 20, () -> InputLoader.readFile(zero));
        assertTrue(e.getMessage().startsWith("not BTF, ELF, compressed data or BTF text (starts with 00"), e.getMessage());
    }

    /** A 1000 MB file of zeros (sparse here) is refused by its start, before its size is allocated. */
    @Test
    void largeFileOfZerosIsRefusedAtItsStart() throws IOException {
        Path file = dir.resolve("zeros.bin");
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(1000L << 20);
        }
        BtfFormatException e = refusedWithin(4L << 20, () -> InputLoader.readFile(file));
        assertTrue(e.getMessage().startsWith("not BTF, ELF, compressed data or BTF text"), e.getMessage());
    }

    /** A header announcing more than the cap is refused before anything is spent on it. */
    @Test
    void headersAnnouncingMoreThanTheCapAreRefused() {
        byte[] btf = MalformedFiles.raw(b -> b.putInt(MalformedFiles.STR_LEN, 0x7fff_0000));
        BtfFormatException e = assertThrows(BtfFormatException.class,
                () -> Decompressor.decompress(MalformedFiles.xz(btf), 0, MalformedFiles.xz(btf).length,
                        Decompressor.Format.XZ, false, 1 << 20, "xz data"));
        assertTrue(e.getMessage().startsWith("xz data: BTF header announces a "), e.getMessage());
        byte[] elf = elfThenZeros(4096);
        ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN).putLong(0x28, 3L << 30);
        byte[] xz = MalformedFiles.xz(elf);
        e = assertThrows(BtfFormatException.class,
                () -> Decompressor.decompress(xz, 0, xz.length, Decompressor.Format.XZ, false, 1 << 20, "xz data"));
        assertTrue(e.getMessage().startsWith("xz data: ELF section header table at offset 3221225472 ends past the 1 MiB cap"),
                e.getMessage());
    }

    /** An xz dictionary within the cap is read; past it, refused with the reason. */
    @Test
    void xzDictionaryIsHeldToTheCap() {
        byte[] data = elfThenZeros(1 << 12);
        byte[] xz = xz(data, 8 << 20);
        assertArrayEquals(data, Decompressor.decompress(xz, 0, xz.length, Decompressor.Format.XZ, false, 16 << 20, "xz data"));
        BtfFormatException e = assertThrows(BtfFormatException.class,
                () -> Decompressor.decompress(xz, 0, xz.length, Decompressor.Format.XZ, false, 4 << 20, "xz data"));
        assertTrue(e.getMessage().startsWith("xz data: the xz dictionary needs 8 MiB, a window larger than the 4 MiB cap"),
                e.getMessage());
    }

    /** A frame of {@code zstd --long=27} (128 MiB window, as aircompressor cannot read) is read; a window past the cap is refused. */
    @Test
    void zstdLongWindowIsReadWithinTheCap() throws IOException {
        byte[] data = elfThenZeros(1 << 12);
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (ZstdOutputStreamNoFinalizer z = new ZstdOutputStreamNoFinalizer(bos)) {
            z.setLong(27);
            z.write(data);
        }
        byte[] zst = bos.toByteArray();
        assertEquals(0x28, zst[0] & 0xff);
        assertArrayEquals(data, Decompressor.decompress(zst, Decompressor.Format.ZSTD));
        BtfFormatException e = assertThrows(BtfFormatException.class,
                () -> Decompressor.decompress(zst, 0, zst.length, Decompressor.Format.ZSTD, false, 64 << 20, "zstd data"));
        assertTrue(e.getMessage().startsWith("zstd data: a zstd frame has a window larger than the 64 MiB cap"), e.getMessage());
    }

    /** One rule after a stream: another stream or the format's padding; junk is refused by all formats. */
    @Test
    void trailingBytesFollowOneRule() {
        byte[] data = elfThenZeros(1 << 12);
        byte[] junk = "junk".getBytes(StandardCharsets.US_ASCII);
        for (Decompressor.Format f : Decompressor.Format.values()) {
            byte[] one = compress(f, data);
            byte[] two = MalformedFiles.concat(one, one);
            assertEquals(2 * data.length, Decompressor.decompress(two, f).length, f.label() + " concatenated");
            BtfFormatException e = assertThrows(BtfFormatException.class,
                    () -> Decompressor.decompress(MalformedFiles.concat(one, junk), f));
            assertEquals(f.label() + " data: 4 bytes after the " + f.label() + " stream at offset 0 are not another "
                    + f.label() + " stream (at offset " + one.length + ")", e.getMessage());
        }
        byte[] padded = MalformedFiles.concat(MalformedFiles.xz(data), new byte[8]);
        assertArrayEquals(data, Decompressor.decompress(padded, Decompressor.Format.XZ));
    }

    private static byte[] compress(Decompressor.Format f, byte[] data) {
        return switch (f) {
            case XZ -> MalformedFiles.xz(data);
            case ZSTD -> MalformedFiles.zstd(data);
            case GZIP -> MalformedFiles.gzip(data);
            case LZ4 -> MalformedFiles.lz4Legacy(data);
        };
    }

    /**
     * LZ4 legacy data (a bzImage's LZ4 payload): read block by block, across 8 MiB blocks; a
     * corrupt block is "corrupt lz4 data"; a block size past the data ends the stream, so a
     * truncated last block is junk after it, as lz4 itself reports.
     */
    @Test
    void lz4LegacyIsReadAndItsDamageNamed() {
        byte[] data = elfThenZeros(20 << 20);
        for (int i = 4096; i < data.length; i += 977) {
            data[i] = (byte) (i * 31);
        }
        byte[] lz4 = MalformedFiles.lz4Legacy(data);
        assertArrayEquals(data, Decompressor.decompress(lz4, Decompressor.Format.LZ4));
        assertEquals(Decompressor.Format.LZ4, Decompressor.detect(lz4));
        byte[] corrupt = lz4.clone();
        corrupt[8] = (byte) 0xff; // the first block's first token and literal length: past the block
        corrupt[9] = (byte) 0xff;
        corrupt[10] = (byte) 0xff;
        corrupt[11] = (byte) 0xff;
        BtfFormatException bad = assertThrows(BtfFormatException.class, () -> Decompressor.decompress(corrupt, Decompressor.Format.LZ4));
        assertTrue(bad.getMessage().startsWith("corrupt lz4 data: "), bad.getMessage());
        byte[] cut = Arrays.copyOf(lz4, lz4.length - 100);
        BtfFormatException trunc = assertThrows(BtfFormatException.class, () -> Decompressor.decompress(cut, Decompressor.Format.LZ4));
        assertTrue(trunc.getMessage().startsWith("lz4 data: ") && trunc.getMessage().contains("are not another lz4 stream"),
                trunc.getMessage());
    }

    /** {@code n} bytes: a 64-bit little-endian ELF header with no section table, then zeros. */
    static byte[] elfThenZeros(int n) {
        byte[] d = new byte[n];
        d[0] = 0x7f;
        d[1] = 'E';
        d[2] = 'L';
        d[3] = 'F';
        d[4] = 2;
        d[5] = 1;
        d[6] = 1;
        return d;
    }

    /** A minimal bzImage: setup header magic and a payload after one setup sector. */
    static byte[] bzImage(byte[] payload) {
        int setup = 2 * 512;
        ByteBuffer b = ByteBuffer.allocate(setup + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(0, (byte) 'M').put(1, (byte) 'Z').put(0x1f1, (byte) 1);
        b.put(0x202, (byte) 'H').put(0x203, (byte) 'd').put(0x204, (byte) 'r').put(0x205, (byte) 'S');
        b.putInt(0x248, 0).putInt(0x24c, payload.length);
        b.put(setup, payload);
        return b.array();
    }

    private static byte[] xz(byte[] data, int dictSize) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try {
            LZMA2Options o = new LZMA2Options(0);
            o.setDictSize(dictSize);
            try (OutputStream os = new XZOutputStream(bos, o)) {
                os.write(data);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return bos.toByteArray();
    }

    /** Runs {@code load}, which must refuse, allocating at most {@code bound} bytes on this thread. */
    private static BtfFormatException refusedWithin(long bound, Supplier<?> load) {
        com.sun.management.ThreadMXBean threads = threadBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        BtfFormatException e = assertThrows(BtfFormatException.class, load::get);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < bound, "refusing allocated " + allocated + " bytes, more than " + bound + ": " + e.getMessage());
        return e;
    }

    private static com.sun.management.ThreadMXBean threadBean() {
        java.lang.management.ThreadMXBean t = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(t instanceof com.sun.management.ThreadMXBean
                && ((com.sun.management.ThreadMXBean) t).isThreadAllocatedMemorySupported(),
                "skipped: this JVM does not count allocated bytes per thread");
        return (com.sun.management.ThreadMXBean) t;
    }
}
