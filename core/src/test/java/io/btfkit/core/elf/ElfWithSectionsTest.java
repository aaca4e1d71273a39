package io.btfkit.core.elf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import io.btfkit.core.TestData;
import io.btfkit.core.elf.ElfFile.Section;
import io.btfkit.core.elf.ElfFile.Segment;
import io.btfkit.core.text.RawTextPrinter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ElfFile#withSections}: round trips keep every section's meaning, replaced and added BTF
 * sections read back (by btfkit, readelf and bpftool), executables keep everything their
 * program headers map, and relocations against replaced sections are handled as documented.
 */
class ElfWithSectionsTest {

    static Stream<String> samples() {
        return Stream.of("gcc/queue.o", "gcc/main.o", "bpf/task_trace.bpf.o", "bpf/net_stats.bpf.o", "bpf/task_trace.bpfeb.o",
                "elf/queue.i386.o", "elf/queue.mips.o", "elf/tiny.exec", "elf/tiny-btf-alloc.exec");
    }

    /** A small valid BTF, different from every sample's. */
    static Btf smallBtf() {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int s = b.addStruct("pair", 8);
        b.addMember("first", i, 0, 0);
        b.addMember("second", i, 32, 0);
        b.addPtr(s);
        b.addTypedef("pair_t", s);
        return b.build();
    }

    private static LinkedHashMap<String, byte[]> map(Object... nameThenBytes) {
        LinkedHashMap<String, byte[]> m = new LinkedHashMap<>();
        for (int k = 0; k < nameThenBytes.length; k += 2) {
            m.put((String) nameThenBytes[k], (byte[]) nameThenBytes[k + 1]);
        }
        return m;
    }

    /** Same sections (all header fields but the file offset, and the bytes) except {@code changed}. */
    private static void assertSameMeaning(ElfFile in, ElfFile out, Set<String> changed) {
        assertEquals(in.is64(), out.is64());
        assertEquals(in.order(), out.order());
        assertEquals(in.type(), out.type());
        assertEquals(in.machine(), out.machine());
        assertEquals(in.segments(), out.segments(), "program headers");
        for (Section a : in.sections()) {
            Section b = out.sections().get(a.index());
            assertEquals(a.name(), b.name());
            if (changed.contains(a.name())) {
                continue;
            }
            assertEquals(List.of(a.type(), a.flags(), a.size(), a.addr(), a.addralign(), a.link(), a.info(), a.entsize()),
                    List.of(b.type(), b.flags(), b.size(), b.addr(), b.addralign(), b.link(), b.info(), b.entsize()), a.describe());
            assertArrayEquals(in.sectionData(a), out.sectionData(b), a.describe());
            if (!in.segments().isEmpty() || a.isNobits()) {
                continue;
            }
            assertEquals(0, b.addralign() <= 1 ? 0 : b.offset() % b.addralign(), a.describe() + " alignment kept");
        }
    }

    /** Symbols, relocations and groups as readelf prints them, file offsets removed. */
    private static String readelfSymbolsAndRelocations(byte[] elf) {
        return ElfTools.run(elf, "readelf", "-s", "-r", "-g", "-W").out().replaceAll("at offset 0x[0-9a-f]+", "at offset X");
    }

    @ParameterizedTest
    @MethodSource("samples")
    void roundTripWithTheSameBytesKeepsEverything(String name) {
        byte[] data = ElfTools.sampleBytes(name);
        ElfFile in = ElfFile.parse(data);
        String sec = in.section(".BTF").isPresent() ? ".BTF" : ".text";
        byte[] out = in.withSections(map(sec, in.sectionData(sec).orElseThrow()));
        ElfFile re = ElfFile.parse(out);
        assertEquals(in.sections().size(), re.sections().size());
        assertSameMeaning(in, re, Set.of());
        ElfTools.readelfClean(out);
        ElfTools.ifTool("readelf", () -> assertEquals(readelfSymbolsAndRelocations(data), readelfSymbolsAndRelocations(out)));
        if (!in.segments().isEmpty()) {
            assertArrayEquals(data, out, "a file with program headers is copied byte for byte");
        } else {
            assertArrayEquals(out, re.withSections(map(sec, re.sectionData(sec).orElseThrow())), "the fresh layout is a fixed point");
        }
    }

    @ParameterizedTest
    @MethodSource("samples")
    void replacingBtfWithSmallerBtf(String name) {
        byte[] data = ElfTools.sampleBytes(name);
        ElfFile in = ElfFile.parse(data);
        if (in.section(".BTF").isEmpty() || in.section(".BTF").orElseThrow().isAlloc()) {
            return;
        }
        Btf small = smallBtf();
        byte[] bytes = BtfWriter.write(small, small.format().withOrder(in.order()));
        assertNotEquals(in.section(".BTF").orElseThrow().size(), bytes.length);
        byte[] out = in.withSections(map(".BTF", bytes));
        ElfFile re = ElfFile.parse(out);
        assertSameMeaning(in, re, Set.of(".BTF", ".rel.BTF"));
        Section btf = re.section(".BTF").orElseThrow();
        assertEquals(bytes.length, btf.size());
        assertArrayEquals(bytes, re.sectionData(btf));
        assertEquals(in.section(".BTF").orElseThrow().addralign(), btf.addralign());
        ElfTools.readelfClean(out);
        ElfTools.ifTool("readelf", () -> assertEquals(
                readelfSymbolsAndRelocations(data).replaceAll("(?s)Relocation section '\\.rel\\.BTF' .*?\n\n", ""),
                readelfSymbolsAndRelocations(out).replaceAll("(?s)Relocation section '\\.rel\\.BTF' .*?\n\n", "")));
        ElfTools.ifTool("bpftool", () -> assertEquals(RawTextPrinter.toText(small), ElfTools.bpftoolDump(out)));
        in.section(".rel.BTF").ifPresent(r -> assertEquals(0, re.section(".rel.BTF").orElseThrow().size(), ".rel.BTF emptied"));
    }

    @Test
    void replacingBtfWithLargerLayoutHeaderForm() {
        byte[] data = ElfTools.sampleBytes("bpf/net_stats.bpf.o");
        ElfFile in = ElfFile.parse(data);
        Btf btf = BtfReader.read(in.sectionData(".BTF").orElseThrow());
        byte[] bigger = BtfWriter.write(btf, btf.format().withLayout());
        assertTrue(bigger.length > in.section(".BTF").orElseThrow().size());
        byte[] out = in.withSections(map(".BTF", bigger));
        ElfFile re = ElfFile.parse(out);
        assertSameMeaning(in, re, Set.of(".BTF", ".rel.BTF"));
        Btf back = BtfReader.read(re.sectionData(".BTF").orElseThrow());
        assertEquals(32, back.format().headerLength());
        assertEquals(RawTextPrinter.toText(btf), RawTextPrinter.toText(back));
        ElfTools.readelfClean(out);
    }

    @Test
    void replacingBtfWithItsBigEndianFormInALittleEndianObject() {
        byte[] data = ElfTools.sampleBytes("gcc/worker.o");
        ElfFile in = ElfFile.parse(data);
        Btf btf = BtfReader.read(in.sectionData(".BTF").orElseThrow());
        byte[] be = BtfWriter.write(btf, btf.format().withOrder(ByteOrder.BIG_ENDIAN));
        byte[] out = in.withSections(map(".BTF", be));
        ElfTools.readelfClean(out);
        assertEquals(RawTextPrinter.toText(btf), RawTextPrinter.toText(BtfReader.read(ElfFile.parse(out).sectionData(".BTF").orElseThrow())));
        ElfTools.ifTool("bpftool", () -> assertEquals(ElfTools.bpftoolDump(data), ElfTools.bpftoolDump(out), "libbpf reads either byte order"));
    }

    @Test
    void addingBtfBaseAndBtfExt() {
        byte[] data = ElfTools.sampleBytes("gcc/queue.o");
        ElfFile in = ElfFile.parse(data);
        Btf small = smallBtf();
        byte[] base = BtfWriter.write(small);
        byte[] ext = {1, 2, 3, 4, 5, 6};
        byte[] out = in.withSections(map(".BTF.base", base, ".BTF.ext", ext));
        ElfFile re = ElfFile.parse(out);
        assertEquals(in.sections().size() + 2, re.sections().size());
        assertSameMeaning(in, re, Set.of(".shstrtab"));
        Section added = re.sections().get(in.sections().size());
        assertEquals(".BTF.base", added.name());
        assertEquals(ElfConstants.SHT_PROGBITS, added.type());
        assertEquals(0, added.flags());
        assertEquals(4, added.addralign());
        assertEquals(0, added.offset() % 4);
        assertArrayEquals(base, re.sectionData(added));
        assertEquals(".BTF.ext", re.sections().get(in.sections().size() + 1).name());
        assertArrayEquals(ext, re.sectionData(".BTF.ext").orElseThrow());
        byte[] oldNames = in.sectionData(".shstrtab").orElseThrow();
        byte[] newNames = re.sectionData(".shstrtab").orElseThrow();
        assertArrayEquals(oldNames, Arrays.copyOf(newNames, oldNames.length), ".shstrtab is extended, not rewritten");
        ElfTools.readelfClean(out);
        ElfTools.ifTool("readelf", () -> assertEquals(readelfSymbolsAndRelocations(data), readelfSymbolsAndRelocations(out)));
        ElfTools.ifTool("bpftool", () -> assertEquals(ElfTools.bpftoolDump(data), ElfTools.bpftoolDump(out)));
        assertEquals(RawTextPrinter.toText(small), RawTextPrinter.toText(BtfReader.read(re.sectionData(".BTF.base").orElseThrow())));
    }

    @Test
    void addingToABpfObjectWhoseNameTableIsStrtab() {
        byte[] data = ElfTools.sampleBytes("bpf/task_trace.bpf.o");
        ElfFile in = ElfFile.parse(data);
        assertEquals(".strtab", in.sectionNameTable().orElseThrow().name(), "clang shares one table for symbol and section names");
        byte[] out = in.withSections(map(".BTF.base", BtfWriter.write(smallBtf())));
        ElfFile re = ElfFile.parse(out);
        assertSameMeaning(in, re, Set.of(".strtab"));
        ElfTools.readelfClean(out);
        ElfTools.ifTool("readelf",
                () -> assertEquals(readelfSymbolsAndRelocations(data), readelfSymbolsAndRelocations(out), "symbol names still resolve"));
    }

    @Test
    void elf32BigEndianGetsABigEndianBtf() {
        byte[] data = ElfTools.sampleBytes("elf/queue.mips.o");
        ElfFile in = ElfFile.parse(data);
        assertTrue(in.section(".BTF").isEmpty());
        Btf small = smallBtf();
        byte[] be = BtfWriter.write(small, small.format().withOrder(ByteOrder.BIG_ENDIAN));
        byte[] out = in.withSections(map(".BTF", be));
        ElfFile re = ElfFile.parse(out);
        assertFalse(re.is64());
        assertEquals(ByteOrder.BIG_ENDIAN, re.order());
        assertSameMeaning(in, re, Set.of(in.sectionNameTable().orElseThrow().name()));
        assertEquals(RawTextPrinter.toText(small), RawTextPrinter.toText(BtfReader.read(re.sectionData(".BTF").orElseThrow())));
        ElfTools.readelfClean(out);
    }

    @Test
    void executableKeepsEverythingItsSegmentsMap() {
        byte[] data = ElfTools.sampleBytes("elf/tiny.exec");
        ElfFile in = ElfFile.parse(data);
        Section old = in.section(".BTF").orElseThrow();
        byte[] larger = ElfFile.parse(ElfTools.sampleBytes("gcc/queue.o")).sectionData(".BTF").orElseThrow();
        assertTrue(larger.length > old.size());
        byte[] out = in.withSections(map(".BTF", larger));
        ElfFile re = ElfFile.parse(out);
        assertSameMeaning(in, re, Set.of(".BTF"));
        Section moved = re.section(".BTF").orElseThrow();
        assertTrue(moved.offset() >= data.length, "moved past the original end");
        long shoff = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).getLong(ElfClass.ELF64.eShoff);
        assertArrayEquals(Arrays.copyOf(data, (int) shoff), Arrays.copyOf(out, (int) shoff), "every byte before the section table kept");
        for (Segment g : in.segments()) {
            assertArrayEquals(Arrays.copyOfRange(data, (int) g.offset(), (int) (g.offset() + g.filesz())),
                    Arrays.copyOfRange(out, (int) g.offset(), (int) (g.offset() + g.filesz())), "segment " + g.index());
        }
        ElfTools.readelfClean(out);
        ElfTools.ifTool("bpftool", () -> assertEquals(ElfTools.bpftoolDump(ElfTools.sampleBytes("gcc/queue.o")), ElfTools.bpftoolDump(out)));

        byte[] smaller = BtfWriter.write(smallBtf());
        byte[] out2 = in.withSections(map(".BTF", smaller));
        assertEquals(data.length, out2.length, "a smaller section is rewritten in place");
        ElfFile re2 = ElfFile.parse(out2);
        assertEquals(old.offset(), re2.section(".BTF").orElseThrow().offset());
        for (long p = old.offset() + smaller.length; p < old.offset() + old.size(); p++) {
            assertEquals(0, out2[(int) p], "the rest of the old bytes is cleared");
        }
        ElfTools.readelfClean(out2);
        ElfTools.ifTool("bpftool", () -> assertEquals(RawTextPrinter.toText(smallBtf()), ElfTools.bpftoolDump(out2)));
    }

    @Test
    void executableGetsAnAddedSectionAndANewSectionTable() {
        byte[] data = ElfTools.sampleBytes("elf/tiny.exec");
        ElfFile in = ElfFile.parse(data);
        byte[] base = BtfWriter.write(smallBtf());
        byte[] out = in.withSections(map(".BTF.base", base));
        ElfFile re = ElfFile.parse(out);
        assertSameMeaning(in, re, Set.of(".shstrtab"));
        assertArrayEquals(base, re.sectionData(".BTF.base").orElseThrow());
        ElfClass c = ElfClass.ELF64;
        byte[] headerOnlyTableFieldsChanged = out.clone();
        System.arraycopy(data, c.eShoff, headerOnlyTableFieldsChanged, c.eShoff, 8);
        System.arraycopy(data, c.eShnum, headerOnlyTableFieldsChanged, c.eShnum, 2);
        assertTrue(ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).getLong(c.eShoff) > data.length, "table moved to the end");
        for (Segment g : in.segments()) {
            assertArrayEquals(Arrays.copyOfRange(data, (int) g.offset(), (int) (g.offset() + g.filesz())),
                    Arrays.copyOfRange(headerOnlyTableFieldsChanged, (int) g.offset(), (int) (g.offset() + g.filesz())),
                    "segment " + g.index() + " (the first maps the ELF header, whose e_shoff and e_shnum change)");
        }
        ElfTools.readelfClean(out);
    }

    @Test
    void allocatedBtfKeepsItsSizeOrIsRefused() {
        byte[] data = ElfTools.sampleBytes("elf/tiny-btf-alloc.exec");
        ElfFile in = ElfFile.parse(data);
        Section btfSec = in.section(".BTF").orElseThrow();
        assertTrue(btfSec.isAlloc());
        OperationException e = assertThrows(OperationException.class, () -> in.withSections(map(".BTF", BtfWriter.write(smallBtf()))));
        assertEquals("cannot change section header 3 (.BTF) from 0x20c to 0x" + Integer.toHexString(BtfWriter.write(smallBtf()).length)
                + " bytes in a file with program headers: it is SHF_ALLOC (address 0x402000), so it cannot move or grow without relinking",
                e.getMessage());
        Btf btf = BtfReader.read(in.sectionData(btfSec));
        byte[] be = BtfWriter.write(btf, btf.format().withOrder(ByteOrder.BIG_ENDIAN));
        byte[] out = in.withSections(map(".BTF", be));
        assertEquals(data.length, out.length);
        ElfFile re = ElfFile.parse(out);
        assertEquals(btfSec.offset(), re.section(".BTF").orElseThrow().offset());
        assertArrayEquals(be, re.sectionData(".BTF").orElseThrow());
        ElfTools.readelfClean(out);
        ElfTools.ifTool("bpftool", () -> assertEquals(ElfTools.bpftoolDump(data), ElfTools.bpftoolDump(out)));
    }

    @Test
    void relocationsOfAChangedBtfExtAreEmptiedAndOthersKept() {
        byte[] data = ElfTools.sampleBytes("bpf/task_trace.bpf.o");
        ElfFile in = ElfFile.parse(data);
        byte[] ext = in.sectionData(".BTF.ext").orElseThrow();
        byte[] changed = ext.clone();
        changed[changed.length - 1] ^= 1;
        LinkedHashMap<String, byte[]> m = map(".BTF.ext", changed);
        assertEquals(List.of(".rel.BTF.ext"), in.staleRelocations(m).stream().map(Section::name).collect(Collectors.toList()));
        ElfFile re = ElfFile.parse(in.withSections(m));
        Section rel = re.section(".rel.BTF.ext").orElseThrow();
        assertEquals(0, rel.size());
        Section oldRel = in.section(".rel.BTF.ext").orElseThrow();
        assertEquals(List.of(oldRel.index(), oldRel.type(), oldRel.link(), oldRel.info(), oldRel.entsize()),
                List.of(rel.index(), rel.type(), rel.link(), rel.info(), rel.entsize()), "header and index kept");
        assertArrayEquals(in.sectionData(".rel.BTF").orElseThrow(), re.sectionData(".rel.BTF").orElseThrow());
        ElfTools.readelfClean(in.withSections(m));

        LinkedHashMap<String, byte[]> same = map(".BTF.ext", ext);
        assertTrue(in.staleRelocations(same).isEmpty());
        assertArrayEquals(in.sectionData(".rel.BTF.ext").orElseThrow(),
                ElfFile.parse(in.withSections(same)).sectionData(".rel.BTF.ext").orElseThrow(), "unchanged target: relocations kept");

        byte[] oneReloc = Arrays.copyOf(in.sectionData(".rel.BTF.ext").orElseThrow(), 16);
        LinkedHashMap<String, byte[]> given = map(".BTF.ext", changed, ".rel.BTF.ext", oneReloc);
        assertTrue(in.staleRelocations(given).isEmpty());
        assertArrayEquals(oneReloc, ElfFile.parse(in.withSections(given)).sectionData(".rel.BTF.ext").orElseThrow(),
                "relocations the caller gives are used");
    }

    /**
     * A BPF object whose .BTF is rewritten (same types, one more string, so different bytes and
     * an emptied .rel.BTF) still opens in libbpf ({@code bpftool gen skeleton}) and goes through
     * libbpf's static linker ({@code bpftool gen object}), which is what loaders and build systems do.
     */
    @ParameterizedTest
    @MethodSource("bpfObjects")
    void rewrittenBpfObjectStillOpensAndLinksWithLibbpf(String name) throws IOException {
        byte[] data = ElfTools.sampleBytes(name);
        ElfFile in = ElfFile.parse(data);
        Btf btf = BtfReader.read(in.sectionData(".BTF").orElseThrow());
        BtfBuilder b = new BtfBuilder(null, btf.strings().bytes());
        for (int id = 1; id < btf.typeCount(); id++) {
            b.addRaw(btf.words(), btf.startOf(id), btf.wordCount(id));
        }
        b.addString("btfkit padding");
        Btf padded = b.format(btf.format()).build();
        byte[] bytes = BtfWriter.write(padded);
        assertEquals(in.section(".BTF").orElseThrow().size() + "btfkit padding".length() + 1, bytes.length);
        byte[] out = in.withSections(map(".BTF", bytes));
        assertEquals(0, ElfFile.parse(out).section(".rel.BTF").orElseThrow().size());
        ElfTools.readelfClean(out);
        ElfTools.Run skel = ElfTools.run(out, "bpftool", "gen", "skeleton");
        assertEquals(0, skel.exit(), skel.err());
        assertTrue(skel.out().contains("struct bpf_map *events") || skel.out().contains("struct bpf_map *stats"), "maps found through BTF");
        assertEquals(skeletonDeclarations(ElfTools.run(data, "bpftool", "gen", "skeleton").out()), skeletonDeclarations(skel.out()),
                "same maps, programs and global variables");
        Path linkedFile = Files.createTempFile("btfkit-linked", ".o");
        try {
            ElfTools.Run linked = ElfTools.run(out, "bpftool", "gen", "object", linkedFile.toString());
            assertEquals(0, linked.exit(), linked.err());
            ElfFile l = ElfFile.parse(Files.readAllBytes(linkedFile));
            assertTrue(l.section(".BTF.ext").isPresent() && l.section(".rel.BTF").isEmpty(), "libbpf's linker drops .rel.BTF too");
        } finally {
            Files.deleteIfExists(linkedFile);
        }
    }

    /** The skeleton's struct (maps, programs, globals), with the temporary file's name taken out. */
    private static String skeletonDeclarations(String skeleton) {
        int end = skeleton.indexOf("#ifdef __cplusplus");
        assertTrue(end > 0);
        return skeleton.substring(0, end).replaceAll("(?i)btfkit_elf\\d+", "X");
    }

    static Stream<String> bpfObjects() {
        return Stream.of("bpf/task_trace.bpf.o", "bpf/net_stats.bpf.o");
    }

    /**
     * A module-like object: split BTF on vmlinux as .BTF, or (pahole's distilled_base layout)
     * split BTF on a distilled base as .BTF plus that base as .BTF.base, added to a relocatable
     * object; bpftool reads them back on their bases exactly as from the raw files.
     */
    @Test
    void moduleLikeObjectCarriesSplitBtfAndDistilledBase() throws IOException {
        String vmlinux = TestData.golden("vmlinux-6.1.0-56.btf").toString();
        byte[] split = TestData.bytes(TestData.golden("modules/ad7091r5.btf"));
        byte[] distSplit = TestData.bytes(TestData.golden("distill/ad7091r5.split"));
        byte[] distBase = TestData.bytes(TestData.golden("distill/ad7091r5.base"));
        ElfFile obj = ElfFile.parse(ElfTools.sampleBytes("gcc/queue.o"));

        byte[] module = obj.withSections(map(".BTF", split));
        ElfTools.readelfClean(module);
        assertArrayEquals(split, ElfFile.parse(module).sectionData(".BTF").orElseThrow());
        assertEquals(ElfTools.run(split, "bpftool", "-B", vmlinux, "btf", "dump", "file").out(),
                ElfTools.run(module, "bpftool", "-B", vmlinux, "btf", "dump", "file").out());

        byte[] distilled = obj.withSections(map(".BTF", distSplit, ".BTF.base", distBase));
        ElfTools.readelfClean(distilled);
        ElfFile re = ElfFile.parse(distilled);
        assertArrayEquals(distBase, re.sectionData(".BTF.base").orElseThrow());
        Path baseFile = Files.createTempFile("btfkit-base", ".btf");
        try {
            Files.write(baseFile, re.sectionData(".BTF.base").orElseThrow());
            String viaElf = ElfTools.run(distilled, "bpftool", "-B", baseFile.toString(), "btf", "dump", "file").out();
            assertTrue(viaElf.startsWith("["), viaElf);
            assertEquals(ElfTools.run(distSplit, "bpftool", "-B", baseFile.toString(), "btf", "dump", "file").out(), viaElf);
        } finally {
            Files.deleteIfExists(baseFile);
        }
    }

    @Test
    void refusals() {
        ElfFile in = ElfFile.parse(ElfTools.sampleBytes("gcc/queue.o"));
        assertEquals("cannot replace section header 12 (.shstrtab): it is the section name table",
                assertThrows(OperationException.class, () -> in.withSections(map(".shstrtab", new byte[4]))).getMessage());
        assertEquals("cannot replace or add a section named \"\": a section name must be non-empty and free of NUL bytes",
                assertThrows(OperationException.class, () -> in.withSections(map("", new byte[4]))).getMessage());
        byte[] unnamed = ElfTools.sampleBytes("gcc/queue.o");
        ByteBuffer.wrap(unnamed).order(ByteOrder.LITTLE_ENDIAN).putShort(ElfClass.ELF64.eShstrndx, (short) 0);
        assertEquals("cannot add section .BTF.base: the file has no section name table (e_shstrndx is 0)",
                assertThrows(OperationException.class, () -> ElfFile.parse(unnamed).withSections(map(".BTF.base", new byte[4]))).getMessage());
    }

    @Test
    void replacingNobitsGivesItBytes() {
        ElfFile in = ElfFile.parse(ElfTools.sampleBytes("gcc/queue.o"));
        byte[] bss = new byte[0x50];
        bss[3] = 7;
        ElfFile re = ElfFile.parse(in.withSections(map(".bss", bss)));
        Section s = re.section(".bss").orElseThrow();
        assertEquals(ElfConstants.SHT_PROGBITS, s.type());
        assertArrayEquals(bss, re.sectionData(s));
        assertSameMeaning(in, re, Set.of(".bss"));
    }
}
