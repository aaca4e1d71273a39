package io.btfkit.core.elf;

/**
 * The ELF constants btfkit needs (System V gABI names), so callers can read {@link ElfFile}'s
 * numbers without a native header.
 */
public final class ElfConstants {
    private ElfConstants() {
    }

    public static final int ELFCLASS32 = 1;
    public static final int ELFCLASS64 = 2;
    public static final int ELFDATA2LSB = 1;
    public static final int ELFDATA2MSB = 2;

    public static final int ET_REL = 1;
    public static final int ET_EXEC = 2;
    public static final int ET_DYN = 3;
    public static final int ET_CORE = 4;

    public static final int EM_386 = 3;
    public static final int EM_MIPS = 8;
    public static final int EM_X86_64 = 62;
    public static final int EM_AARCH64 = 183;
    public static final int EM_BPF = 247;

    public static final int SHT_NULL = 0;
    public static final int SHT_PROGBITS = 1;
    public static final int SHT_SYMTAB = 2;
    public static final int SHT_STRTAB = 3;
    public static final int SHT_RELA = 4;
    public static final int SHT_NOBITS = 8;
    public static final int SHT_REL = 9;
    public static final int SHT_DYNSYM = 11;
    public static final int SHT_GROUP = 17;
    public static final int SHT_SYMTAB_SHNDX = 18;

    public static final long SHF_WRITE = 0x1;
    public static final long SHF_ALLOC = 0x2;
    public static final long SHF_EXECINSTR = 0x4;
    public static final long SHF_INFO_LINK = 0x40;
    public static final long SHF_COMPRESSED = 0x800;

    public static final int PT_NULL = 0;
    public static final int PT_LOAD = 1;

    /** Section index 0: no section. */
    public static final int SHN_UNDEF = 0;
    /** First reserved section index; counts and indexes at or above it use the escapes below. */
    public static final int SHN_LORESERVE = 0xff00;
    /** {@code e_shstrndx} escape: the real index is in section header 0's {@code sh_link}. */
    public static final int SHN_XINDEX = 0xffff;
    /** {@code e_phnum} escape: the real count is in section header 0's {@code sh_info}. */
    public static final int PN_XNUM = 0xffff;

    /** Name of an {@code e_type} value for messages. */
    public static String typeName(int type) {
        switch (type) {
            case ET_REL:
                return "ET_REL";
            case ET_EXEC:
                return "ET_EXEC";
            case ET_DYN:
                return "ET_DYN";
            case ET_CORE:
                return "ET_CORE";
            default:
                return "type " + type;
        }
    }
}
