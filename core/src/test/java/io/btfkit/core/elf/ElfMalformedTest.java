package io.btfkit.core.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.BtfFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Malformed ELF files built by damaging real samples one field at a time; each must fail with a
 * BtfFormatException whose message names the field and the numbers involved.
 *
 * <p>{@code gcc/queue.o} (ELF64 LSB, 0xee0 bytes): 13 section headers at 0xba0, e_shstrndx 12;
 * section 2 is .rela.text, 5 is .BTF at 0x140 (0x79a bytes), 10 is .symtab, 12 .shstrtab (0x5e
 * bytes).
 */
class ElfMalformedTest {
    private static final ElfClass C64 = ElfClass.ELF64;
    private static final ElfClass C32 = ElfClass.ELF32;
    private static final int SHOFF = 0xba0;

    private static byte[] queue() {
        byte[] d = ElfTools.sampleBytes("gcc/queue.o");
        assertEquals(0xee0, d.length, "sample layout the expectations below rely on");
        return d;
    }

    private static byte[] mutate(byte[] d, ByteOrder order, Consumer<ByteBuffer> change) {
        byte[] copy = d.clone();
        change.accept(ByteBuffer.wrap(copy).order(order));
        return copy;
    }

    private static byte[] q(Consumer<ByteBuffer> change) {
        return mutate(queue(), ByteOrder.LITTLE_ENDIAN, change);
    }

    private static int sh(int index, int field) {
        return SHOFF + index * 64 + field;
    }

    private static void fails(String message, byte[] data) {
        BtfFormatException e = assertThrows(BtfFormatException.class, () -> ElfFile.parse(data));
        assertEquals(message, e.getMessage());
    }

    @Test
    void notElf() {
        fails("not an ELF file: magic missing (empty input), want 7f 45 4c 46", new byte[0]);
        fails("not an ELF file: magic 4d 5a 90 00, want 7f 45 4c 46", new byte[] {'M', 'Z', (byte) 0x90, 0, 3, 0});
        fails("not an ELF file: magic 7f 45 4c, want 7f 45 4c 46", new byte[] {0x7f, 'E', 'L'});
    }

    @Test
    void truncatedIdentification() {
        fails("truncated ELF identification: 10 bytes, need 16", Arrays.copyOf(queue(), 10));
    }

    @Test
    void badClassEncodingVersion() {
        fails("bad ELF class 3 at offset 4 (want 1 for ELF32 or 2 for ELF64)", q(b -> b.put(4, (byte) 3)));
        fails("bad ELF data encoding 0 at offset 5 (want 1 for little-endian or 2 for big-endian)", q(b -> b.put(5, (byte) 0)));
        fails("unsupported ELF version 2 at offset 6 (want 1)", q(b -> b.put(6, (byte) 2)));
    }

    @Test
    void truncatedHeader() {
        fails("truncated ELF header: 40 bytes, an ELF64 header needs 64", Arrays.copyOf(queue(), 40));
        fails("truncated ELF header: 40 bytes, an ELF32 header needs 52", Arrays.copyOf(ElfTools.sampleBytes("elf/queue.i386.o"), 40));
    }

    @Test
    void headerFields() {
        fails("unsupported ELF file type ET_CORE (e_type at offset 16); want ET_REL, ET_EXEC or ET_DYN", q(b -> b.putShort(16, (short) 4)));
        fails("unsupported e_version 0 at offset 20 (want 1)", q(b -> b.putInt(20, 0)));
        fails("e_ehsize 52 at offset 52 is smaller than an ELF64 header (64 bytes)", q(b -> b.putShort(C64.eEhsize, (short) 52)));
    }

    @Test
    void wrongSectionHeaderEntrySize() {
        fails("e_shentsize 40 at offset 58 is wrong: ELF64 section headers are 64 bytes", q(b -> b.putShort(C64.eShentsize, (short) 40)));
        fails("e_shentsize 64 at offset 46 is wrong: ELF32 section headers are 40 bytes",
                mutate(ElfTools.sampleBytes("elf/queue.i386.o"), ByteOrder.LITTLE_ENDIAN, b -> b.putShort(C32.eShentsize, (short) 64)));
    }

    @Test
    void sectionHeaderTablePastTheEnd() {
        fails("section header table at e_shoff 0x10000 runs past the end of the file (0xee0 bytes)", q(b -> b.putLong(C64.eShoff, 0x10000)));
        fails("section header table: 13 entries of 64 bytes at 0xbb8 run past the end of the file (0xee0 bytes)",
                q(b -> b.putLong(C64.eShoff, SHOFF + 24)));
        fails("section header table: 65535 entries of 64 bytes at 0xba0 run past the end of the file (0xee0 bytes)",
                q(b -> b.putShort(C64.eShnum, (short) 0xffff)));
        fails("e_shnum is 13 but e_shoff is 0 (no section header table)", q(b -> b.putLong(C64.eShoff, 0)));
    }

    /** Extended numbering: a count of 2^40 taken from section header 0 must fail before anything is allocated. */
    @Test
    void absurdExtendedSectionCount() {
        fails("section header table: 1099511627776 entries of 64 bytes at 0xba0 run past the end of the file (0xee0 bytes)"
                        + " (count from section header 0, extended numbering)",
                q(b -> {
                    b.putShort(C64.eShnum, (short) 0);
                    b.putLong(sh(0, C64.shSize), 1L << 40);
                }));
        fails("section header table: 18446744073709551615 entries of 64 bytes at 0xba0 run past the end of the file (0xee0 bytes)"
                        + " (count from section header 0, extended numbering)",
                q(b -> {
                    b.putShort(C64.eShnum, (short) 0);
                    b.putLong(sh(0, C64.shSize), -1L);
                }));
        fails("e_shnum is 0 and section header 0 holds no extended section count, but e_shoff is 0xba0",
                q(b -> b.putShort(C64.eShnum, (short) 0)));
    }

    @Test
    void extendedNumberingThatFitsParses() {
        ElfFile elf = ElfFile.parse(q(b -> {
            b.putShort(C64.eShnum, (short) 0);
            b.putLong(sh(0, C64.shSize), 13);
            b.putShort(C64.eShstrndx, (short) ElfConstants.SHN_XINDEX);
            b.putInt(sh(0, C64.shLink), 12);
        }));
        assertEquals(13, elf.sections().size());
        assertEquals(".shstrtab", elf.sectionNameTable().orElseThrow().name());
        assertEquals(0x79a, elf.section(".BTF").orElseThrow().size());
    }

    @Test
    void sectionNameTableIndex() {
        fails("e_shstrndx 40 is out of range: the file has 13 sections", q(b -> b.putShort(C64.eShstrndx, (short) 40)));
        fails("e_shstrndx 0xff00 is a reserved section index", q(b -> b.putShort(C64.eShstrndx, (short) 0xff00)));
        fails("section name table index 99 (section header 0's sh_link, e_shstrndx = SHN_XINDEX) is out of range: the file has 13 sections",
                q(b -> {
                    b.putShort(C64.eShstrndx, (short) ElfConstants.SHN_XINDEX);
                    b.putInt(sh(0, C64.shLink), 99);
                }));
        fails("section header 5, the section name table (e_shstrndx), has type 1, not SHT_STRTAB", q(b -> b.putShort(C64.eShstrndx, (short) 5)));
        fails("section header 12 (section name table): data [0xb40, +0x10000) runs past the end of the file (0xee0 bytes)",
                q(b -> b.putLong(sh(12, C64.shSize), 0x10000)));
    }

    @Test
    void sectionDataPastTheEnd() {
        fails("section header 5 (.BTF): data [0x140, +0x5000) runs past the end of the file (0xee0 bytes)", q(b -> b.putLong(sh(5, C64.shSize), 0x5000)));
        fails("section header 5 (.BTF): data [0xffffffffffffff00, +0x79a) runs past the end of the file (0xee0 bytes)",
                q(b -> b.putLong(sh(5, C64.shOffset), 0xffffffffffffff00L)));
        fails("section header 5 (.BTF): data [0xe00, +0x79a) runs past the end of the file (0xee0 bytes)", q(b -> b.putLong(sh(5, C64.shOffset), 0xe00)));
    }

    @Test
    void nobitsSectionsMayClaimAnySize() {
        ElfFile elf = ElfFile.parse(q(b -> b.putLong(sh(4, C64.shSize), 1L << 50)));
        assertEquals(1L << 50, elf.section(".bss").orElseThrow().size());
        assertEquals(0, elf.sectionData(elf.section(".bss").orElseThrow()).length);
    }

    @Test
    void bigEndianSectionDataPastTheEnd() {
        byte[] mips = ElfTools.sampleBytes("elf/queue.mips.o");
        ElfFile elf = ElfFile.parse(mips);
        ElfFile.Section text = elf.section(".text").orElseThrow();
        long shoff = ByteBuffer.wrap(mips).order(ByteOrder.BIG_ENDIAN).getInt(C32.eShoff) & 0xffffffffL;
        byte[] bad = mutate(mips, ByteOrder.BIG_ENDIAN, b -> b.putInt((int) (shoff + text.index() * 40L + C32.shSize), 0x7fff0000));
        fails("section header " + text.index() + " (.text): data [0x" + Long.toHexString(text.offset()) + ", +0x7fff0000) runs past the end of the file (0x"
                + Integer.toHexString(mips.length) + " bytes)", bad);
    }

    @Test
    void sectionNames() {
        fails("section header 5: name offset 0x1000 is past the end of the section name table (0x5e bytes)", q(b -> b.putInt(sh(5, 0), 0x1000)));
        byte[] d = queue();
        int textName = ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN).getInt(sh(1, 0));
        fails("section header 1: name at offset 0x" + Integer.toHexString(textName) + " of the section name table is not NUL-terminated",
                q(b -> b.putLong(sh(12, C64.shSize), textName + 3)));
    }

    @Test
    void sectionZeroMustBeNull() {
        fails("section header 0 has type 1; it must be SHT_NULL", q(b -> b.putInt(sh(0, 4), 1)));
    }

    @Test
    void sectionIndexesInLinkAndInfo() {
        fails("section header 2 (.rela.text): sh_info 77 is not a section index (the file has 13 sections)", q(b -> b.putInt(sh(2, C64.shInfo), 77)));
        fails("section header 2 (.rela.text): sh_link 4294967295 is not a section index (the file has 13 sections)",
                q(b -> b.putInt(sh(2, C64.shLink), -1)));
        fails("section header 10 (.symtab): sh_link 13 is not a section index (the file has 13 sections)", q(b -> b.putInt(sh(10, C64.shLink), 13)));
    }

    @Test
    void programHeaders() {
        byte[] exec = ElfTools.sampleBytes("elf/tiny.exec");
        String len = "0x" + Integer.toHexString(exec.length);
        fails("e_phentsize 32 at offset 54 is wrong: ELF64 program headers are 56 bytes",
                mutate(exec, ByteOrder.LITTLE_ENDIAN, b -> b.putShort(C64.ePhentsize, (short) 32)));
        fails("program header table [0x40, +0x37ff90) runs past the end of the file (" + len + " bytes)",
                mutate(exec, ByteOrder.LITTLE_ENDIAN, b -> b.putShort(C64.ePhnum, (short) 0xfffe)));
        fails("program header 1: file data [0x1000, +0x100000) runs past the end of the file (" + len + " bytes)",
                mutate(exec, ByteOrder.LITTLE_ENDIAN, b -> b.putLong(64 + 56 + C64.pFilesz, 0x100000)));
        fails("e_phnum is PN_XNUM but there is no section header 0 to hold the program header count",
                mutate(exec, ByteOrder.LITTLE_ENDIAN, b -> {
                    b.putLong(C64.eShoff, 0);
                    b.putShort(C64.eShnum, (short) 0);
                    b.putShort(C64.eShstrndx, (short) 0);
                    b.putShort(C64.ePhnum, (short) ElfConstants.PN_XNUM);
                }));
    }

    @Test
    void fileWithoutSectionsOrNamesParses() {
        ElfFile none = ElfFile.parse(q(b -> {
            b.putLong(C64.eShoff, 0);
            b.putShort(C64.eShnum, (short) 0);
            b.putShort(C64.eShstrndx, (short) 0);
        }));
        assertTrue(none.sections().isEmpty());
        assertTrue(none.section(".BTF").isEmpty());
        ElfFile unnamed = ElfFile.parse(q(b -> b.putShort(C64.eShstrndx, (short) 0)));
        assertEquals(13, unnamed.sections().size());
        assertTrue(unnamed.sections().stream().allMatch(s -> s.name().isEmpty()));
        assertTrue(unnamed.sectionNameTable().isEmpty());
    }
}
