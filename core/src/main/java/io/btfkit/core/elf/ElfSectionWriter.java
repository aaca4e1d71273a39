package io.btfkit.core.elf;

import static io.btfkit.core.elf.ElfParser.hex;

import io.btfkit.core.OperationException;
import io.btfkit.core.elf.ElfFile.Section;
import io.btfkit.core.elf.ElfFile.Segment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a copy of an ELF file with some sections' bytes replaced and some sections added,
 * keeping the meaning of everything else.
 *
 * <p><b>Indexes never change.</b> Existing sections keep their index and their header bytes
 * (only offset, size, and for replaced sections type and the compression flag are updated);
 * added sections get the next indexes. So symbols' {@code st_shndx}, {@code sh_link}/
 * {@code sh_info}, groups and {@code .symtab_shndx} stay valid without being touched.
 *
 * <p><b>Two layouts.</b> A file without program headers (relocatable objects and kernel
 * modules) is laid out afresh: ELF header, then every section's bytes in their original file
 * order with their alignment, added sections last, then the section header table ({@code e_shoff}
 * updated, {@code .shstrtab} extended by the added names). A file with program headers
 * (executables, shared objects, vmlinux) is copied byte for byte and nothing a segment maps is
 * moved: a replaced section that is {@code SHF_ALLOC} or lies in a segment's file range must keep
 * its size and is overwritten in place (anything else is refused with an
 * {@link OperationException}); other replaced sections are overwritten in place when the new bytes
 * fit and moved to the end of the file otherwise; added sections, a grown {@code .shstrtab} and,
 * when sections are added, the section header table go to the end of the file.
 *
 * <p><b>Relocations against replaced sections.</b> A non-alloc {@code SHT_REL}/{@code SHT_RELA}
 * section whose target ({@code sh_info}) gets different bytes is emptied ({@code sh_size} 0, header
 * and index kept), unless the caller gives its new contents too. Its entries patch offsets in the
 * old bytes, so applied to new bytes they would corrupt them. clang emits such sections for BPF
 * objects: {@code .rel.BTF} (the DATASEC variable offsets) and {@code .rel.BTF.ext} (instruction
 * offsets of func_info/line_info/CO-RE records). Nothing that reads BPF objects needs them: libbpf's
 * loader skips relocations of non-code sections, and libbpf's static linker (bpftool gen object)
 * drops the relocations of {@code .BTF}/{@code .BTF.ext} and recomputes the variable offsets from the
 * symbol table. pahole-produced {@code .BTF} (vmlinux, modules) has no relocation section. Emptying
 * keeps the section index (so no renumbering) and leaves a valid, empty table. Allocated
 * (dynamic) relocation sections are never emptied: their target can only be replaced in place at
 * the same size.
 */
final class ElfSectionWriter {
    private static final int ADDED_ALIGN = 4;
    private static final long MAX_OUTPUT = Integer.MAX_VALUE - 8;
    /** Largest section alignment honoured when re-laying out (pages of 64 KiB at most in objects). */
    private static final long MAX_ALIGN = 1L << 20;

    private final ElfFile elf;
    private final ElfClass cls;
    private final ByteOrder order;
    private final byte[] src;
    private final List<Section> secs;
    private final int count;
    /** Header bytes of each output section, patched in place. */
    private final List<byte[]> headers = new ArrayList<>();
    /** New contents per output index (null: keep the original bytes). */
    private final List<byte[]> contents = new ArrayList<>();
    /** Relocation sections emptied because their target changed. */
    private boolean[] emptied;
    /** Output file offset of each output section's bytes, once laid out. */
    private long[] placed;

    private ElfSectionWriter(ElfFile elf) {
        this.elf = elf;
        this.cls = elf.elfClass();
        this.order = elf.order();
        this.src = elf.data();
        this.secs = elf.sections();
        this.count = secs.size();
    }

    static byte[] write(ElfFile elf, LinkedHashMap<String, byte[]> replacements) {
        return new ElfSectionWriter(elf).run(replacements);
    }

    static List<Section> staleRelocations(ElfFile elf, Map<String, byte[]> replacements) {
        List<Section> out = new ArrayList<>();
        for (Section r : elf.sections()) {
            if (!r.isRelocation() || r.isAlloc() || replacements.containsKey(r.name())
                    || Integer.toUnsignedLong(r.info()) >= elf.sections().size() || r.info() == 0) {
                continue;
            }
            Section target = elf.sections().get(r.info());
            boolean named = !target.name().isEmpty() && elf.section(target.name()).orElseThrow().index() == target.index();
            byte[] repl = named ? replacements.get(target.name()) : null;
            if (repl != null && !Arrays.equals(repl, elf.sectionData(target))) {
                out.add(r);
            }
        }
        return out;
    }

    private byte[] run(LinkedHashMap<String, byte[]> replacements) {
        for (int i = 0; i < count; i++) {
            long at = elf.shoff() + (long) i * cls.shdrSize;
            headers.add(Arrays.copyOfRange(src, (int) at, (int) at + cls.shdrSize));
            contents.add(null);
        }
        emptied = new boolean[count];
        List<String> added = new ArrayList<>();
        for (Map.Entry<String, byte[]> e : replacements.entrySet()) {
            String name = e.getKey();
            byte[] bytes = e.getValue();
            if (name == null || bytes == null) {
                throw new IllegalArgumentException("null section name or contents");
            }
            if (name.isEmpty() || name.indexOf('\0') >= 0) {
                throw new OperationException("cannot replace or add a section named \"" + name.replace("\0", "\\0")
                        + "\": a section name must be non-empty and free of NUL bytes");
            }
            List<Section> named = elf.sectionsNamed(name);
            if (named.size() > 1) {
                throw new OperationException(named.size() + " sections are named " + name + " (section headers "
                        + named.get(0).index() + " and " + named.get(1).index() + "): cannot tell which to replace");
            }
            if (named.isEmpty()) {
                added.add(name);
                continue;
            }
            Section s = named.get(0);
            if (s.index() == elf.shstrndx()) {
                throw new OperationException("cannot replace " + s.describe() + ": it is the section name table");
            }
            replace(s, bytes);
        }
        for (Section r : staleRelocations(elf, replacements)) {
            ByteBuffer h = header(r.index());
            cls.putWord(h, cls.shSize, 0);
            emptied[r.index()] = true;
        }
        if (!added.isEmpty()) {
            addSections(added, replacements);
        }
        return elf.segments().isEmpty() ? relayout() : appendInPlace();
    }

    private void replace(Section s, byte[] bytes) {
        ByteBuffer h = header(s.index());
        if (s.isNobits() || s.type() == ElfConstants.SHT_NULL) {
            h.putInt(4, ElfConstants.SHT_PROGBITS);
        }
        long flags = cls.word(h, cls.shFlags);
        cls.putWord(h, cls.shFlags, flags & ~ElfConstants.SHF_COMPRESSED);
        cls.putWord(h, cls.shSize, bytes.length);
        contents.set(s.index(), bytes);
    }

    /** Appends headers for new sections and extends the section name table with their names. */
    private void addSections(List<String> names, Map<String, byte[]> replacements) {
        Section strtab = elf.sectionNameTable().orElseThrow(() -> new OperationException(
                "cannot add section " + names.get(0) + ": the file has no section name table (e_shstrndx is 0)"));
        byte[] old = elf.sectionData(strtab);
        long total = old.length;
        for (String n : names) {
            total += n.getBytes(StandardCharsets.UTF_8).length + 1;
        }
        checkSize(total);
        byte[] newNameTable = Arrays.copyOf(old, (int) total);
        int pos = old.length;
        for (String n : names) {
            byte[] nb = n.getBytes(StandardCharsets.UTF_8);
            System.arraycopy(nb, 0, newNameTable, pos, nb.length);
            byte[] h = new byte[cls.shdrSize];
            ByteBuffer hb = ByteBuffer.wrap(h).order(order);
            hb.putInt(0, pos);
            hb.putInt(4, ElfConstants.SHT_PROGBITS);
            cls.putWord(hb, cls.shSize, replacements.get(n).length);
            cls.putWord(hb, cls.shAddralign, ADDED_ALIGN);
            headers.add(h);
            contents.add(replacements.get(n));
            pos += nb.length + 1;
        }
        contents.set(strtab.index(), newNameTable);
        cls.putWord(header(strtab.index()), cls.shSize, newNameTable.length);
    }

    /** Layout for files without program headers: every section's bytes rewritten in original order. */
    private byte[] relayout() {
        int outCount = headers.size();
        placed = new long[outCount];
        List<Integer> orderOfData = new ArrayList<>(outCount);
        for (int i = 1; i < count; i++) {
            orderOfData.add(i);
        }
        orderOfData.sort(Comparator.<Integer>comparingLong(i -> secs.get(i).offset() ^ Long.MIN_VALUE).thenComparingInt(i -> i));
        for (int i = count; i < outCount; i++) {
            orderOfData.add(i);
        }
        long pos = Math.max(cls.ehdrSize, ehsize());
        for (int i : orderOfData) {
            ByteBuffer h = header(i);
            int type = h.getInt(4);
            if (type == ElfConstants.SHT_NULL) {
                placed[i] = -1;
                continue;
            }
            pos = alignUp(pos, cls.word(h, cls.shAddralign), i);
            placed[i] = pos;
            cls.putWord(h, cls.shOffset, pos);
            if (type != ElfConstants.SHT_NOBITS) {
                pos += dataLength(i);
            }
        }
        long tableOff = alignUp(pos, cls.wordSize, -1);
        long total = tableOff + (long) outCount * cls.shdrSize;
        checkSize(total);
        checkGrowth(total);
        byte[] out = new byte[(int) total];
        System.arraycopy(src, 0, out, 0, (int) Math.min(src.length, Math.max(cls.ehdrSize, ehsize())));
        for (int i = 1; i < outCount; i++) {
            if (placed[i] >= 0 && header(i).getInt(4) != ElfConstants.SHT_NOBITS) {
                copyData(i, out, placed[i]);
            }
        }
        finish(out, tableOff);
        return out;
    }

    /** Layout for files with program headers: the original bytes stay where they are. */
    private byte[] appendInPlace() {
        int outCount = headers.size();
        placed = new long[outCount];
        Arrays.fill(placed, -1);
        boolean[] zeroTail = new boolean[outCount];
        long end = src.length;
        for (int i = 1; i < outCount; i++) {
            byte[] c = contents.get(i);
            if (c == null) {
                continue;
            }
            if (i >= count) {
                end = alignUp(end, ADDED_ALIGN, i);
                placed[i] = end;
                end += c.length;
                continue;
            }
            Section s = secs.get(i);
            String fixedBy = fixedBy(s);
            if (fixedBy != null) {
                if (s.isNobits() || c.length != s.size()) {
                    throw new OperationException("cannot change " + s.describe() + " from " + hex(s.isNobits() ? 0 : s.size())
                            + " to " + hex(c.length) + " bytes in a file with program headers: " + fixedBy
                            + ", so it cannot move or grow without relinking");
                }
                placed[i] = s.offset();
            } else if (!s.isNobits() && s.type() != ElfConstants.SHT_NULL && c.length <= s.size()) {
                placed[i] = s.offset();
                zeroTail[i] = true;
            } else {
                end = alignUp(end, s.addralign(), i);
                placed[i] = end;
                end += c.length;
            }
            cls.putWord(header(i), cls.shOffset, placed[i]);
        }
        for (int i = count; i < outCount; i++) {
            cls.putWord(header(i), cls.shOffset, placed[i]);
        }
        long tableOff = elf.shoff();
        if (outCount != count) {
            tableOff = alignUp(end, cls.wordSize, -1);
            end = tableOff + (long) outCount * cls.shdrSize;
        }
        checkSize(end);
        byte[] out = Arrays.copyOf(src, (int) end);
        for (int i = 1; i < outCount; i++) {
            if (placed[i] < 0) {
                continue;
            }
            copyData(i, out, placed[i]);
            if (zeroTail[i]) {
                Section s = secs.get(i);
                Arrays.fill(out, (int) (s.offset() + contents.get(i).length), (int) (s.offset() + s.size()), (byte) 0);
            }
        }
        finish(out, tableOff);
        return out;
    }

    /** Why a section's bytes must stay where they are, or null when they may move. */
    private String fixedBy(Section s) {
        if (s.isAlloc()) {
            return "it is SHF_ALLOC (address " + hex(s.addr()) + ")";
        }
        if (s.isNobits()) {
            return null;
        }
        for (Segment g : elf.segments()) {
            if (g.type() != ElfConstants.PT_NULL && g.coversFileRange(s.offset(), s.size())) {
                return "it lies in the file range [" + hex(g.offset()) + ", +" + hex(g.filesz()) + ") of program header " + g.index();
            }
        }
        return null;
    }

    private long dataLength(int i) {
        if (i < count && emptied[i]) {
            return 0;
        }
        byte[] c = contents.get(i);
        return c != null ? c.length : secs.get(i).size();
    }

    private void copyData(int i, byte[] out, long at) {
        if (i < count && emptied[i]) {
            return;
        }
        byte[] c = contents.get(i);
        if (c != null) {
            System.arraycopy(c, 0, out, (int) at, c.length);
        } else {
            Section s = secs.get(i);
            if (s.size() > 0) {
                System.arraycopy(src, (int) s.offset(), out, (int) at, (int) s.size());
            }
        }
    }

    /** Writes the section header table at {@code tableOff} and points the ELF header at it. */
    private void finish(byte[] out, long tableOff) {
        int outCount = headers.size();
        if (outCount >= ElfConstants.SHN_LORESERVE) {
            cls.putWord(header(0), cls.shSize, outCount);
        }
        for (int i = 0; i < outCount; i++) {
            System.arraycopy(headers.get(i), 0, out, (int) (tableOff + (long) i * cls.shdrSize), cls.shdrSize);
        }
        ByteBuffer eh = ByteBuffer.wrap(out).order(order);
        cls.putWord(eh, cls.eShoff, tableOff);
        eh.putShort(cls.eShnum, (short) (outCount >= ElfConstants.SHN_LORESERVE ? 0 : outCount));
    }

    private ByteBuffer header(int i) {
        return ByteBuffer.wrap(headers.get(i)).order(order);
    }

    private int ehsize() {
        return ByteBuffer.wrap(src).order(order).getShort(cls.eEhsize) & 0xffff;
    }

    private static long alignUp(long pos, long align, int index) {
        if (align <= 1) {
            return pos;
        }
        if (Long.bitCount(align) != 1 || align > MAX_ALIGN) {
            throw new OperationException("section header " + index + " asks for alignment " + hex(align)
                    + (Long.bitCount(align) != 1 ? ", not a power of two" : ", more than " + hex(MAX_ALIGN))
                    + "; refusing to lay the file out again with it");
        }
        long r = pos % align;
        return r == 0 ? pos : pos + (align - r);
    }

    /**
     * Section alignments may pad a re-laid-out file, but a small hostile file must not turn into
     * a huge one: the output may not exceed twice the input plus the new contents (and a MiB).
     */
    private void checkGrowth(long total) {
        long added = 0;
        for (byte[] c : contents) {
            if (c != null) {
                added += c.length;
            }
        }
        long bound = 2 * (src.length + added) + MAX_ALIGN;
        if (total > bound) {
            throw new OperationException("section alignments would pad the rewritten file to " + total
                    + " bytes (from " + src.length + "); refusing");
        }
    }

    private static void checkSize(long total) {
        if (total > MAX_OUTPUT) {
            throw new OperationException("the rewritten ELF file would be " + total + " bytes, more than 2 GiB");
        }
    }
}
