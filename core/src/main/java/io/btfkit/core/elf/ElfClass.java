package io.btfkit.core.elf;

import java.nio.ByteBuffer;

/**
 * Where the fields of the ELF header, section headers and program headers sit for one ELF
 * class, and how to read and write its address-sized words. Keeping every offset here means
 * the parser and the writer cannot disagree about the layout.
 */
enum ElfClass {
    ELF32(false),
    ELF64(true);

    final boolean is64;
    /** Sizes of the ELF header, a section header and a program header. */
    final int ehdrSize;
    final int shdrSize;
    final int phdrSize;
    /** Size of an address/offset word, and the alignment the section header table gets. */
    final int wordSize;

    // ELF header fields
    final int eEntry;
    final int ePhoff;
    final int eShoff;
    final int eFlags;
    final int eEhsize;
    final int ePhentsize;
    final int ePhnum;
    final int eShentsize;
    final int eShnum;
    final int eShstrndx;

    // section header fields (sh_name and sh_type are at 0 and 4 in both classes)
    final int shFlags;
    final int shAddr;
    final int shOffset;
    final int shSize;
    final int shLink;
    final int shInfo;
    final int shAddralign;
    final int shEntsize;

    // program header fields (p_type is at 0 in both classes)
    final int pFlags;
    final int pOffset;
    final int pVaddr;
    final int pPaddr;
    final int pFilesz;
    final int pMemsz;
    final int pAlign;

    ElfClass(boolean is64) {
        this.is64 = is64;
        int w = is64 ? 8 : 4;
        wordSize = w;
        ehdrSize = is64 ? 64 : 52;
        shdrSize = is64 ? 64 : 40;
        phdrSize = is64 ? 56 : 32;
        eEntry = 24;
        ePhoff = eEntry + w;
        eShoff = ePhoff + w;
        eFlags = eShoff + w;
        eEhsize = eFlags + 4;
        ePhentsize = eEhsize + 2;
        ePhnum = ePhentsize + 2;
        eShentsize = ePhnum + 2;
        eShnum = eShentsize + 2;
        eShstrndx = eShnum + 2;
        shFlags = 8;
        shAddr = shFlags + w;
        shOffset = shAddr + w;
        shSize = shOffset + w;
        shLink = shSize + w;
        shInfo = shLink + 4;
        shAddralign = shInfo + 4;
        shEntsize = shAddralign + w;
        if (is64) {
            pFlags = 4;
            pOffset = 8;
        } else {
            pOffset = 4;
            pFlags = 24;
        }
        pVaddr = pOffset + w;
        pPaddr = pVaddr + w;
        pFilesz = pPaddr + w;
        pMemsz = pFilesz + w;
        pAlign = is64 ? 48 : 28;
    }

    /** Reads an address-sized word (unsigned 32-bit, or 64-bit whose top bit may make it negative). */
    long word(ByteBuffer b, long at) {
        return is64 ? b.getLong((int) at) : b.getInt((int) at) & 0xffffffffL;
    }

    void putWord(ByteBuffer b, long at, long value) {
        if (is64) {
            b.putLong((int) at, value);
        } else {
            b.putInt((int) at, (int) value);
        }
    }

    String label() {
        return is64 ? "ELF64" : "ELF32";
    }
}
