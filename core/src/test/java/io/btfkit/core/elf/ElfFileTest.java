package io.btfkit.core.elf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.BtfReader;
import io.btfkit.core.TestData;
import io.btfkit.core.elf.ElfFile.Section;
import io.btfkit.core.text.RawTextPrinter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Parsing the shipped samples: header facts, section tables as readelf sees them, BTF as bpftool sees it. */
class ElfFileTest {

    static Stream<Arguments> samples() {
        return Stream.of(
                Arguments.of("gcc/queue.o", true, ByteOrder.LITTLE_ENDIAN, ElfConstants.ET_REL, ElfConstants.EM_X86_64, true, false),
                Arguments.of("gcc/job.o", true, ByteOrder.LITTLE_ENDIAN, ElfConstants.ET_REL, ElfConstants.EM_X86_64, true, false),
                Arguments.of("gcc/worker.o", true, ByteOrder.LITTLE_ENDIAN, ElfConstants.ET_REL, ElfConstants.EM_X86_64, true, false),
                Arguments.of("gcc/main.o", true, ByteOrder.LITTLE_ENDIAN, ElfConstants.ET_REL, ElfConstants.EM_X86_64, true, false),
                Arguments.of("bpf/task_trace.bpf.o", true, ByteOrder.LITTLE_ENDIAN, ElfConstants.ET_REL, ElfConstants.EM_BPF, true, true),
                Arguments.of("bpf/net_stats.bpf.o", true, ByteOrder.LITTLE_ENDIAN, ElfConstants.ET_REL, ElfConstants.EM_BPF, true, true),
                Arguments.of("bpf/task_trace.bpfeb.o", true, ByteOrder.BIG_ENDIAN, ElfConstants.ET_REL, ElfConstants.EM_BPF, true, true),
                Arguments.of("elf/queue.i386.o", false, ByteOrder.LITTLE_ENDIAN, ElfConstants.ET_REL, ElfConstants.EM_386, true, false),
                Arguments.of("elf/queue.mips.o", false, ByteOrder.BIG_ENDIAN, ElfConstants.ET_REL, ElfConstants.EM_MIPS, false, false),
                Arguments.of("elf/tiny.exec", true, ByteOrder.LITTLE_ENDIAN, ElfConstants.ET_EXEC, ElfConstants.EM_X86_64, true, false),
                Arguments.of("elf/tiny-btf-alloc.exec", true, ByteOrder.LITTLE_ENDIAN, ElfConstants.ET_EXEC, ElfConstants.EM_X86_64, true,
                        false));
    }

    static Stream<String> sampleNames() {
        return samples().map(a -> (String) a.get()[0]);
    }

    static Stream<String> samplesWithBtf() {
        return samples().filter(a -> (Boolean) a.get()[5]).map(a -> (String) a.get()[0]);
    }

    @ParameterizedTest
    @MethodSource("samples")
    void headerFacts(String name, boolean is64, ByteOrder order, int type, int machine, boolean hasBtf, boolean hasExt) {
        byte[] data = ElfTools.sampleBytes(name);
        assertTrue(ElfFile.isElf(data));
        ElfFile elf = ElfFile.parse(data);
        assertEquals(is64, elf.is64());
        assertEquals(order, elf.order());
        assertEquals(type, elf.type());
        assertEquals(machine, elf.machine());
        assertEquals(hasBtf, elf.section(".BTF").isPresent());
        assertEquals(hasExt, elf.section(".BTF.ext").isPresent());
        assertEquals(type != ElfConstants.ET_REL, !elf.segments().isEmpty(), "only the executables have program headers");
        assertEquals(ElfConstants.SHT_NULL, elf.sections().get(0).type());
        String names = elf.sectionNameTable().orElseThrow().name();
        assertEquals(machine == ElfConstants.EM_BPF || machine == ElfConstants.EM_MIPS ? ".strtab" : ".shstrtab", names,
                "clang shares .strtab between symbol and section names, gcc writes a separate .shstrtab");
    }

    private static final Pattern READELF_SECTION = Pattern.compile(
            "^\\s*\\[\\s*(\\d+)\\]\\s+(\\S+)\\s+(\\S+)\\s+([0-9a-f]+)\\s+([0-9a-f]+)\\s+([0-9a-f]+)\\s+([0-9a-f]+)\\s+(\\S*)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s*$");

    /** Every section's index, name, address, offset, size, entsize, link, info and alignment as readelf -S -W prints them. */
    @ParameterizedTest
    @MethodSource("sampleNames")
    void sectionTableMatchesReadelf(String name) {
        byte[] data = ElfTools.sampleBytes(name);
        ElfTools.Run r = ElfTools.run(data, "readelf", "-S", "-W");
        assertEquals(0, r.exit());
        List<String> expected = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            Matcher m = READELF_SECTION.matcher(line);
            if (m.matches() && !"0".equals(m.group(1))) {
                expected.add(m.group(1) + " " + m.group(2) + " " + Long.parseLong(m.group(4), 16) + " " + Long.parseLong(m.group(5), 16)
                        + " " + Long.parseLong(m.group(6), 16) + " " + Long.parseLong(m.group(7), 16) + " " + m.group(9) + " "
                        + m.group(10) + " " + m.group(11));
            }
        }
        ElfFile elf = ElfFile.parse(data);
        List<String> actual = new ArrayList<>();
        for (Section s : elf.sections()) {
            if (s.index() > 0) {
                actual.add(s.index() + " " + s.name() + " " + s.addr() + " " + s.offset() + " " + s.size() + " " + s.entsize() + " "
                        + s.link() + " " + s.info() + " " + s.addralign());
            }
        }
        assertEquals(elf.sections().size() - 1, expected.size(), "readelf lines parsed");
        assertEquals(expected, actual);
    }

    /** The .BTF section read through ElfFile prints exactly what bpftool prints from the file. */
    @ParameterizedTest
    @MethodSource("samplesWithBtf")
    void btfSectionDumpsLikeBpftool(String name) {
        byte[] data = ElfTools.sampleBytes(name);
        Btf btf = BtfReader.read(ElfFile.parse(data).sectionData(".BTF").orElseThrow());
        assertTrue(btf.typeCount() > 10);
        assertEquals(ElfTools.bpftoolDump(data), RawTextPrinter.toText(btf));
    }

    @Test
    void sectionDataIsACopyOfTheFileBytes() {
        byte[] data = ElfTools.sampleBytes("bpf/task_trace.bpf.o");
        ElfFile elf = ElfFile.parse(data);
        Section btf = elf.section(".BTF").orElseThrow();
        byte[] bytes = elf.sectionData(btf);
        assertEquals(btf.size(), bytes.length);
        assertEquals((byte) 0x9f, bytes[0]);
        assertEquals((byte) 0xeb, bytes[1]);
        bytes[0] = 0;
        assertEquals((byte) 0x9f, elf.sectionData(btf)[0], "callers cannot modify the file through it");
        Section bss = elf.section(".bss").orElseThrow();
        assertTrue(bss.isNobits());
        assertEquals(0, elf.sectionData(bss).length, "NOBITS has no file bytes");
        Section rel = elf.section(".rel.BTF").orElseThrow();
        assertTrue(rel.isRelocation());
        assertEquals(btf.index(), rel.info());
    }

    @Test
    void aFileKeepingSomeSectionsGivesTheirBytesAndRefusesTheRest() {
        ElfFile elf = ElfFile.parse(ElfTools.sampleBytes("gcc/worker.o"));
        ElfFile kept = elf.keepingOnly(s -> s.type() == ElfConstants.SHT_SYMTAB || s.type() == ElfConstants.SHT_STRTAB);
        assertEquals(elf.sections(), kept.sections());
        assertEquals(elf.toString(), kept.toString());
        int checked = 0;
        for (Section s : elf.sections()) {
            if (s.type() == ElfConstants.SHT_SYMTAB || s.type() == ElfConstants.SHT_STRTAB) {
                assertArrayEquals(elf.sectionData(s), kept.sectionData(s), s.describe());
                checked++;
            } else if (!s.isNobits() && s.size() > 0 && s.type() != ElfConstants.SHT_NULL) {
                assertThrows(IllegalStateException.class, () -> kept.sectionData(s), s.describe());
            }
        }
        assertEquals(3, checked, "the symbol table, its names and the section names");
        byte[] names = kept.sectionData(".strtab").orElseThrow();
        names[1] = 0;
        assertArrayEquals(elf.sectionData(".strtab").orElseThrow(), kept.sectionData(".strtab").orElseThrow(), "a copy");
        assertThrows(IllegalStateException.class, () -> kept.withSections(new java.util.LinkedHashMap<>()));
    }

    /**
     * An object keeping its symbol tables keeps the symbols and the names its {@code sh_link}
     * gives — also when a damaged file names another kind of section there, whose bytes the
     * symbols' reader then sees as the file has them.
     */
    @Test
    void keepingTheSymbolTablesKeepsWhatTheirLinksName() {
        byte[] bytes = ElfTools.sampleBytes("gcc/worker.o");
        ElfFile elf = ElfFile.parse(bytes);
        Section symtab = elf.sections().stream().filter(s -> s.type() == ElfConstants.SHT_SYMTAB).findFirst().orElseThrow();
        ElfFile kept = elf.keepingSymbolTables();
        assertArrayEquals(elf.sectionData(symtab), kept.sectionData(symtab));
        assertArrayEquals(elf.sectionData(elf.sections().get(symtab.link())), kept.sectionData(elf.sections().get(symtab.link())));
        Section text = elf.section(".text").orElseThrow();
        assertThrows(IllegalStateException.class, () -> kept.sectionData(text), "not a symbol table's");

        // sh_link of the symbol table (Elf64_Shdr word at byte 40) set to .text's index
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes).order(elf.order());
        long shoff = b.getLong(0x28);
        b.putInt((int) (shoff + 64L * symtab.index() + 40), text.index());
        ElfFile damaged = ElfFile.parse(bytes);
        assertArrayEquals(damaged.sectionData(text), damaged.keepingSymbolTables().sectionData(text));
    }

    @Test
    void bigEndianBpfObjectHoldsBigEndianBtf() {
        ElfFile elf = ElfFile.parse(ElfTools.sampleBytes("bpf/task_trace.bpfeb.o"));
        Btf btf = BtfReader.read(elf.sectionData(".BTF").orElseThrow());
        assertEquals(ByteOrder.BIG_ENDIAN, btf.format().order());
        Btf le = BtfReader.read(ElfFile.parse(ElfTools.sampleBytes("bpf/task_trace.bpf.o")).sectionData(".BTF").orElseThrow());
        assertEquals(RawTextPrinter.toText(le), RawTextPrinter.toText(btf), "same program, same types");
    }

    @Test
    void gccObjectsRepeatTheSharedHeaderTypes() {
        for (String o : List.of("queue", "job", "worker", "main")) {
            Btf btf = BtfReader.read(ElfFile.parse(ElfTools.sampleBytes("gcc/" + o + ".o")).sectionData(".BTF").orElseThrow());
            assertTrue(btf.findByName("job", io.btfkit.core.Kind.STRUCT) > 0, o + " has struct job");
            assertTrue(btf.findByName("list_node", io.btfkit.core.Kind.STRUCT) > 0, o + " has struct list_node");
            int kind = "worker".equals(o) ? io.btfkit.core.Kind.STRUCT : io.btfkit.core.Kind.FWD;
            assertTrue(btf.findByName("worker", kind) > 0, o + ": worker is " + ("worker".equals(o) ? "defined" : "forward-declared"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"corpus/vmlinux-6.18.btf", "golden/vmlinux-6.1.0-56.btf"})
    void sharedRawBtfIsNotElf(String rel) {
        byte[] data = TestData.bytes(TestData.sharedFile(rel));
        assertFalse(ElfFile.isElf(data));
        BtfFormatException e = assertThrows(BtfFormatException.class, () -> ElfFile.parse(data));
        assertEquals("not an ELF file: magic 9f eb 01 00, want 7f 45 4c 46", e.getMessage());
    }

    @Test
    void compressedCopiesHoldTheObject() throws IOException {
        byte[] original = ElfTools.sampleBytes("bpf/task_trace.bpf.o");
        assertArrayEquals(original, inflate(new GZIPInputStream(new ByteArrayInputStream(ElfTools.sampleBytes("compressed/task_trace.bpf.o.gz")))));
        assertArrayEquals(original, inflate(new org.tukaani.xz.XZInputStream(
                new ByteArrayInputStream(ElfTools.sampleBytes("compressed/task_trace.bpf.o.xz")))));
        assertArrayEquals(original, inflate(new io.airlift.compress.zstd.ZstdInputStream(
                new ByteArrayInputStream(ElfTools.sampleBytes("compressed/task_trace.bpf.o.zst")))));
        assertFalse(ElfFile.isElf(ElfTools.sampleBytes("compressed/task_trace.bpf.o.xz")));
    }

    private static byte[] inflate(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }
}
