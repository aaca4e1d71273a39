package io.btfkit.core;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.elf.ElfFile;
import io.btfkit.core.io.InputLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Split BTF read on a base it was not made on is refused with the evidence ({@link SplitBaseFit}),
 * on hand-made bases and on the real kernels and modules of {@code ../shared/golden}; split BTF
 * on its own base, and standalone BTF, read as before.
 */
class SplitBaseFitTest {

    /** Base "made on": strings \0int\0long\0 (10 bytes), types [1] int, [2] long. */
    private static Btf baseA() {
        BtfBuilder b = new BtfBuilder();
        b.addInt("int", 4, Kind.INT_SIGNED);
        b.addInt("long", 8, Kind.INT_SIGNED);
        return b.build();
    }

    /** Another base: strings \0char\0unsigned\0 (15 bytes), types [1] char, [2] unsigned, [3] PTR. */
    private static Btf baseB() {
        BtfBuilder b = new BtfBuilder();
        b.addInt("char", 1, Kind.INT_CHAR);
        b.addInt("unsigned", 4, 0);
        b.addPtr(1);
        return b.build();
    }

    /** Split on {@link #baseA}: [3] STRUCT 's' {long x; int y}, [4] PTR -> [3]. */
    private static byte[] splitOnA() {
        BtfBuilder b = new BtfBuilder(baseA());
        int s = b.addStruct("s", 16);
        b.addMember("x", 2, 0, 0);
        b.addMember("y", 1, 64, 0);
        b.addPtr(s);
        return BtfWriter.write(b.build());
    }

    @Test
    void splitOnItsOwnBaseReads() {
        Btf split = BtfReader.read(splitOnA(), baseA());
        assertEquals("s", split.strings().get(split.nameOff(3)));
    }

    @Test
    void nameInsideABaseStringIsEvidence() {
        // own 's' is at offset 10; on baseB, offset 10 is the 'g' of "unsigned"; the split's
        // first type would be [4], whose PTR -> [3] is then a PTR and the member types shift
        BaseMismatchException e = assertThrows(BaseMismatchException.class, () -> BtfReader.read(splitOnA(), baseB()));
        assertTrue(e.getMessage().startsWith("does not seem to be split BTF of the given base ("), e.getMessage());
        assertTrue(e.evidence().contains("3 of 3 names do not start a string, e.g. type [4] STRUCT name offset 10, inside "
                + "the base's string 'unsigned'"), e.evidence());
        assertTrue(e.evidence().contains("its names imply a base string section of 10 bytes, this base's has 15"), e.evidence());
        assertEquals("does not seem to be split BTF of vmlinux-b (" + e.evidence() + ")", e.naming("vmlinux-b").getMessage());
    }

    @Test
    void idPastTheLastTypeIsEvidence() {
        // split on baseA: [3] PTR -> [4], [4] STRUCT 's' {long x}. A base with the same strings
        // and one type fewer: every name fits, but the PTR's [4] is now past the last id, [3]
        BtfBuilder sb = new BtfBuilder(baseA());
        sb.addPtr(4);
        sb.addStruct("s", 8);
        sb.addMember("x", 2, 0, 0);
        byte[] split = BtfWriter.write(sb.build());
        BtfBuilder b = new BtfBuilder();
        b.addInt("int", 4, Kind.INT_SIGNED);
        b.addString("long");
        BaseMismatchException e = assertThrows(BaseMismatchException.class, () -> BtfReader.read(split, b.build()));
        assertEquals("1 of 2 type ids are past the last type, [3], e.g. type [2] PTR type [4]", e.evidence());
    }

    @Test
    void baseNameResolvingToAnEmptyStringIsEvidence() {
        // a base whose strings are \0int\0\0long\0: offset 5 starts a string, an empty one;
        // no producer names a type by an empty string other than the one at 0
        Btf base = new BtfBuilder(null, "\0int\0\0long\0".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)).build();
        assertEquals(11, base.strings().end());
        BtfBuilder sb = new BtfBuilder(base);
        sb.addRaw(new int[] {5, Kind.info(Kind.TYPEDEF, 0, false), 0}, 0, 3);
        byte[] split = BtfWriter.write(sb.build());
        BaseMismatchException e = assertThrows(BaseMismatchException.class, () -> BtfReader.read(split, base));
        assertEquals("1 of 1 names do not start a string, e.g. type [1] TYPEDEF name offset 5, an empty string", e.evidence());
    }

    @Test
    void splitTextTellsItsBaseByItsFirstId() {
        BaseMismatchException e = assertThrows(BaseMismatchException.class,
                () -> io.btfkit.core.text.RawTextParser.parse("# split\n[5] PTR '(anon)' type_id=1\n", baseA()));
        assertEquals("line 2: its first type is [5], so its base's last id was [4]; this base's last is [2]", e.evidence());
    }

    @Test
    void standaloneBtfGivenABaseIsToldSo() {
        // a clang BPF object (standalone, not gcc's) read with a vmlinux as its base
        byte[] standalone = BtfWriter.write(baseB());
        BaseMismatchException e = assertThrows(BaseMismatchException.class, () -> BtfReader.read(standalone, baseA()));
        assertTrue(e.evidence().startsWith("its strings start with the empty string, as standalone BTF's do: is it split at all?; "),
                e.evidence());
    }

    @Test
    void standaloneNamesInsideStringsStillRead() {
        // legal BTF (a name sharing another's tail); only split BTF treats it as evidence
        BtfBuilder b = new BtfBuilder();
        int off = b.addString("unsigned") + 2;
        b.addRaw(new int[] {off, Kind.info(Kind.INT, 0, false), 4, 32}, 0, 4);
        assertEquals("signed", BtfReader.read(BtfWriter.write(b.build())).strings().get(off));
    }

    @Test
    void elfWithADistilledBaseNamesThatSection() {
        Path split = TestData.golden("distill/roles.split");
        byte[] elf = TestData.bytes(TestData.sample("gcc/queue.o"));
        LinkedHashMap<String, byte[]> fitting = new LinkedHashMap<>(Map.of(".BTF", TestData.bytes(split),
                ".BTF.base", TestData.bytes(TestData.golden("distill/roles.base"))));
        assertDoesNotThrow(() -> InputLoader.load(Path.of("roles.ko"), ElfFile.parse(elf).withSections(fitting), null));
        LinkedHashMap<String, byte[]> wrong = new LinkedHashMap<>(Map.of(".BTF", TestData.bytes(split),
                ".BTF.base", TestData.bytes(TestData.golden("distill/dax_hmem.base"))));
        byte[] bad = ElfFile.parse(elf).withSections(wrong);
        BaseMismatchException e = assertThrows(BaseMismatchException.class, () -> InputLoader.load(Path.of("roles.ko"), bad, null));
        assertTrue(e.getMessage().startsWith("does not seem to be split BTF of its .BTF.base section ("), e.getMessage());
    }

    /**
     * Every golden module (split on 6.1.0-56) and every golden relocation output (split on its
     * target kernel) is refused on each other golden kernel and read on its own; the distilled
     * splits are refused on the full kernel they were distilled from.
     */
    @Test
    void goldenSplitsFitOnlyTheirOwnKernel() throws Exception {
        List<String> modules = TestData.goldenModules();
        org.junit.jupiter.api.Assumptions.assumeFalse(modules.isEmpty(), "skipped: no golden modules in ../shared/golden");
        List<String> kernels = List.of("6.1.0-56", "6.1.0-47", "6.1.0-56-cloud");
        Map<String, Btf> bases = new LinkedHashMap<>();
        for (String k : kernels) {
            bases.put(k, BtfReader.read(TestData.bytes(TestData.golden("vmlinux-" + k + ".btf"))));
        }
        List<String> wrong = new ArrayList<>();
        int refused = 0;
        int expectedRefusals = 0;
        for (String k : kernels) {
            List<Path> splits = new ArrayList<>();
            if (k.equals("6.1.0-56")) {
                modules.forEach(m -> splits.add(TestData.golden("modules/" + m + ".btf")));
            }
            Path relocated = TestData.golden("relocate/onto-" + k);
            try (var s = Files.list(relocated)) {
                s.sorted().forEach(splits::add);
            }
            expectedRefusals += splits.size() * (kernels.size() - 1);
            for (Path f : splits) {
                byte[] data = TestData.bytes(f);
                for (String on : kernels) {
                    Btf base = bases.get(on);
                    if (on.equals(k)) {
                        try {
                            BtfReader.read(data, base);
                        } catch (BtfFormatException e) {
                            wrong.add(f + " on its own " + on + ": " + e.getMessage());
                        }
                    } else {
                        try {
                            BtfReader.read(data, base);
                            wrong.add(f + " read on " + on);
                        } catch (BaseMismatchException e) {
                            refused++;
                        }
                    }
                }
            }
        }
        for (String m : modules) {
            expectedRefusals++;
            byte[] data = TestData.bytes(TestData.golden("distill/" + m + ".split"));
            try {
                BtfReader.read(data, bases.get("6.1.0-56"));
                wrong.add("distill/" + m + ".split read on the full 6.1.0-56");
            } catch (BaseMismatchException e) {
                refused++;
            }
        }
        assertEquals(List.of(), wrong);
        assertEquals(expectedRefusals, refused);
    }

    @Test
    void nameFitsLooksAtOneByte() {
        Btf split = BtfReader.read(splitOnA(), baseA());
        StringTable t = split.strings();
        assertTrue(SplitBaseFit.nameFits(t, 1)); // "int"
        assertFalse(SplitBaseFit.nameFits(t, 2)); // "nt"
        assertFalse(SplitBaseFit.nameFits(t, 4)); // the NUL after "int": an empty string
        assertTrue(SplitBaseFit.nameFits(t, 10)); // own "s", the own section's first byte
        assertFalse(SplitBaseFit.nameFits(t, 11)); // the NUL after own "s"
        assertTrue(SplitBaseFit.nameFits(t, 12)); // own "x"
    }
}
