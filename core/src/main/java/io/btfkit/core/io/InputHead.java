package io.btfkit.core.io;

import io.btfkit.core.BtfFormatException;
import io.btfkit.core.BtfHeader;
import io.btfkit.core.elf.ElfFile;
import io.btfkit.core.text.RawTextParser;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Judges an input by its first {@link #LENGTH} bytes, before the rest is read or decompressed:
 * bytes that cannot start anything btfkit reads ({@code /dev/zero}, a file of zeros, a
 * compression bomb of zeros) are refused at once, and the sizes a header announces (a raw BTF
 * blob's length from its u32 fields, the end of an ELF section header table) are held to the
 * cap before anything is spent on them.
 */
final class InputHead {
    /** How many leading bytes are judged (a raw-text file's first type line is within them). */
    static final int LENGTH = 1 << 16;

    private InputHead() {
    }

    /**
     * Checks the first {@code n} bytes of an input (all of it when shorter than {@link #LENGTH}).
     *
     * @param inner what holds these bytes ("xz data", "kernel image payload"), or null for a file
     *              (only a file may itself be compressed)
     * @throws BtfFormatException when they start nothing btfkit reads or announce more than
     *         {@code cap} bytes
     */
    static void check(byte[] d, int n, long cap, String inner) {
        if (n == 0) {
            throw new BtfFormatException(inner == null ? "empty file" : inner + " decompresses to nothing");
        }
        // the common kinds are told by their first bytes, in place (a copy of the head was 64 KiB
        // per input: 22 MB over a link of 350 objects); the rest judge exactly the n bytes
        if (Decompressor.detect(d, 0, n) != null) {
            if (inner != null) {
                throw new BtfFormatException(inner + " holds compressed data again; refusing to unwrap twice");
            }
            return;
        }
        // what a header announces matters for a stream, not yet all there; a file's own size is known
        if (BtfHeader.detect(d, 0, n) != null) {
            if (inner != null) {
                checkBtf(d, n, cap, inner);
            }
            return;
        }
        if (n >= 4 && ElfFile.isElf(d)) {
            if (inner != null) {
                checkElf(d, n, cap, inner);
            }
            return;
        }
        byte[] head = n == d.length ? d : java.util.Arrays.copyOf(d, n);
        if (!BzImage.accepts(head) && !TarArchive.accepts(head, n) && !RawTextParser.looksLikeText(head)) {
            throw new BtfFormatException((inner == null ? "" : inner + ": ")
                    + "not BTF, ELF, compressed data or BTF text (starts with " + InputLoader.hexPrefix(head) + ")");
        }
    }

    /** The first blob's length from its header: hdr_len + the end of the later section. */
    private static void checkBtf(byte[] d, int n, long cap, String inner) {
        if (n < 24) {
            return; // the reader reports the short header
        }
        ByteBuffer b = ByteBuffer.wrap(d).order(BtfHeader.detect(d, 0, n));
        long hdrLen = b.getInt(4) & 0xffffffffL;
        long end = Math.max((b.getInt(8) & 0xffffffffL) + (b.getInt(12) & 0xffffffffL),
                (b.getInt(16) & 0xffffffffL) + (b.getInt(20) & 0xffffffffL));
        if (hdrLen + end > cap) {
            throw new BtfFormatException(where(inner) + "BTF header announces a " + (hdrLen + end) + "-byte blob, more than the "
                    + InputLimits.size(cap) + " cap on an input; " + InputLimits.howToRaise());
        }
    }

    /** The section header table must end within the cap: every section is named there. */
    private static void checkElf(byte[] d, int n, long cap, String inner) {
        boolean is64 = n > 4 && d[4] == 2;
        if (n < (is64 ? 64 : 52)) {
            return; // the ELF parser reports the short header
        }
        ByteBuffer b = ByteBuffer.wrap(d).order(d[5] == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        long shoff = is64 ? b.getLong(0x28) : b.getInt(0x20) & 0xffffffffL;
        int entsize = b.getShort(is64 ? 0x3a : 0x2e) & 0xffff;
        int shnum = b.getShort(is64 ? 0x3c : 0x30) & 0xffff;
        if (shoff < 0 || shoff + (long) entsize * shnum > cap) {
            throw new BtfFormatException(where(inner) + "ELF section header table at offset " + Long.toUnsignedString(shoff)
                    + " ends past the " + InputLimits.size(cap) + " cap on an input; " + InputLimits.howToRaise());
        }
    }

    private static String where(String inner) {
        return inner == null ? "" : inner + ": ";
    }
}
