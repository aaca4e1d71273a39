package io.btfkit.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The raw BTF header ({@code struct btf_header}), classic 24 bytes or the newer form with
 * {@code layout_off/layout_len}. Offsets are relative to the end of the header. All length and
 * offset fields are unsigned 32-bit values held in {@code long}s so bounds checks cannot
 * overflow.
 */
public record BtfHeader(ByteOrder order, int version, int flags, long hdrLen,
                        long typeOff, long typeLen, long strOff, long strLen,
                        long layoutOff, long layoutLen) {
    public static final int MAGIC = 0xeb9f;
    public static final int CLASSIC_LENGTH = 24;
    public static final int LAYOUT_LENGTH = 32;

    /** Byte order of a BTF blob starting at {@code off} by its magic, or null when it is not BTF. */
    public static ByteOrder detect(byte[] data, int off, int len) {
        if (len < 2) {
            return null;
        }
        int b0 = data[off] & 0xff;
        int b1 = data[off + 1] & 0xff;
        if (b0 == 0x9f && b1 == 0xeb) {
            return ByteOrder.LITTLE_ENDIAN;
        }
        if (b0 == 0xeb && b1 == 0x9f) {
            return ByteOrder.BIG_ENDIAN;
        }
        return null;
    }

    /**
     * Parses and bounds-checks the header of the blob {@code data[off, off+len)}.
     *
     * @throws BtfFormatException naming the field that is wrong
     */
    public static BtfHeader parse(byte[] data, int off, int len) {
        if (len < CLASSIC_LENGTH) {
            throw new BtfFormatException("truncated BTF header: " + len + " bytes, need at least " + CLASSIC_LENGTH);
        }
        ByteOrder order = detect(data, off, len);
        if (order == null) {
            throw new BtfFormatException(String.format("bad magic 0x%02x%02x at offset 0, not BTF (want 0xeb9f)",
                    data[off + 1] & 0xff, data[off] & 0xff));
        }
        ByteBuffer b = ByteBuffer.wrap(data, off, len).order(order);
        int version = data[off + 2] & 0xff;
        if (version != 1) {
            throw new BtfFormatException("unsupported BTF version " + version + " (header offset 2), only 1 is defined");
        }
        int flags = data[off + 3] & 0xff;
        long hdrLen = u32(b, off + 4);
        if (hdrLen < CLASSIC_LENGTH || hdrLen > len) {
            throw new BtfFormatException("header length " + hdrLen + " (header offset 4) is "
                    + (hdrLen < CLASSIC_LENGTH ? "below 24" : "past the end of the data (" + len + " bytes)"));
        }
        // a header of 25..31 bytes cuts the layout fields: read as the classic header when the
        // bytes past 24 are zero (the kernel and libbpf do), refused otherwise (half a field)
        for (long i = hdrLen < LAYOUT_LENGTH ? CLASSIC_LENGTH : LAYOUT_LENGTH; i < hdrLen; i++) {
            if (data[off + (int) i] != 0) {
                throw new BtfFormatException(hdrLen < LAYOUT_LENGTH
                        ? "header length " + hdrLen + " (header offset 4) cuts the layout fields, and header offset " + i
                            + " is not zero (only zero bytes may pad a header shorter than 32)"
                        : "non-zero byte at header offset " + i + " past the known header fields");
            }
        }
        long typeOff = u32(b, off + 8);
        long typeLen = u32(b, off + 12);
        long strOff = u32(b, off + 16);
        long strLen = u32(b, off + 20);
        long layoutOff = hdrLen >= LAYOUT_LENGTH ? u32(b, off + 24) : 0;
        long layoutLen = hdrLen >= LAYOUT_LENGTH ? u32(b, off + 28) : 0;
        BtfHeader h = new BtfHeader(order, version, flags, hdrLen, typeOff, typeLen, strOff, strLen, layoutOff, layoutLen);
        h.check(len);
        return h;
    }

    private void check(long total) {
        long meta = total - hdrLen;
        if ((typeOff & 3) != 0) {
            throw new BtfFormatException("type section offset " + typeOff + " is not 4-byte aligned");
        }
        if ((typeLen & 3) != 0) {
            throw new BtfFormatException("type section length " + typeLen + " is not a multiple of 4");
        }
        if (typeOff + typeLen > meta) {
            throw new BtfFormatException("type section [" + typeOff + ", +" + typeLen + ") runs past the end of the data ("
                    + meta + " bytes after the header)");
        }
        if (strOff + strLen > meta) {
            throw new BtfFormatException("string section [" + strOff + ", +" + strLen + ") runs past the end of the data ("
                    + meta + " bytes after the header)");
        }
        if (typeOff + typeLen > strOff) {
            throw new BtfFormatException("type section [" + typeOff + ", +" + typeLen + ") overlaps or follows the string section at "
                    + strOff);
        }
        if (layoutLen > 0) {
            if ((layoutOff & 3) != 0 || layoutLen % LayoutTable.ENTRY_BYTES != 0) {
                throw new BtfFormatException("layout section [" + layoutOff + ", +" + layoutLen + ") is not 4-byte aligned");
            }
            if (layoutOff + layoutLen > meta) {
                throw new BtfFormatException("layout section [" + layoutOff + ", +" + layoutLen + ") runs past the end of the data");
            }
            if (overlaps(layoutOff, layoutLen, typeOff, typeLen) || overlaps(layoutOff, layoutLen, strOff, strLen)) {
                throw new BtfFormatException("layout section [" + layoutOff + ", +" + layoutLen + ") overlaps another section");
            }
        }
    }

    private static boolean overlaps(long a, long alen, long b, long blen) {
        return alen > 0 && blen > 0 && a < b + blen && b < a + alen;
    }

    /** Bytes of the blob this header describes: the header plus its furthest section end. */
    public long blobLength() {
        long end = Math.max(typeOff + typeLen, strOff + strLen);
        if (layoutLen > 0) {
            end = Math.max(end, layoutOff + layoutLen);
        }
        return hdrLen + end;
    }

    /**
     * Whether the sections are laid out the way btfkit writes them (types, layout, strings, no
     * gaps; an empty layout section has offset 0, as the reader keeps no position for it).
     */
    public boolean isCanonical() {
        return typeOff == 0 && (layoutLen == 0 ? strOff == typeLen && layoutOff == 0
                : layoutOff == typeLen && strOff == layoutOff + layoutLen);
    }

    static long u32(ByteBuffer b, int at) {
        return b.getInt(at) & 0xffffffffL;
    }
}
