package io.btfkit.core.ext;

import io.btfkit.core.BtfFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The {@code .BTF.ext} header ({@code struct btf_ext_header}): magic, version, flags, header
 * length, then offset/length of func_info and line_info (24 bytes) and, in the 32-byte form, of
 * core_relo. Offsets are relative to the end of the header. Lengths and offsets are unsigned
 * 32-bit values held in {@code long}s so bounds checks cannot overflow.
 */
public record BtfExtHeader(ByteOrder order, long hdrLen, long funcInfoOff, long funcInfoLen, long lineInfoOff,
                           long lineInfoLen, long coreReloOff, long coreReloLen) {
    public static final int MAGIC = 0xeb9f;
    /** Header without core_relo fields. */
    public static final int BASE_LENGTH = 24;
    /** Header with core_relo fields. */
    public static final int CORE_RELO_LENGTH = 32;

    /**
     * Parses and bounds-checks the header of {@code data[off, off+len)}: every subsection must lie
     * after the header, within the data, 4-byte aligned and not overlapping another.
     */
    public static BtfExtHeader parse(byte[] data, int off, int len) {
        if (len < 8) {
            throw new BtfFormatException("truncated .BTF.ext header: " + len + " bytes, need at least 8");
        }
        ByteOrder order = detect(data, off, len);
        if (order == null) {
            throw new BtfFormatException(String.format("bad .BTF.ext magic 0x%02x%02x at offset 0 (want 0xeb9f)",
                    data[off + 1] & 0xff, data[off] & 0xff));
        }
        if (data[off + 2] != 1) {
            throw new BtfFormatException("unsupported .BTF.ext version " + (data[off + 2] & 0xff) + " at offset 2, only 1 is defined");
        }
        if (data[off + 3] != 0) {
            throw new BtfFormatException("unsupported .BTF.ext flags 0x" + Integer.toHexString(data[off + 3] & 0xff)
                    + " at offset 3 (none are defined)");
        }
        ByteBuffer b = ByteBuffer.wrap(data, off, len).order(order);
        long hdrLen = u32(b, off + 4);
        if (hdrLen < BASE_LENGTH || hdrLen > len) {
            throw new BtfFormatException(".BTF.ext header length " + hdrLen + " (offset 4) is "
                    + (hdrLen < BASE_LENGTH ? "below 24" : "past the end of the data (" + len + " bytes)"));
        }
        if (hdrLen > BASE_LENGTH && hdrLen < CORE_RELO_LENGTH) {
            throw new BtfFormatException(".BTF.ext header length " + hdrLen + " (offset 4) cuts the core_relo fields; want 24 or at least 32");
        }
        for (long i = CORE_RELO_LENGTH; i < hdrLen; i++) {
            if (data[off + (int) i] != 0) {
                throw new BtfFormatException("non-zero byte at .BTF.ext header offset " + i + " past the known header fields");
            }
        }
        boolean core = hdrLen >= CORE_RELO_LENGTH;
        BtfExtHeader h = new BtfExtHeader(order, hdrLen, u32(b, off + 8), u32(b, off + 12), u32(b, off + 16),
                u32(b, off + 20), core ? u32(b, off + 24) : 0, core ? u32(b, off + 28) : 0);
        h.check(len - hdrLen);
        return h;
    }

    /** Byte order of a {@code .BTF.ext} blob by its magic, or null when the magic is wrong. */
    public static ByteOrder detect(byte[] data, int off, int len) {
        if (len < 2) {
            return null;
        }
        int b0 = data[off] & 0xff;
        int b1 = data[off + 1] & 0xff;
        if (b0 == 0x9f && b1 == 0xeb) {
            return ByteOrder.LITTLE_ENDIAN;
        }
        return b0 == 0xeb && b1 == 0x9f ? ByteOrder.BIG_ENDIAN : null;
    }

    private void check(long meta) {
        checkOne(BtfExtInfo.Kind.FUNC_INFO, funcInfoOff, funcInfoLen, meta);
        checkOne(BtfExtInfo.Kind.LINE_INFO, lineInfoOff, lineInfoLen, meta);
        checkOne(BtfExtInfo.Kind.CORE_RELO, coreReloOff, coreReloLen, meta);
        long[][] r = {{funcInfoOff, funcInfoLen}, {lineInfoOff, lineInfoLen}, {coreReloOff, coreReloLen}};
        BtfExtInfo.Kind[] k = BtfExtInfo.Kind.values();
        for (int i = 0; i < 3; i++) {
            for (int j = i + 1; j < 3; j++) {
                if (r[i][1] > 0 && r[j][1] > 0 && r[i][0] < r[j][0] + r[j][1] && r[j][0] < r[i][0] + r[i][1]) {
                    throw new BtfFormatException(".BTF.ext " + k[i].label() + " [" + r[i][0] + ", +" + r[i][1] + ") overlaps "
                            + k[j].label() + " [" + r[j][0] + ", +" + r[j][1] + ")");
                }
            }
        }
    }

    private static void checkOne(BtfExtInfo.Kind kind, long off, long len, long meta) {
        if (len == 0) {
            return;
        }
        if ((off & 3) != 0) {
            throw new BtfFormatException(".BTF.ext " + kind.label() + " offset " + off + " is not 4-byte aligned");
        }
        if (off + len > meta) {
            throw new BtfFormatException(".BTF.ext " + kind.label() + " [" + off + ", +" + len
                    + ") runs past the end of the data (" + meta + " bytes after the header)");
        }
    }

    /** Offset (relative to the header's end) of a subsection. */
    public long offset(BtfExtInfo.Kind kind) {
        switch (kind) {
            case FUNC_INFO:
                return funcInfoOff;
            case LINE_INFO:
                return lineInfoOff;
            default:
                return coreReloOff;
        }
    }

    public long length(BtfExtInfo.Kind kind) {
        switch (kind) {
            case FUNC_INFO:
                return funcInfoLen;
            case LINE_INFO:
                return lineInfoLen;
            default:
                return coreReloLen;
        }
    }

    /** Bytes of the blob this header describes: the header plus its furthest subsection end. */
    public long blobLength() {
        long end = Math.max(funcInfoOff + funcInfoLen, lineInfoOff + lineInfoLen);
        return hdrLen + Math.max(end, coreReloOff + coreReloLen);
    }

    /** Whether the subsections are laid out as btfkit (and clang, and libbpf's linker) writes them. */
    public boolean isCanonical() {
        return funcInfoOff == 0 && lineInfoOff == funcInfoLen
                && (hdrLen < CORE_RELO_LENGTH || coreReloOff == lineInfoOff + lineInfoLen);
    }

    static long u32(ByteBuffer b, int at) {
        return b.getInt(at) & 0xffffffffL;
    }
}
