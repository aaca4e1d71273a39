package io.btfkit.core.io;

import io.btfkit.core.BtfFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * An x86 kernel image (bzImage, {@code /boot/vmlinuz-*}): the boot setup header says where the
 * compressed vmlinux ELF lies ({@code setup_sects}, {@code payload_offset},
 * {@code payload_length}); that payload's first stream is decompressed (xz, zstd, gzip, lz4; the
 * kernel appends the uncompressed size after it), within the input cap, so the image's .BTF can
 * be read like any ELF's.
 */
final class BzImage {
    private static final int SETUP_SECTS = 0x1f1;
    private static final int HEADER_MAGIC = 0x202;
    private static final int PAYLOAD_OFFSET = 0x248;
    private static final int PAYLOAD_LENGTH = 0x24c;

    private BzImage() {
    }

    static boolean accepts(byte[] d) {
        return d.length > PAYLOAD_LENGTH + 4 && d[HEADER_MAGIC] == 'H' && d[HEADER_MAGIC + 1] == 'd'
                && d[HEADER_MAGIC + 2] == 'r' && d[HEADER_MAGIC + 3] == 'S' && (d[0] & 0xff) == 'M' && (d[1] & 0xff) == 'Z';
    }

    /** The decompressed vmlinux ELF inside the image, at most {@code cap} bytes. */
    static byte[] vmlinux(byte[] d, long cap) {
        ByteBuffer b = ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN);
        int setupSects = d[SETUP_SECTS] & 0xff;
        long setup = (long) ((setupSects == 0 ? 4 : setupSects) + 1) * 512;
        long off = setup + (b.getInt(PAYLOAD_OFFSET) & 0xffffffffL);
        long len = b.getInt(PAYLOAD_LENGTH) & 0xffffffffL;
        if (len == 0 || off + len > d.length) {
            throw new BtfFormatException("kernel image payload [" + off + ", +" + len + ") lies outside the file ("
                    + d.length + " bytes)");
        }
        Decompressor.Format f = Decompressor.detect(d, (int) off, (int) len);
        if (f == null) {
            throw new BtfFormatException("kernel image payload at offset " + off + " is compressed in a format btfkit "
                    + "does not read (starts with " + InputLoader.hexPrefix(java.util.Arrays.copyOfRange(d, (int) off,
                    (int) Math.min(off + 8, off + len))) + "); xz, zstd, gzip and lz4 are supported");
        }
        return Decompressor.firstStream(d, (int) off, (int) len, f, cap, "kernel image payload (" + f.label() + ")");
    }
}
