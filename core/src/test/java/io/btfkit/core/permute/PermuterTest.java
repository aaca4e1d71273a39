package io.btfkit.core.permute;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import io.btfkit.core.TestData;
import io.btfkit.core.elf.ElfFile;
import io.btfkit.core.BtfReader;
import io.btfkit.core.ext.BtfExt;
import io.btfkit.core.ext.BtfExtInfo;
import io.btfkit.core.ext.BtfExtReader;
import io.btfkit.core.text.RawTextParser;
import io.btfkit.core.text.RawTextPrinter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link Permuter}: libbpf's btf_permute selftest cases, every invalid map, .BTF.ext, sort orders. */
class PermuterTest {

    /** The selftest's standalone BTF: int, int *, s1, s2, int (*)(int *p), f. */
    private static Btf selftestBase() {
        BtfBuilder b = new BtfBuilder();
        b.addInt("int", 4, Kind.INT_SIGNED);
        b.addPtr(1);
        b.addStruct("s1", 4);
        b.addMember("m", 1, 0, 0);
        b.addStruct("s2", 4);
        b.addMember("m", 1, 0, 0);
        b.addFuncProto(1);
        b.addParam("p", 2);
        b.addFunc("f", 5, Kind.LINKAGE_STATIC);
        return b.build();
    }

    private static final String SELFTEST_BASE_PERMUTED = """
            [1] STRUCT 's2' size=4 vlen=1
            \t'm' type_id=4 bits_offset=0
            [2] FUNC 'f' type_id=6 linkage=static
            [3] PTR '(anon)' type_id=4
            [4] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [5] STRUCT 's1' size=4 vlen=1
            \t'm' type_id=4 bits_offset=0
            [6] FUNC_PROTO '(anon)' ret_type_id=4 vlen=1
            \t'p' type_id=3
            """;

    @Test
    void selftestPermuteBase() {
        Btf btf = selftestBase();
        Btf p = Permuter.permute(btf, new int[] {0, 4, 3, 5, 1, 6, 2});
        assertEquals(SELFTEST_BASE_PERMUTED, RawTextPrinter.toText(p));
        assertArrayEquals(btf.strings().bytes(), p.strings().bytes());
    }

    @Test
    void selftestPermuteSplit() {
        BtfBuilder bb = new BtfBuilder();
        bb.addInt("int", 4, Kind.INT_SIGNED);
        bb.addPtr(1);
        Btf base = bb.build();
        BtfBuilder b = new BtfBuilder(base);
        b.addStruct("s1", 4);
        b.addMember("m", 1, 0, 0);
        b.addStruct("s2", 4);
        b.addMember("m", 1, 0, 0);
        b.addFuncProto(1);
        b.addParam("p", 2);
        b.addFunc("f", 5, Kind.LINKAGE_STATIC);
        Btf split = b.build();
        Btf p = Permuter.permute(split, new int[] {6, 3, 5, 4});
        assertEquals("""
                [3] STRUCT 's2' size=4 vlen=1
                \t'm' type_id=1 bits_offset=0
                [4] FUNC 'f' type_id=5 linkage=static
                [5] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1
                \t'p' type_id=2
                [6] STRUCT 's1' size=4 vlen=1
                \t'm' type_id=1 bits_offset=0
                """, RawTextPrinter.toText(p));
        assertEquals(base, p.base());

        OperationException e = assertThrows(OperationException.class, () -> Permuter.permute(split, new int[] {4, 3, 5}));
        assertEquals("id map has 3 entries, expected 4 (one per split type 3..6); entry 3 is missing", e.getMessage());
        e = assertThrows(OperationException.class, () -> Permuter.permute(split, new int[] {4, 3, 3, 6}));
        assertEquals("id map entries 1 and 2 both map to type id 3 (types [4] and [5])", e.getMessage());
        e = assertThrows(OperationException.class, () -> Permuter.permute(split, new int[] {4, 2, 5, 6}));
        assertEquals("id map entry 1 (type [4]) is 2, which is a base type id: new ids must be in [3, 6]", e.getMessage());
        e = assertThrows(OperationException.class, () -> Permuter.permute(split, new int[] {4, 0, 5, 6}));
        assertEquals("id map entry 1 (type [4]) is 0 (void): new ids must be in [3, 6]", e.getMessage());
    }

    @Test
    void invalidStandaloneMapsAreRejectedWithTheIndex() {
        Btf btf = selftestBase();
        OperationException e = assertThrows(OperationException.class,
                () -> Permuter.permute(btf, new int[] {4, 0, 3, 5, 1, 6, 2}));
        assertEquals("id map entry 0 is 4: void (type id 0) must map to 0", e.getMessage());
        e = assertThrows(OperationException.class, () -> Permuter.permute(btf, new int[] {0, 4, 3, 5, 1, 6}));
        assertEquals("id map has 6 entries, expected 7 (one per type id 0..6, entry 0 being 0); entry 6 is missing",
                e.getMessage());
        e = assertThrows(OperationException.class, () -> Permuter.permute(btf, new int[] {0, 4, 3, 5, 1, 6, 2, 7}));
        assertEquals("id map has 8 entries, expected 7 (one per type id 0..6, entry 0 being 0); entry 7 is one too many",
                e.getMessage());
        e = assertThrows(OperationException.class, () -> Permuter.permute(btf, new int[] {0, 4, 4, 5, 1, 6, 2}));
        assertEquals("id map entries 1 and 2 both map to type id 4 (types [1] and [2])", e.getMessage());
        e = assertThrows(OperationException.class, () -> Permuter.permute(btf, new int[] {0, 4, 3, 5, 1, 7, 2}));
        assertEquals("id map entry 5 (type [5]) is 7: new ids must be in [1, 6]", e.getMessage());
        e = assertThrows(OperationException.class, () -> Permuter.permute(btf, new int[] {0, 4, 3, 5, 1, -1, 2}));
        assertEquals("id map entry 5 (type [5]) is 4294967295: new ids must be in [1, 6]", e.getMessage());
        e = assertThrows(OperationException.class, () -> Permuter.permute(btf, new int[] {0, 4, 3, 0, 1, 6, 2}));
        assertEquals("id map entry 3 (type [3]) is 0 (void): new ids must be in [1, 6]", e.getMessage());
    }

    @Test
    void emptyBtfTakesTheEmptyMap() {
        Btf empty = new BtfBuilder().build();
        assertArrayEquals(BtfWriter.write(empty), BtfWriter.write(Permuter.permute(empty, new int[] {0})));
        assertArrayEquals(new int[] {0}, Permuter.sortByName(empty));
        Btf split = new BtfBuilder(selftestBase()).build();
        assertEquals(0, Permuter.permute(split, new int[0]).ownTypeCount());
    }

    @Test
    void identityMapGivesIdenticalBytes() {
        Btf btf = selftestBase();
        assertArrayEquals(BtfWriter.write(btf), BtfWriter.write(Permuter.permute(btf, new int[] {0, 1, 2, 3, 4, 5, 6})));
    }

    @Test
    void referenceOutOfRangeIsMalformed() {
        BtfBuilder b = new BtfBuilder();
        b.addInt("int", 4, Kind.INT_SIGNED);
        b.addPtr(9);
        BtfFormatException e = assertThrows(BtfFormatException.class, () -> Permuter.permute(b.build(), new int[] {0, 2, 1}));
        assertEquals("type [2] PTR refers to type 9, but the last type id is 2", e.getMessage());
    }

    @Test
    void sortByNameIsTheKernelOrder() {
        Btf btf = RawTextParser.parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] PTR '(anon)' type_id=5
                [3] STRUCT 'foo' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0
                [4] TYPEDEF 'Foo' type_id=3
                [5] FWD 'foo' fwd_kind=struct
                [6] CONST '(anon)' type_id=2
                [7] FUNC_PROTO '(anon)' ret_type_id=1 vlen=0
                [8] FUNC 'foo' type_id=7 linkage=static
                """, null);
        // anonymous first (by id), then 'Foo' < 'foo' < 'int' (strcmp), equal names by id
        assertArrayEquals(new int[] {0, 8, 1, 5, 4, 6, 2, 3, 7}, Permuter.sortByName(btf));
        assertEquals("""
                [1] PTR '(anon)' type_id=6
                [2] CONST '(anon)' type_id=1
                [3] FUNC_PROTO '(anon)' ret_type_id=8 vlen=0
                [4] TYPEDEF 'Foo' type_id=5
                [5] STRUCT 'foo' size=4 vlen=1
                \t'x' type_id=8 bits_offset=0
                [6] FWD 'foo' fwd_kind=struct
                [7] FUNC 'foo' type_id=3 linkage=static
                [8] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                """, RawTextPrinter.toText(Permuter.sortedByName(btf)));
        assertFalse(NameOrder.isSortedByName(btf));
        assertTrue(NameOrder.isSortedByName(Permuter.sortedByName(btf)));
        // kind, then named before anonymous, then name
        assertArrayEquals(new int[] {0, 1, 2, 3, 5, 4, 6, 8, 7}, Permuter.sortByKindAndName(btf));
    }

    @ParameterizedTest
    @ValueSource(strings = {"bpf/task_trace.bpf.o", "bpf/net_stats.bpf.o", "bpf/task_trace.bpfeb.o"})
    void btfExtFollowsThePermutation(String name) {
        Path p = TestData.sample(name);
        Assumptions.assumeTrue(Files.exists(p), "skipped: " + p + " not available");
        ElfFile elf = ElfFile.parse(TestData.bytes(p));
        Btf btf = BtfReader.read(elf.sectionData(".BTF").orElseThrow());
        BtfExt ext = BtfExtReader.read(elf.sectionData(".BTF.ext").orElseThrow());
        int[] map = Permuter.sortByName(btf);
        Btf sorted = Permuter.permute(btf, map);
        BtfExt moved = Permuter.permute(ext, btf, map);
        for (BtfExtInfo.Kind k : new BtfExtInfo.Kind[] {BtfExtInfo.Kind.FUNC_INFO, BtfExtInfo.Kind.CORE_RELO}) {
            BtfExtInfo before = ext.info(k);
            BtfExtInfo after = moved.info(k);
            assertEquals(before.recordCount(), after.recordCount());
            for (int r = 0; r < before.recordCount(); r++) {
                int oldId = k == BtfExtInfo.Kind.FUNC_INFO ? before.funcInfo(r).typeId() : before.coreRelo(r).typeId();
                int newId = k == BtfExtInfo.Kind.FUNC_INFO ? after.funcInfo(r).typeId() : after.coreRelo(r).typeId();
                assertEquals(map[oldId], newId);
                assertEquals(btf.type(oldId).toString().replaceFirst("^\\[\\d+\\]", ""),
                        sorted.type(newId).toString().replaceFirst("^\\[\\d+\\]", ""));
            }
        }
        // line_info holds only string offsets: unchanged
        assertEquals(ext.lineInfo().recordCount(), moved.lineInfo().recordCount());
        for (int r = 0; r < ext.lineInfo().recordCount(); r++) {
            assertEquals(ext.lineInfo().lineInfo(r), moved.lineInfo().lineInfo(r));
        }
        // back again
        BtfExt back = Permuter.permute(moved, IdMap.of(btf, map).inverse());
        assertEquals(ext.funcInfo().recordCount(), back.funcInfo().recordCount());
        for (int r = 0; r < ext.funcInfo().recordCount(); r++) {
            assertEquals(ext.funcInfo().funcInfo(r), back.funcInfo().funcInfo(r));
        }
    }

    @Test
    void btfExtNamingAMissingTypeIsRejected() {
        Btf btf = selftestBase();
        BtfExtInfo fi = new BtfExtInfo.Builder(BtfExtInfo.Kind.FUNC_INFO).section(0).record(0, 6).record(8, 7).build();
        BtfExt ext = BtfExt.of(fi, BtfExtInfo.absent(BtfExtInfo.Kind.LINE_INFO), BtfExtInfo.absent(BtfExtInfo.Kind.CORE_RELO));
        OperationException e = assertThrows(OperationException.class,
                () -> Permuter.permute(ext, btf, Permuter.sortByName(btf)));
        assertEquals(".BTF.ext refers to type id 7, but the last type id is 6", e.getMessage());
    }
}
