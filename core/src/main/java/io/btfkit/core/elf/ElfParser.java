package io.btfkit.core.elf;

import static io.btfkit.core.elf.ElfConstants.PN_XNUM;
import static io.btfkit.core.elf.ElfConstants.SHN_LORESERVE;
import static io.btfkit.core.elf.ElfConstants.SHN_XINDEX;

import io.btfkit.core.BtfFormatException;
import io.btfkit.core.elf.ElfFile.Section;
import io.btfkit.core.elf.ElfFile.Segment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates an ELF file and builds its {@link ElfFile} view.
 *
 * <p>Order of checks, each before the value it checks is used: identification (magic, class,
 * byte order, version), header size, file type, the section header table's entry size and
 * extent (the count, possibly taken from section header 0 under extended numbering, is compared
 * with what the file can hold before anything is allocated, so a huge count in a small file
 * fails instead of allocating), the program header table likewise, {@code e_shstrndx} (with the
 * {@code SHN_XINDEX} escape), the name table, every name, then every section's file range and the
 * section indexes held in {@code sh_link}/{@code sh_info} of relocation, symbol and group sections.
 * All arithmetic is on {@code long}s with unsigned comparisons, so no sum can wrap around.
 */
final class ElfParser {
    private final byte[] d;
    private final long len;
    private ElfClass cls;
    private ByteBuffer b;

    private ElfParser(byte[] d, int len) {
        this.d = d;
        this.len = len;
    }

    static ElfFile parse(byte[] data) {
        return new ElfParser(data, data.length).run();
    }

    /** The ELF file in the first {@code len} bytes of {@code data} (a buffer that may be longer). */
    static ElfFile parse(byte[] data, int len) {
        return new ElfParser(data, len).run();
    }

    private ElfFile run() {
        ByteOrder order = identify();
        b = ByteBuffer.wrap(d).order(order);
        int type = u16(16);
        if (type != ElfConstants.ET_REL && type != ElfConstants.ET_EXEC && type != ElfConstants.ET_DYN) {
            throw fail("unsupported ELF file type " + ElfConstants.typeName(type) + " (e_type at offset 16); want ET_REL, ET_EXEC or ET_DYN");
        }
        int machine = u16(18);
        long version = b.getInt(20) & 0xffffffffL;
        if (version != 1) {
            throw fail("unsupported e_version " + version + " at offset 20 (want 1)");
        }
        int ehsize = u16(cls.eEhsize);
        if (ehsize < cls.ehdrSize) {
            throw fail("e_ehsize " + ehsize + " at offset " + cls.eEhsize + " is smaller than an " + cls.label()
                    + " header (" + cls.ehdrSize + " bytes)");
        }
        long shoff = cls.word(b, cls.eShoff);
        int shCount = sectionCount(shoff);
        List<Segment> segments = segments(shoff, shCount);
        int shstrndx = nameTableIndex(shoff, shCount);
        List<Section> sections = sections(shoff, shCount, shstrndx);
        return new ElfFile(d, (int) len, cls, order, type, machine, shoff, shstrndx, sections, segments);
    }

    private ByteOrder identify() {
        if (len < 4 || !ElfFile.isElf(d)) {
            StringBuilder got = new StringBuilder();
            for (int i = 0; i < Math.min(4, len); i++) {
                got.append(String.format(i == 0 ? "%02x" : " %02x", d[i] & 0xff));
            }
            throw fail("not an ELF file: magic " + (len == 0 ? "missing (empty input)" : got.toString())
                    + ", want 7f 45 4c 46");
        }
        if (len < 16) {
            throw fail("truncated ELF identification: " + len + " bytes, need 16");
        }
        int elfClass = d[4] & 0xff;
        if (elfClass == ElfConstants.ELFCLASS32) {
            cls = ElfClass.ELF32;
        } else if (elfClass == ElfConstants.ELFCLASS64) {
            cls = ElfClass.ELF64;
        } else {
            throw fail("bad ELF class " + elfClass + " at offset 4 (want 1 for ELF32 or 2 for ELF64)");
        }
        int encoding = d[5] & 0xff;
        if (encoding != ElfConstants.ELFDATA2LSB && encoding != ElfConstants.ELFDATA2MSB) {
            throw fail("bad ELF data encoding " + encoding + " at offset 5 (want 1 for little-endian or 2 for big-endian)");
        }
        if (d[6] != 1) {
            throw fail("unsupported ELF version " + (d[6] & 0xff) + " at offset 6 (want 1)");
        }
        if (len < cls.ehdrSize) {
            throw fail("truncated ELF header: " + len + " bytes, an " + cls.label() + " header needs " + cls.ehdrSize);
        }
        return encoding == ElfConstants.ELFDATA2LSB ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
    }

    /** Number of section headers; the table is known to lie within the file afterwards. */
    private int sectionCount(long shoff) {
        int shnum = u16(cls.eShnum);
        if (shoff == 0) {
            if (shnum != 0) {
                throw fail("e_shnum is " + shnum + " but e_shoff is 0 (no section header table)");
            }
            return 0;
        }
        int shentsize = u16(cls.eShentsize);
        if (shentsize != cls.shdrSize) {
            throw fail("e_shentsize " + shentsize + " at offset " + cls.eShentsize + " is wrong: " + cls.label()
                    + " section headers are " + cls.shdrSize + " bytes");
        }
        if (!fits(shoff, cls.shdrSize)) {
            throw fail("section header table at e_shoff " + hex(shoff) + " runs past the end of the file (" + hex(len) + " bytes)");
        }
        long count = shnum;
        if (shnum == 0) {
            count = cls.word(b, shoff + cls.shSize);
            if (count == 0) {
                throw fail("e_shnum is 0 and section header 0 holds no extended section count, but e_shoff is " + hex(shoff));
            }
        }
        if (count < 0 || count > (len - shoff) / cls.shdrSize) {
            throw fail("section header table: " + Long.toUnsignedString(count) + " entries of " + cls.shdrSize
                    + " bytes at " + hex(shoff) + " run past the end of the file (" + hex(len) + " bytes)"
                    + (shnum == 0 ? " (count from section header 0, extended numbering)" : ""));
        }
        return (int) count;
    }

    private List<Segment> segments(long shoff, int shCount) {
        long phoff = cls.word(b, cls.ePhoff);
        long count = u16(cls.ePhnum);
        if (count == PN_XNUM) {
            if (shCount == 0) {
                throw fail("e_phnum is PN_XNUM but there is no section header 0 to hold the program header count");
            }
            count = b.getInt((int) (shoff + cls.shInfo)) & 0xffffffffL;
        }
        if (count == 0) {
            return List.of();
        }
        int phentsize = u16(cls.ePhentsize);
        if (phentsize != cls.phdrSize) {
            throw fail("e_phentsize " + phentsize + " at offset " + cls.ePhentsize + " is wrong: " + cls.label()
                    + " program headers are " + cls.phdrSize + " bytes");
        }
        if (phoff < 0 || phoff > len || count > (len - phoff) / cls.phdrSize) {
            throw fail("program header table [" + hex(phoff) + ", +" + hex(count * cls.phdrSize)
                    + ") runs past the end of the file (" + hex(len) + " bytes)");
        }
        List<Segment> out = new ArrayList<>((int) count);
        for (int i = 0; i < count; i++) {
            long at = phoff + (long) i * cls.phdrSize;
            Segment s = new Segment(i, b.getInt((int) at), b.getInt((int) (at + cls.pFlags)),
                    cls.word(b, at + cls.pOffset), cls.word(b, at + cls.pVaddr), cls.word(b, at + cls.pPaddr),
                    cls.word(b, at + cls.pFilesz), cls.word(b, at + cls.pMemsz), cls.word(b, at + cls.pAlign));
            if (s.type() != ElfConstants.PT_NULL && s.filesz() != 0 && !fits(s.offset(), s.filesz())) {
                throw fail("program header " + i + ": file data [" + hex(s.offset()) + ", +" + hex(s.filesz())
                        + ") runs past the end of the file (" + hex(len) + " bytes)");
            }
            out.add(s);
        }
        return out;
    }

    private int nameTableIndex(long shoff, int shCount) {
        int shstrndx = u16(cls.eShstrndx);
        if (shCount == 0) {
            if (shstrndx != 0) {
                throw fail("e_shstrndx is " + shstrndx + " but the file has no section headers");
            }
            return 0;
        }
        long idx = shstrndx;
        String from = "e_shstrndx " + shstrndx;
        if (shstrndx == SHN_XINDEX) {
            idx = b.getInt((int) (shoff + cls.shLink)) & 0xffffffffL;
            from = "section name table index " + idx + " (section header 0's sh_link, e_shstrndx = SHN_XINDEX)";
        } else if (shstrndx >= SHN_LORESERVE) {
            throw fail("e_shstrndx " + hex(shstrndx) + " is a reserved section index");
        }
        if (idx >= shCount) {
            throw fail(from + " is out of range: the file has " + shCount + " sections");
        }
        return (int) idx;
    }

    private List<Section> sections(long shoff, int count, int shstrndx) {
        long strOff = 0;
        long strSize = 0;
        if (shstrndx != 0) {
            long at = shoff + (long) shstrndx * cls.shdrSize;
            int strType = b.getInt((int) at + 4);
            strOff = cls.word(b, at + cls.shOffset);
            strSize = cls.word(b, at + cls.shSize);
            if (strType != ElfConstants.SHT_STRTAB) {
                throw fail("section header " + shstrndx + ", the section name table (e_shstrndx), has type " + strType
                        + ", not SHT_STRTAB");
            }
            if (!fits(strOff, strSize)) {
                throw fail("section header " + shstrndx + " (section name table): data [" + hex(strOff) + ", +"
                        + hex(strSize) + ") runs past the end of the file (" + hex(len) + " bytes)");
            }
        }
        List<Section> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long at = shoff + (long) i * cls.shdrSize;
            long nameOff = b.getInt((int) at) & 0xffffffffL;
            int type = b.getInt((int) at + 4);
            String name = shstrndx == 0 ? "" : name(i, nameOff, strOff, strSize);
            Section s = new Section(i, name, type, cls.word(b, at + cls.shFlags), cls.word(b, at + cls.shOffset),
                    cls.word(b, at + cls.shSize), cls.word(b, at + cls.shAddr), cls.word(b, at + cls.shAddralign),
                    b.getInt((int) (at + cls.shLink)), b.getInt((int) (at + cls.shInfo)), cls.word(b, at + cls.shEntsize));
            if (i == 0) {
                if (type != ElfConstants.SHT_NULL) {
                    throw fail("section header 0 has type " + type + "; it must be SHT_NULL");
                }
            } else {
                check(s, count);
            }
            out.add(s);
        }
        return out;
    }

    private String name(int i, long nameOff, long strOff, long strSize) {
        if (nameOff >= strSize) {
            throw fail("section header " + i + ": name offset " + hex(nameOff) + " is past the end of the section name table ("
                    + hex(strSize) + " bytes)");
        }
        int start = (int) (strOff + nameOff);
        int end = (int) (strOff + strSize);
        for (int p = start; p < end; p++) {
            if (d[p] == 0) {
                return new String(d, start, p - start, StandardCharsets.UTF_8);
            }
        }
        throw fail("section header " + i + ": name at offset " + hex(nameOff) + " of the section name table is not NUL-terminated");
    }

    private void check(Section s, int count) {
        if (s.type() != ElfConstants.SHT_NOBITS && s.type() != ElfConstants.SHT_NULL && s.size() != 0
                && !fits(s.offset(), s.size())) {
            throw fail(s.describe() + ": data [" + hex(s.offset()) + ", +" + hex(s.size())
                    + ") runs past the end of the file (" + hex(len) + " bytes)");
        }
        switch (s.type()) {
            case ElfConstants.SHT_REL:
            case ElfConstants.SHT_RELA:
                checkIndex(s, "sh_link", s.link(), count);
                checkIndex(s, "sh_info", s.info(), count);
                break;
            case ElfConstants.SHT_SYMTAB:
            case ElfConstants.SHT_DYNSYM:
            case ElfConstants.SHT_GROUP:
            case ElfConstants.SHT_SYMTAB_SHNDX:
                checkIndex(s, "sh_link", s.link(), count);
                break;
            default:
                break;
        }
    }

    private void checkIndex(Section s, String field, int value, int count) {
        if (Integer.toUnsignedLong(value) >= count) {
            throw fail(s.describe() + ": " + field + " " + Integer.toUnsignedString(value)
                    + " is not a section index (the file has " + count + " sections)");
        }
    }

    /** Whether {@code [off, off+size)} lies within the file (both read as unsigned). */
    private boolean fits(long off, long size) {
        return off >= 0 && size >= 0 && off <= len && size <= len - off;
    }

    private int u16(int at) {
        return b.getShort(at) & 0xffff;
    }

    static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    private static BtfFormatException fail(String message) {
        return new BtfFormatException(message);
    }
}
