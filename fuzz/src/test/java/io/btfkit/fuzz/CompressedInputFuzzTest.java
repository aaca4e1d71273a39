package io.btfkit.fuzz;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.airlift.compress.zstd.ZstdCompressor;
import io.btfkit.core.OperationException;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Assertions;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * Fuzzes the command line's input entry point ({@link InputLoader#load(Path, byte[],
 * io.btfkit.core.Btf)}): detection by content, decompression (xz, zstd, gzip, with its output
 * cap) and whatever reader the decompressed bytes go to.
 *
 * <p>{@link #compressed} mutates compressed files as they are (seeds: the shipped compressed
 * samples and compressed raw BTF); {@link #wrapped} compresses the fuzzed bytes itself (first
 * byte picks the format), so mutations reach the readers behind the decompressor instead of
 * dying on a checksum. {@link #kernelImage} does the same inside an x86 kernel image (bzImage):
 * the first byte also picks the image's quirks (the kernel's appended size, a payload length
 * past the end, setup_sects 0), so the payload's first-stream reading and its bounds are fuzzed.
 */
class CompressedInputFuzzTest {
    private static final Path NAME = Path.of("fuzz-input");

    @FuzzTest
    void compressed(byte[] data) {
        LoadedInput in = Outcomes.orRejected(() -> InputLoader.load(NAME, data, null));
        if (in != null) {
            checkLoaded(in);
        }
    }

    /**
     * A loaded input holds its BTF: one blob, or several back to back (ld -r of gcc objects),
     * which single-BTF commands refuse with a clean error while link reads each as a unit.
     */
    private static void checkLoaded(LoadedInput in) {
        if (in.isConcatenated()) {
            in.units().forEach(Assertions::assertNotNull);
            assertThrows(OperationException.class, in::btf);
        } else {
            assertNotNull(in.btf());
        }
    }

    @FuzzTest
    void wrapped(byte[] data) {
        if (data.length < 2) {
            return;
        }
        byte[] payload = Arrays.copyOfRange(data, 1, data.length);
        byte[] file = compress(data[0] & 3, payload);
        LoadedInput in = Outcomes.orRejected(() -> InputLoader.load(NAME, file, null));
        if (in != null) {
            checkLoaded(in);
        }
    }

    private static byte[] compress(int format, byte[] payload) {
        try {
            switch (format) {
                case 0: {
                    ByteArrayOutputStream bos = new ByteArrayOutputStream();
                    try (OutputStream os = new GZIPOutputStream(bos)) {
                        os.write(payload);
                    }
                    return bos.toByteArray();
                }
                case 1: {
                    ByteArrayOutputStream bos = new ByteArrayOutputStream();
                    try (OutputStream os = new XZOutputStream(bos, new LZMA2Options(0))) {
                        os.write(payload);
                    }
                    return bos.toByteArray();
                }
                case 2: {
                    ZstdCompressor z = new ZstdCompressor();
                    byte[] out = new byte[z.maxCompressedLength(payload.length)];
                    int n = z.compress(payload, 0, payload.length, out, 0, out.length);
                    return Arrays.copyOf(out, n);
                }
                default:
                    return payload;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest
    void kernelImage(byte[] data) {
        if (data.length < 2) {
            return;
        }
        int flags = (data[0] & 0xff) >> 2;
        byte[] payload = compress(data[0] & 3, Arrays.copyOfRange(data, 1, data.length));
        if ((flags & 1) != 0) { // the uncompressed size the kernel appends after the stream
            int n = data.length - 1;
            payload = Arrays.copyOf(payload, payload.length + 4);
            for (int i = 0; i < 4; i++) {
                payload[payload.length - 4 + i] = (byte) (n >>> (8 * i));
            }
        }
        int setup = 2 * 512;
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(setup + payload.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.put(0, (byte) 'M').put(1, (byte) 'Z').put(0x1f1, (byte) ((flags & 4) != 0 ? 0 : 1));
        b.put(0x202, (byte) 'H').put(0x203, (byte) 'd').put(0x204, (byte) 'r').put(0x205, (byte) 'S');
        b.putInt(0x24c, payload.length + ((flags & 2) != 0 ? 16 : 0));
        b.put(setup, payload);
        LoadedInput in = Outcomes.orRejected(() -> InputLoader.load(NAME, b.array(), null));
        if (in != null) {
            checkLoaded(in);
        }
    }
}
