package io.btfkit.core.elf;

import io.btfkit.core.BtfFormatException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An ELF file (32 or 64-bit, either byte order; relocatable objects, kernel modules,
 * executables and shared objects such as vmlinux) seen as its section table, with the bytes of
 * each section on demand, and able to produce a copy with some sections replaced or added
 * ({@link #withSections}).
 *
 * <p>{@link #parse} validates everything it later relies on (see {@link ElfParser}): every count,
 * offset and size is checked against the file before it is used, so a parsed file can be read
 * without further bounds checks. The byte array is kept, not copied: callers must not modify it.
 */
public final class ElfFile {
    private final byte[] data;
    /** The file's length: the first bytes of {@link #data}. */
    private final int length;
    private final ElfClass cls;
    private final ByteOrder order;
    private final int type;
    private final int machine;
    private final long shoff;
    private final int shstrndx;
    private final List<Section> sections;
    private final List<Segment> segments;
    /** Section index -> bytes, when only some sections' bytes are kept ({@link #keepingOnly}); else null. */
    private final Map<Integer, byte[]> kept;

    ElfFile(byte[] data, int length, ElfClass cls, ByteOrder order, int type, int machine, long shoff, int shstrndx,
            List<Section> sections, List<Segment> segments) {
        this(data, length, cls, order, type, machine, shoff, shstrndx, sections, segments, null);
    }

    private ElfFile(byte[] data, int length, ElfClass cls, ByteOrder order, int type, int machine, long shoff,
                    int shstrndx, List<Section> sections, List<Segment> segments, Map<Integer, byte[]> kept) {
        // (a file parsed from the front of a longer buffer keeps its own bytes only where it writes a copy)
        this.kept = kept;
        this.data = data;
        this.length = length;
        this.cls = cls;
        this.order = order;
        this.type = type;
        this.machine = machine;
        this.shoff = shoff;
        this.shstrndx = shstrndx;
        this.sections = List.copyOf(sections);
        this.segments = List.copyOf(segments);
    }

    /** One section header, its name resolved; numbers are as stored (unsigned values in longs). */
    public record Section(int index, String name, int type, long flags, long offset, long size, long addr,
                          long addralign, int link, int info, long entsize) {
        /** Whether the section occupies memory at run time ({@code SHF_ALLOC}). */
        public boolean isAlloc() {
            return (flags & ElfConstants.SHF_ALLOC) != 0;
        }

        /** Whether the section has no bytes in the file ({@code SHT_NOBITS}, e.g. {@code .bss}). */
        public boolean isNobits() {
            return type == ElfConstants.SHT_NOBITS;
        }

        /** Whether it is a {@code SHT_REL} or {@code SHT_RELA} section (its {@code info} is the target). */
        public boolean isRelocation() {
            return type == ElfConstants.SHT_REL || type == ElfConstants.SHT_RELA;
        }

        /** "section header 7 (.BTF)", for messages. */
        public String describe() {
            return "section header " + index + (name.isEmpty() ? "" : " (" + io.btfkit.core.Printable.name(name) + ")");
        }
    }

    /** One program header: a segment and the file range it maps. */
    public record Segment(int index, int type, int flags, long offset, long vaddr, long paddr, long filesz,
                          long memsz, long align) {
        /** Whether file bytes {@code [off, off+len)} overlap the bytes this segment maps from the file. */
        public boolean coversFileRange(long off, long len) {
            return filesz > 0 && len > 0 && off < offset + filesz && offset < off + len;
        }
    }

    /**
     * Parses and validates an ELF file.
     *
     * @throws BtfFormatException saying which field or header is wrong and where
     */
    public static ElfFile parse(byte[] data) {
        return ElfParser.parse(Objects.requireNonNull(data));
    }

    /**
     * Parses and validates the ELF file in the first {@code len} bytes of {@code data}, a buffer
     * the caller may reuse for the next file once it is done with this one (the view reads its
     * sections from it).
     */
    public static ElfFile parse(byte[] data, int len) {
        if (len < 0 || len > data.length) {
            throw new IllegalArgumentException("length " + len + " of a " + data.length + "-byte buffer");
        }
        return ElfParser.parse(data, len);
    }

    /** Whether {@code data} starts with the ELF magic {@code 7f 45 4c 46}. */
    public static boolean isElf(byte[] data) {
        return data.length >= 4 && data[0] == 0x7f && data[1] == 'E' && data[2] == 'L' && data[3] == 'F';
    }

    public ByteOrder order() {
        return order;
    }

    public boolean is64() {
        return cls.is64;
    }

    /** {@code e_type}: {@link ElfConstants#ET_REL}, {@code ET_EXEC} or {@code ET_DYN}. */
    public int type() {
        return type;
    }

    /** {@code e_machine}, e.g. {@link ElfConstants#EM_X86_64} or {@link ElfConstants#EM_BPF}. */
    public int machine() {
        return machine;
    }

    /** All section headers in index order, including the null section 0 (empty when there is no table). */
    public List<Section> sections() {
        return sections;
    }

    /** Program headers in index order (empty for most relocatable objects). */
    public List<Segment> segments() {
        return segments;
    }

    /** The first section named {@code name}. */
    public Optional<Section> section(String name) {
        for (Section s : sections) {
            if (s.index() != 0 && s.name().equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** Every section named {@code name} (several only in unusual files). */
    public List<Section> sectionsNamed(String name) {
        List<Section> out = new ArrayList<>(1);
        for (Section s : sections) {
            if (s.index() != 0 && s.name().equals(name)) {
                out.add(s);
            }
        }
        return out;
    }

    /**
     * A copy of the section's bytes; empty for {@code SHT_NOBITS} (and {@code SHT_NULL}) sections,
     * which have none in the file.
     */
    public byte[] sectionData(Section s) {
        if (s.index() < 0 || s.index() >= sections.size() || !sections.get(s.index()).equals(s)) {
            throw new IllegalArgumentException(s.describe() + " is not a section of this file");
        }
        if (s.isNobits() || s.type() == ElfConstants.SHT_NULL || s.size() == 0) {
            return new byte[0];
        }
        if (kept != null) {
            byte[] b = kept.get(s.index());
            if (b == null) {
                throw new IllegalStateException(s.describe() + ": its bytes were not kept");
            }
            return b.clone();
        }
        return Arrays.copyOfRange(data, (int) s.offset(), (int) (s.offset() + s.size()));
    }

    /**
     * This file with the bytes of only the sections {@code keep} accepts (copied), and its
     * section table: for a caller that holds many files between two passes and needs a few
     * sections of each in the second (a link of gcc objects: their symbol tables, 2 MB of 60).
     * Other sections' bytes, and {@link #withSections}, are refused.
     */
    public ElfFile keepingOnly(java.util.function.Predicate<Section> keep) {
        Map<Integer, byte[]> k = new java.util.HashMap<>();
        for (Section s : sections) {
            if (keep.test(s)) {
                k.put(s.index(), sectionData(s));
            }
        }
        return new ElfFile(new byte[0], 0, cls, order, type, machine, shoff, shstrndx, sections, segments, Map.copyOf(k));
    }

    /**
     * {@link #keepingOnly} the symbol tables, their extended section indexes and the sections
     * their {@code sh_link} names (their string tables, or whatever a damaged file names, so
     * that reading the symbols reports that file's fault rather than bytes not kept).
     */
    public ElfFile keepingSymbolTables() {
        java.util.Set<Integer> linked = new java.util.HashSet<>();
        for (Section s : sections) {
            if (s.type() == ElfConstants.SHT_SYMTAB || s.type() == ElfConstants.SHT_SYMTAB_SHNDX) {
                linked.add(s.link());
            }
        }
        return keepingOnly(s -> s.type() == ElfConstants.SHT_SYMTAB || s.type() == ElfConstants.SHT_SYMTAB_SHNDX
                || linked.contains(s.index()));
    }

    /** The bytes of the first section named {@code name}, when there is one. */
    public Optional<byte[]> sectionData(String name) {
        return section(name).map(this::sectionData);
    }

    /** Reads a section's bytes where they lie: {@code (bytes, offset, length)}; the reader must not keep the array. */
    @FunctionalInterface
    public interface InPlaceReader<T> {
        T read(byte[] bytes, int offset, int length);
    }

    /**
     * {@code reader}'s result on the section named {@code name}, given its bytes in place in the
     * file's (a copy only when this file kept just some sections), if there is such a section:
     * a parser that copies what it keeps anyway (the BTF reader) spares the section's copy,
     * 33 MB over a link of 350 objects.
     */
    public <T> Optional<T> readSection(String name, InPlaceReader<T> reader) {
        Optional<Section> s = section(name);
        if (s.isEmpty()) {
            return Optional.empty();
        }
        Section sec = s.get();
        if (kept != null || sec.isNobits() || sec.type() == ElfConstants.SHT_NULL || sec.size() == 0) {
            byte[] b = sectionData(sec);
            return Optional.of(reader.read(b, 0, b.length));
        }
        return Optional.of(reader.read(data, (int) sec.offset(), (int) sec.size()));
    }

    /** The section name table (index {@code e_shstrndx}, resolved through {@code SHN_XINDEX}), if any. */
    public Optional<Section> sectionNameTable() {
        return shstrndx == 0 ? Optional.empty() : Optional.of(sections.get(shstrndx));
    }

    /**
     * The relocation sections {@link #withSections} would empty for these contents: non-alloc
     * {@code SHT_REL}/{@code SHT_RELA} sections whose target section gets different bytes and whose
     * own new contents are not given. The command line can report them.
     */
    public List<Section> staleRelocations(Map<String, byte[]> contents) {
        return ElfSectionWriter.staleRelocations(this, contents);
    }

    /**
     * A copy of this file in which each named section holds the given bytes: replaced when the
     * section exists, otherwise added as a new non-alloc {@code SHT_PROGBITS} section aligned to
     * 4 (e.g. {@code .BTF}, {@code .BTF.ext}, {@code .BTF.base}), in map order after the existing
     * ones. Everything else keeps its meaning and every section keeps its index, so symbols,
     * {@code sh_link}/{@code sh_info} and relocations stay valid.
     *
     * <p>A file without program headers (objects, kernel modules) is laid out afresh: sections in
     * their original file order with their alignment, the section header table last. A file with
     * program headers (vmlinux, executables) keeps every byte in place; replaced sections that
     * grow and added ones go to the end of the file, and an allocated section (or one inside a
     * segment) may only be replaced by bytes of the same size. A non-alloc relocation section
     * whose target gets different bytes is emptied (its entries would patch the old bytes) unless
     * its new contents are given too; {@link #staleRelocations} lists them.
     *
     * @throws io.btfkit.core.OperationException when the change is impossible without relinking
     *         (an allocated section would change size, a name is ambiguous, there is no section
     *         name table to name a new section)
     */
    public byte[] withSections(LinkedHashMap<String, byte[]> contents) {
        return ElfSectionWriter.write(this, contents);
    }

    byte[] data() {
        if (kept != null) {
            throw new IllegalStateException("only some sections' bytes were kept");
        }
        return length == data.length ? data : Arrays.copyOf(data, length);
    }

    ElfClass elfClass() {
        return cls;
    }

    long shoff() {
        return shoff;
    }

    int shstrndx() {
        return shstrndx;
    }

    @Override
    public String toString() {
        return cls.label() + " " + (order == ByteOrder.LITTLE_ENDIAN ? "LSB" : "MSB") + " "
                + ElfConstants.typeName(type) + " machine " + machine + ", " + sections.size() + " sections, "
                + segments.size() + " segments";
    }
}
