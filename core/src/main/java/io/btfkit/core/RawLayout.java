package io.btfkit.core;

/**
 * Where the sections of a BTF lay in the bytes it was read from: its header as written and the
 * number of bytes given for the blob (for a raw file, the file; for an ELF object, its
 * {@code .BTF} section), so that whatever follows the sections is known too. The model keeps
 * no offsets of its own (the writer lays sections out contiguously), so this is the only record
 * of a gap between sections or of bytes after them, which the kernel's loader refuses and the
 * validator's kernel profile reports.
 *
 * @param header the header as read
 * @param bytes  the bytes given for the blob, at least {@link BtfHeader#blobLength()}
 */
public record RawLayout(BtfHeader header, long bytes) {
    /** Bytes after the furthest section's end. */
    public long trailing() {
        return bytes - header.blobLength();
    }

    /** Whether header bytes past the classic 24 hold something other than zeros (layout fields). */
    public boolean headerTailNonZero() {
        return header.layoutOff() != 0 || header.layoutLen() != 0;
    }
}
