package io.btfkit.gcc;

import io.btfkit.core.BtfFormatException;
import io.btfkit.core.elf.ElfConstants;
import io.btfkit.core.elf.ElfFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The symbol table ({@code .symtab}) of an ELF object, read for what BTF leaves to the loader:
 * where each variable lives (section and offset, so a DATASEC's size and offsets can be
 * written) and whether a function is defined here with global binding or only referenced.
 *
 * <p>Correct because it reads only what the ELF gABI fixes: {@code Elf32_Sym}/{@code Elf64_Sym}
 * in the file's byte order, names from the string table {@code sh_link} names, section indexes
 * through {@code .symtab_shndx} when a symbol says {@code SHN_XINDEX}. Offsets are relative to
 * the section: {@code st_value} in a relocatable object, {@code st_value - sh_addr} otherwise.
 * Every count and offset is checked against the section before it is used.
 */
public final class ObjectSymbols {
    static final int STB_LOCAL = 0;
    static final int STB_GLOBAL = 1;
    static final int STB_WEAK = 2;
    static final int STT_NOTYPE = 0;
    static final int STT_OBJECT = 1;
    static final int STT_FUNC = 2;
    static final int STT_TLS = 6;
    static final int STV_INTERNAL = 1;
    static final int STV_HIDDEN = 2;

    /**
     * One symbol: binding and type from {@code st_info}, the section index, section-relative
     * offset and size, and the visibility ({@code st_other & 3}).
     */
    public record Symbol(String name, int bind, int type, int section, long offset, long size, int visibility) {
        public boolean isUndefined() {
            return section == ElfConstants.SHN_UNDEF;
        }

        /** Defined in a real section (not undefined, absolute or common). */
        public boolean isInSection() {
            return section != ElfConstants.SHN_UNDEF && section < ElfConstants.SHN_LORESERVE;
        }
    }

    private final ElfFile elf;
    private final Map<String, List<Symbol>> byName;

    private ObjectSymbols(ElfFile elf, Map<String, List<Symbol>> byName) {
        this.elf = elf;
        this.byName = byName;
    }

    /** The symbols of {@code elf}, or null when it has no {@code .symtab}. */
    public static ObjectSymbols of(ElfFile elf) {
        List<ElfFile.Section> tabs = new ArrayList<>();
        for (ElfFile.Section s : elf.sections()) {
            if (s.type() == ElfConstants.SHT_SYMTAB) {
                tabs.add(s);
            }
        }
        if (tabs.size() != 1) {
            return null;
        }
        ElfFile.Section symtab = tabs.get(0);
        List<ElfFile.Section> sections = elf.sections();
        if (symtab.link() <= 0 || symtab.link() >= sections.size()) {
            throw new BtfFormatException(symtab.describe() + ": sh_link " + symtab.link() + " names no string table");
        }
        byte[] names = elf.sectionData(sections.get(symtab.link()));
        int[] xindex = extendedIndexes(elf, symtab);
        int entsize = elf.is64() ? 24 : 16;
        byte[] data = elf.sectionData(symtab);
        if (symtab.entsize() != entsize || data.length % entsize != 0) {
            throw new BtfFormatException(symtab.describe() + ": entry size " + symtab.entsize() + " or size " + data.length
                    + " does not fit " + entsize + "-byte symbols");
        }
        ByteBuffer b = ByteBuffer.wrap(data).order(elf.order());
        Map<String, List<Symbol>> byName = new HashMap<>();
        int count = data.length / entsize;
        for (int i = 1; i < count; i++) {
            int at = i * entsize;
            long nameOff = b.getInt(at) & 0xffffffffL;
            int info = data[at + (elf.is64() ? 4 : 12)] & 0xff;
            int visibility = data[at + (elf.is64() ? 5 : 13)] & 3;
            int shndx = b.getShort(at + (elf.is64() ? 6 : 14)) & 0xffff;
            long value = elf.is64() ? b.getLong(at + 8) : b.getInt(at + 4) & 0xffffffffL;
            long size = elf.is64() ? b.getLong(at + 16) : b.getInt(at + 8) & 0xffffffffL;
            if (shndx == ElfConstants.SHN_XINDEX) {
                if (xindex == null || i >= xindex.length) {
                    throw new BtfFormatException(symtab.describe() + ": symbol " + i + " uses SHN_XINDEX without .symtab_shndx");
                }
                shndx = xindex[i];
            }
            String name = name(names, nameOff, symtab, i);
            if (name.isEmpty()) {
                continue;
            }
            long offset = value;
            if (elf.type() != ElfConstants.ET_REL && shndx != ElfConstants.SHN_UNDEF && shndx < ElfConstants.SHN_LORESERVE
                    && shndx < sections.size()) {
                offset = value - sections.get(shndx).addr();
            }
            if (shndx != ElfConstants.SHN_UNDEF && shndx < ElfConstants.SHN_LORESERVE && shndx >= sections.size()) {
                throw new BtfFormatException(symtab.describe() + ": symbol " + i + " '" + io.btfkit.core.Printable.name(name) + "' is in section " + shndx
                        + ", but there are " + sections.size());
            }
            byName.computeIfAbsent(name, k -> new ArrayList<>(1)).add(new Symbol(name, info >>> 4, info & 0xf, shndx, offset, size,
                    visibility));
        }
        return new ObjectSymbols(elf, byName);
    }

    private static int[] extendedIndexes(ElfFile elf, ElfFile.Section symtab) {
        for (ElfFile.Section s : elf.sections()) {
            if (s.type() == ElfConstants.SHT_SYMTAB_SHNDX && s.link() == symtab.index()) {
                byte[] d = elf.sectionData(s);
                ByteBuffer b = ByteBuffer.wrap(d).order(elf.order());
                int[] out = new int[d.length / 4];
                for (int i = 0; i < out.length; i++) {
                    out[i] = b.getInt(4 * i);
                }
                return out;
            }
        }
        return null;
    }

    private static String name(byte[] names, long off, ElfFile.Section symtab, int i) {
        if (off >= names.length) {
            throw new BtfFormatException(symtab.describe() + ": symbol " + i + " name offset " + off
                    + " is past the string table (" + names.length + " bytes)");
        }
        int end = (int) off;
        while (end < names.length && names[end] != 0) {
            end++;
        }
        return new String(names, (int) off, end - (int) off, StandardCharsets.UTF_8);
    }

    /** Symbols named {@code name} (empty list when none). */
    public List<Symbol> named(String name) {
        return byName.getOrDefault(name, List.of());
    }

    /** Whether some symbol {@code name} is defined anywhere (a section, absolute or common). */
    public boolean isDefined(String name) {
        // (indexed loops here and below: an iterator per call, most often of the empty list, was
        // 17 MB of garbage over a link of 350 objects — C1 does not elide it)
        List<Symbol> l = named(name);
        for (int i = 0; i < l.size(); i++) {
            Symbol s = l.get(i);
            if (!s.isUndefined()) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code name} is a function defined here with global or weak binding. */
    public boolean isGlobalFunction(String name) {
        List<Symbol> l = named(name);
        for (int i = 0; i < l.size(); i++) {
            Symbol s = l.get(i);
            if (s.type == STT_FUNC && s.isInSection() && (s.bind == STB_GLOBAL || s.bind == STB_WEAK)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The externs libbpf collects ({@code sym_is_extern}): undefined symbols with global or weak
     * binding and no type, in name order.
     */
    public List<Symbol> externs() {
        List<Symbol> out = new ArrayList<>();
        for (List<Symbol> l : byName.values()) {
            for (Symbol s : l) {
                if (s.isUndefined() && (s.bind == STB_GLOBAL || s.bind == STB_WEAK) && s.type == STT_NOTYPE) {
                    out.add(s);
                }
            }
        }
        out.sort(java.util.Comparator.comparing(Symbol::name));
        return out;
    }

    /** Whether {@code name} is referenced here but defined nowhere in the object. */
    public boolean isOnlyUndefined(String name) {
        List<Symbol> l = named(name);
        return !l.isEmpty() && !isDefined(name);
    }

    /** The section with index {@code index}. */
    public ElfFile.Section section(int index) {
        return elf.sections().get(index);
    }

    /** The sections named {@code name}. */
    public List<ElfFile.Section> sectionsNamed(String name) {
        return elf.sectionsNamed(name);
    }
}
