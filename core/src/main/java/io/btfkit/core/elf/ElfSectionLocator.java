package io.btfkit.core.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Where an ELF file's sections are, read from its headers alone (the ELF header, the section
 * header table and the section name table: a few kilobytes of a module), so that a caller can
 * plan before reading the file: a link of thousands of modules sizes its merged graph from each
 * {@code .BTF} header first. Nothing is validated beyond what locating needs — the file is
 * parsed and checked in full ({@link ElfFile#parse}) when it is read; a file this cannot make
 * sense of gives null.
 */
public final class ElfSectionLocator {
    /** A section's place in the file. */
    public record Range(long offset, long size) {
    }

    private ElfSectionLocator() {
    }

    /**
     * The ranges of the sections of {@code ch} (a file of {@code size} bytes) named in
     * {@code wanted}, by name (the first of a repeated name); null when not a readable ELF file.
     * Names are compared as bytes where they lie, not made into strings: a link of 4,023 modules
     * plans each from its headers, and a map of every section's name had been 39 MB of garbage
     * and half of the planning's 180 ms of CPU.
     */
    public static Map<String, Range> sections(FileChannel ch, long size, Set<String> wanted) throws IOException {
        // the ELF header, ident included (64 bytes for ELF64, 52 for ELF32: the file may be shorter)
        ByteBuffer eh = read(ch, 0, Math.min(size, 64), size, ByteOrder.LITTLE_ENDIAN);
        if (eh == null || eh.limit() < 16 || eh.getInt(0) != 0x464c457f) {
            return null;
        }
        ElfClass cls = eh.get(4) == ElfConstants.ELFCLASS64 ? ElfClass.ELF64
                : eh.get(4) == ElfConstants.ELFCLASS32 ? ElfClass.ELF32 : null;
        ByteOrder order = eh.get(5) == ElfConstants.ELFDATA2LSB ? ByteOrder.LITTLE_ENDIAN
                : eh.get(5) == ElfConstants.ELFDATA2MSB ? ByteOrder.BIG_ENDIAN : null;
        if (cls == null || order == null || eh.limit() < cls.ehdrSize) {
            return null;
        }
        eh.order(order);
        long shoff = cls.word(eh, cls.eShoff);
        int entsize = eh.getShort(cls.eShentsize) & 0xffff;
        long count = eh.getShort(cls.eShnum) & 0xffff;
        long strndx = eh.getShort(cls.eShstrndx) & 0xffff;
        if (shoff == 0 || entsize < cls.shdrSize) {
            return null;
        }
        if (count == 0 || strndx == ElfConstants.SHN_XINDEX) {
            ByteBuffer sh0 = read(ch, shoff, cls.shdrSize, size, order);
            if (sh0 == null) {
                return null;
            }
            count = count == 0 ? cls.word(sh0, cls.shSize) : count;
            strndx = strndx == ElfConstants.SHN_XINDEX ? sh0.getInt(cls.shLink) & 0xffffffffL : strndx;
        }
        if (count <= 0 || strndx >= count || count > (size - shoff) / entsize) {
            return null;
        }
        ByteBuffer table = read(ch, shoff, count * entsize, size, order);
        if (table == null) {
            return null;
        }
        int at = (int) (strndx * entsize);
        ByteBuffer names = read(ch, cls.word(table, at + cls.shOffset), cls.word(table, at + cls.shSize), size, order);
        if (names == null) {
            return null;
        }
        byte[][] want = new byte[wanted.size()][];
        String[] wantName = wanted.toArray(new String[0]);
        for (int k = 0; k < want.length; k++) {
            want[k] = wantName[k].getBytes(StandardCharsets.UTF_8);
        }
        byte[] nb = names.array();
        int limit = names.limit();
        Map<String, Range> out = new HashMap<>();
        for (int i = 1; i < count; i++) {
            int e = i * entsize;
            int nameOff = table.getInt(e);
            if (nameOff < 0 || nameOff >= limit) {
                return null;
            }
            for (int k = 0; k < want.length; k++) {
                if (isNameAt(nb, nameOff, limit, want[k])) {
                    out.putIfAbsent(wantName[k], new Range(cls.word(table, e + cls.shOffset), cls.word(table, e + cls.shSize)));
                }
            }
        }
        return out;
    }

    /** Whether the NUL-terminated name at {@code b[at]} (within {@code limit}) is {@code name}. */
    private static boolean isNameAt(byte[] b, int at, int limit, byte[] name) {
        int end = at + name.length;
        if (end >= limit || b[end] != 0) {
            return false;
        }
        return java.util.Arrays.equals(b, at, end, name, 0, name.length);
    }

    /** {@code len} bytes at {@code at}, or null when they are not all in the file (or too many to be headers). */
    private static ByteBuffer read(FileChannel ch, long at, long len, long size, ByteOrder order) throws IOException {
        if (at < 0 || len < 0 || len > (1 << 24) || at > size - len) {
            return null;
        }
        ByteBuffer b = ByteBuffer.allocate((int) len).order(order);
        while (b.hasRemaining()) {
            if (ch.read(b, at + b.position()) < 0) {
                return null;
            }
        }
        return b.flip();
    }
}
