package io.btfkit.core.io;

import io.btfkit.core.BtfFormatException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A tar archive of one BTF file, as BTFHub ships each kernel's BTF ({@code KERNEL.btf.tar.xz}):
 * the archive's one regular file is the input (or, among several, its one {@code *.btf}). POSIX
 * ustar and GNU headers; pax and GNU long-name records are skipped by their sizes. Every size a
 * header declares is checked against the bytes that are there before it is used, so a walk is
 * linear in the archive and takes nothing beyond it.
 */
final class TarArchive {
    private static final int BLOCK = 512;
    private static final int NAME = 0;
    private static final int SIZE = 124;
    private static final int CHECKSUM = 148;
    private static final int TYPE = 156;
    private static final int MAGIC = 257;
    private static final int PREFIX = 345;

    private TarArchive() {
    }

    /** Whether {@code d} starts with a tar header: "ustar" at its magic and a checksum that adds up. */
    static boolean accepts(byte[] d) {
        return accepts(d, Math.min(d.length, BLOCK));
    }

    static boolean accepts(byte[] d, int n) {
        return n >= BLOCK && d[MAGIC] == 'u' && d[MAGIC + 1] == 's' && d[MAGIC + 2] == 't' && d[MAGIC + 3] == 'a'
                && d[MAGIC + 4] == 'r' && checksumMatches(d, 0);
    }

    /** A regular file of the archive: its name and where its bytes are. */
    private record Member(String name, int offset, int size) {
    }

    /** The file taken from an archive. */
    record Extracted(String name, byte[] bytes) {
    }

    /**
     * The bytes of the archive's one regular file (among several, of its one {@code *.btf}).
     *
     * @param what names the archive in messages ("tar archive", "xz data (a tar archive)")
     */
    static Extracted onlyMember(byte[] d, String what) {
        List<Member> files = new ArrayList<>();
        int p = 0;
        while (p + BLOCK <= d.length && !zeroBlock(d, p)) {
            if (!checksumMatches(d, p)) {
                throw new BtfFormatException(what + ": tar header at offset " + p + " is corrupt (its checksum does not match)");
            }
            long size = size(d, p);
            if (size < 0 || size > d.length - p - BLOCK) {
                throw new BtfFormatException(what + ": tar member at offset " + p + " declares " + size
                        + " bytes, past the archive's end (" + (d.length - p - BLOCK) + " bytes follow its header)");
            }
            byte type = d[p + TYPE];
            if (type == '0' || type == 0 || type == '7') {
                files.add(new Member(name(d, p), p + BLOCK, (int) size));
            }
            // every other record (directory, link, pax 'x'/'g', GNU 'L'/'K') is skipped by its size
            p += BLOCK + (int) ((size + BLOCK - 1) / BLOCK * BLOCK);
        }
        if (p + BLOCK > d.length && p != d.length) {
            throw new BtfFormatException(what + ": truncated (a partial header at offset " + p + ")");
        }
        if (files.isEmpty()) {
            throw new BtfFormatException(what + ": holds no file");
        }
        Member m = files.size() == 1 ? files.get(0) : theBtfFile(files, what);
        return new Extracted(m.name(), Arrays.copyOfRange(d, m.offset(), m.offset() + m.size()));
    }

    private static Member theBtfFile(List<Member> files, String what) {
        List<Member> btf = files.stream().filter(f -> f.name().endsWith(".btf")).toList();
        if (btf.size() == 1) {
            return btf.get(0);
        }
        List<String> names = files.stream().limit(5).map(Member::name).toList();
        throw new BtfFormatException(what + ": holds " + files.size() + " files and " + btf.size()
                + " named *.btf; btfkit reads an archive of one BTF file (" + String.join(", ", names)
                + (files.size() > 5 ? ", ..." : "") + ")");
    }

    /** The size field: octal digits (NUL or space ended), or GNU base-256 when its top bit is set. */
    private static long size(byte[] d, int p) {
        if ((d[p + SIZE] & 0x80) != 0) {
            long v = 0;
            for (int i = 1; i < 12; i++) {
                if (v > (Long.MAX_VALUE >> 8)) {
                    return -1;
                }
                v = v << 8 | (d[p + SIZE + i] & 0xff);
            }
            return v;
        }
        return octal(d, p + SIZE, 12);
    }

    private static long octal(byte[] d, int at, int len) {
        long v = 0;
        int i = 0;
        while (i < len && d[at + i] == ' ') {
            i++;
        }
        for (; i < len && d[at + i] >= '0' && d[at + i] <= '7'; i++) {
            v = v * 8 + (d[at + i] - '0');
        }
        return v;
    }

    /** The header's checksum: the sum of its bytes with the checksum field read as spaces. */
    private static boolean checksumMatches(byte[] d, int p) {
        long sum = 0;
        for (int i = 0; i < BLOCK; i++) {
            sum += i >= CHECKSUM && i < CHECKSUM + 8 ? ' ' : d[p + i] & 0xff;
        }
        return sum == octal(d, p + CHECKSUM, 8);
    }

    private static boolean zeroBlock(byte[] d, int p) {
        for (int i = 0; i < BLOCK; i++) {
            if (d[p + i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** The member's name: ustar's prefix, a slash and the name field. */
    private static String name(byte[] d, int p) {
        String name = cString(d, p + NAME, 100);
        String prefix = cString(d, p + PREFIX, 155);
        return prefix.isEmpty() ? name : prefix + "/" + name;
    }

    private static String cString(byte[] d, int at, int max) {
        int end = at;
        while (end < at + max && d[end] != 0) {
            end++;
        }
        return new String(d, at, end - at, StandardCharsets.UTF_8);
    }
}
