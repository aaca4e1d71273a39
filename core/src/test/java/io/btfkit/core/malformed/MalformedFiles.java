package io.btfkit.core.malformed;

import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.zstd.ZstdCompressor;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.TestData;
import io.btfkit.core.text.RawTextParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.zip.GZIPOutputStream;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * The well-formed files the malformed cases are derived from, and the ways of damaging them.
 *
 * <p>{@link #RAW}: a 99-byte little-endian raw BTF written from {@link #TEXT}: 24-byte header,
 * type section at 0 (64 bytes: INT [1] at 0, PTR [2] at 16, STRUCT [3] at 28 with two members),
 * string section at 64 (11 bytes: {@code \0int\0s\0a\0p\0}). {@link #elf()}: the shipped
 * {@code gcc/queue.o} (ELF64 LSB) with its section table located from its own header.
 */
final class MalformedFiles {
    static final String TEXT = "[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n"
            + "[2] PTR '(anon)' type_id=3\n"
            + "[3] STRUCT 's' size=16 vlen=2\n"
            + "\t'a' type_id=1 bits_offset=0\n"
            + "\t'p' type_id=2 bits_offset=64\n";
    static final byte[] RAW = BtfWriter.write(RawTextParser.parse(TEXT, null));

    /** Header field offsets. */
    static final int VERSION = 2;
    static final int HDR_LEN = 4;
    static final int TYPE_OFF = 8;
    static final int TYPE_LEN = 12;
    static final int STR_OFF = 16;
    static final int STR_LEN = 20;
    /** Absolute offsets of the types' first words (name_off, then info at +4, size/type at +8). */
    static final int INT_AT = 24;
    static final int PTR_AT = 24 + 16;
    static final int STRUCT_AT = 24 + 28;
    /** Member {@code k} of the STRUCT: name_off, type, offset. */
    static final int MEMBER_AT = STRUCT_AT + 12;

    private MalformedFiles() {
    }

    /** A copy of {@code data} with {@code change} applied through a little-endian buffer. */
    static byte[] edit(byte[] data, Consumer<ByteBuffer> change) {
        byte[] copy = data.clone();
        change.accept(ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN));
        return copy;
    }

    static byte[] raw(Consumer<ByteBuffer> change) {
        return edit(RAW, change);
    }

    static byte[] cut(byte[] data, int length) {
        return Arrays.copyOf(data, length);
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** The sample ELF object and where its section headers are. */
    record Elf(byte[] bytes, long shoff, int shnum, int btfIndex) {
        /** Absolute offset of field {@code field} of section header {@code index}. */
        int sh(int index, int field) {
            return (int) shoff + index * 64 + field;
        }
    }

    static Elf elf() {
        byte[] d = TestData.bytes(TestData.sample("gcc/queue.o"));
        ByteBuffer b = ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN);
        long shoff = b.getLong(0x28);
        int shnum = b.getShort(0x3c) & 0xffff;
        int shstrndx = b.getShort(0x3e) & 0xffff;
        long names = b.getLong((int) shoff + shstrndx * 64 + 0x18);
        for (int i = 1; i < shnum; i++) {
            int nameOff = b.getInt((int) shoff + i * 64);
            if (cString(d, (int) (names + nameOff)).equals(".BTF")) {
                return new Elf(d, shoff, shnum, i);
            }
        }
        throw new AssertionError("gcc/queue.o has no .BTF section");
    }

    private static String cString(byte[] d, int at) {
        int end = at;
        while (d[end] != 0) {
            end++;
        }
        return new String(d, at, end - at, StandardCharsets.ISO_8859_1);
    }

    static byte[] gzip(byte[] data) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (OutputStream os = new GZIPOutputStream(bos)) {
            os.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bos.toByteArray();
    }

    static byte[] xz(byte[] data) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (OutputStream os = new XZOutputStream(bos, new LZMA2Options(1))) {
            os.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bos.toByteArray();
    }

    static byte[] zstd(byte[] data) {
        ZstdCompressor z = new ZstdCompressor();
        byte[] out = new byte[z.maxCompressedLength(data.length)];
        return Arrays.copyOf(out, z.compress(data, 0, data.length, out, 0, out.length));
    }

    /** LZ4's legacy format ({@code lz4 -l}, the kernel's LZ4 images): the magic, then 8 MiB blocks each after its compressed size. */
    static byte[] lz4Legacy(byte[] data) {
        Lz4Compressor z = new Lz4Compressor();
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        bos.writeBytes(new byte[] {0x02, 0x21, 0x4c, 0x18});
        int block = 8 << 20;
        byte[] out = new byte[z.maxCompressedLength(block)];
        for (int at = 0; at < data.length; at += block) {
            int n = z.compress(data, at, Math.min(block, data.length - at), out, 0, out.length);
            bos.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(n).array());
            bos.write(out, 0, n);
        }
        return bos.toByteArray();
    }

    /** {@code copies} concatenated copies of {@code member}: gzip and xz readers read every one. */
    static byte[] repeat(byte[] member, int copies) {
        byte[] out = new byte[member.length * copies];
        for (int i = 0; i < copies; i++) {
            System.arraycopy(member, 0, out, i * member.length, member.length);
        }
        return out;
    }
}
