package io.btfkit.minimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.text.RawTextParser;
import java.util.List;
import org.junit.jupiter.api.Test;

/** CO-RE resolution on hand-built local and target BTF, one relocation kind or rule at a time. */
class CoreRelocatorTest {
    private static final String INTS = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] INT 'unsigned int' size=4 bits_offset=0 nr_bits=32 encoding=(none)
            [3] INT 'long' size=8 bits_offset=0 nr_bits=64 encoding=SIGNED
            """;

    /** Local (program) side: a flavoured task_struct, an array holder, an enum, a bitfield holder. */
    private static final Btf LOCAL = RawTextParser.parse(INTS + """
            [4] STRUCT 'task_struct___old' size=12 vlen=3
            \t'pid' type_id=1 bits_offset=0
            \t'gone' type_id=1 bits_offset=32
            \t'flags' type_id=2 bits_offset=64
            [5] ARRAY '(anon)' type_id=1 index_type_id=1 nr_elems=4
            [6] STRUCT 'holder' size=16 vlen=1
            \t'arr' type_id=5 bits_offset=0
            [7] ENUM 'state' encoding=UNSIGNED size=4 vlen=2
            \t'RUNNING___v2' val=0
            \t'DEAD' val=1
            [8] STRUCT 'bits' size=4 vlen=2
            \t'lo' type_id=2 bits_offset=0 bitfield_size=5
            \t'mid' type_id=1 bits_offset=5 bitfield_size=3
            [9] STRUCT 'inner' size=4 vlen=1
            \t'b' type_id=1 bits_offset=0
            [10] TYPEDEF 'pid_t' type_id=1
            [11] STRUCT 'dup' size=4 vlen=1
            \t'x' type_id=1 bits_offset=0
            [12] STRUCT 'absent' size=4 vlen=1
            \t'x' type_id=1 bits_offset=0
            """, null);

    /** Target (kernel) side: the same names with other layouts. */
    private static final Btf TARGET = RawTextParser.parse(INTS + """
            [4] STRUCT 'task_struct' size=24 vlen=3
            \t'state' type_id=3 bits_offset=0
            \t'pid' type_id=1 bits_offset=64
            \t'flags' type_id=2 bits_offset=128
            [5] ARRAY '(anon)' type_id=1 index_type_id=1 nr_elems=8
            [6] UNION '(anon)' size=8 vlen=2
            \t'b' type_id=1 bits_offset=0
            \t'c' type_id=3 bits_offset=0
            [7] STRUCT 'holder' size=48 vlen=2
            \t'pad' type_id=3 bits_offset=0
            \t'arr' type_id=5 bits_offset=64
            [8] ENUM 'state' encoding=UNSIGNED size=4 vlen=2
            \t'DEAD' val=7
            \t'RUNNING' val=3
            [9] STRUCT 'bits' size=8 vlen=3
            \t'pad' type_id=2 bits_offset=0 bitfield_size=30
            \t'mid' type_id=1 bits_offset=30 bitfield_size=3
            \t'lo' type_id=2 bits_offset=33 bitfield_size=5
            [10] STRUCT 'inner' size=16 vlen=2
            \t'a' type_id=3 bits_offset=0
            \t'(anon)' type_id=6 bits_offset=64
            [11] TYPEDEF 'pid_t' type_id=1
            [12] STRUCT 'dup' size=8 vlen=1
            \t'x' type_id=1 bits_offset=0
            [13] STRUCT 'dup___v2' size=8 vlen=1
            \t'x' type_id=1 bits_offset=32
            """, null);

    private static final CoreRelocator RELOCATOR = new CoreRelocator(TARGET);

    private static ReloResult resolve(int typeId, String access, ReloKind kind) {
        return RELOCATOR.resolve(LOCAL, LocalRelo.parse(LOCAL, "sec", 0, 0, typeId, access, kind.ordinal()));
    }

    private static long value(int typeId, String access, ReloKind kind) {
        ReloResult r = resolve(typeId, access, kind);
        assertEquals(ReloResult.Status.MATCHED, r.status(), () -> String.valueOf(r));
        return r.value();
    }

    @Test
    void flavouredStructMatchesByEssentialName() {
        assertEquals(8, value(4, "0:0", ReloKind.FIELD_BYTE_OFFSET));
        assertEquals(4, value(4, "0:0", ReloKind.FIELD_BYTE_SIZE));
        assertEquals(1, value(4, "0:0", ReloKind.FIELD_SIGNED));
        assertEquals(0, value(4, "0:2", ReloKind.FIELD_SIGNED));
        assertEquals(16, value(4, "0:2", ReloKind.FIELD_BYTE_OFFSET));
        assertEquals(1, value(4, "0:0", ReloKind.FIELD_EXISTS));
        assertEquals(32, value(4, "0:0", ReloKind.FIELD_RSHIFT_U64));
        assertEquals(32, value(4, "0:0", ReloKind.FIELD_LSHIFT_U64));
        ReloResult r = resolve(4, "0:0", ReloKind.FIELD_BYTE_OFFSET);
        assertEquals(4, r.target().rootTypeId());
        assertEquals("[0, 1]", java.util.Arrays.toString(r.target().rawSpec()));
        assertEquals("struct task_struct.pid (0:1)", r.target().describe());
        assertEquals("struct task_struct___old.pid (0:0)", r.relo().spec().describe());
    }

    @Test
    void missingFieldIsZeroForExistsAndPoisonForReads() {
        ReloResult exists = resolve(4, "0:1", ReloKind.FIELD_EXISTS);
        assertEquals(ReloResult.Status.NOT_FOUND, exists.status());
        assertEquals(0, exists.value());
        assertTrue(exists.isResolved());
        ReloResult read = resolve(4, "0:1", ReloKind.FIELD_BYTE_OFFSET);
        assertEquals(ReloResult.Status.POISONED, read.status());
        assertTrue(!read.isResolved());
    }

    @Test
    void arrayElementsAndRootIndex() {
        assertEquals(8 + 2 * 4, value(6, "0:0:2", ReloKind.FIELD_BYTE_OFFSET));
        assertEquals(4, value(6, "0:0:2", ReloKind.FIELD_BYTE_SIZE));
        assertEquals(8, value(6, "0:0", ReloKind.FIELD_BYTE_OFFSET));
        assertEquals(32, value(6, "0:0", ReloKind.FIELD_BYTE_SIZE));
        assertEquals(48 + 8, value(6, "1:0", ReloKind.FIELD_BYTE_OFFSET)); // the root indexed as an array
        // index 3 is past the local array's 4? no: within; the target has 8, so it matches
        assertEquals(8 + 12, value(6, "0:0:3", ReloKind.FIELD_BYTE_OFFSET));
        ReloResult bad = resolve(6, "0:0:4", ReloKind.FIELD_BYTE_OFFSET);
        assertEquals(ReloResult.Status.ERROR, bad.status(), "the local spec itself is out of bounds");
    }

    @Test
    void memberInsideAnonymousUnion() {
        ReloResult r = resolve(9, "0:0", ReloKind.FIELD_BYTE_OFFSET);
        assertEquals(8, r.value());
        assertEquals("[0, 1, 0]", java.util.Arrays.toString(r.target().rawSpec()));
        assertEquals(List.of(new Accessor(10, 0, null), new Accessor(6, 0, "b")), r.target().accessors());
    }

    @Test
    void bitfieldsGiveTheSmallestAlignedLoadAndItsShifts() {
        // target 'mid': bits 30..32 of an int: a 4-byte load cannot hold it, an 8-byte load at 0 can
        assertEquals(0, value(8, "0:1", ReloKind.FIELD_BYTE_OFFSET));
        assertEquals(8, value(8, "0:1", ReloKind.FIELD_BYTE_SIZE));
        assertEquals(64 - 33, value(8, "0:1", ReloKind.FIELD_LSHIFT_U64));
        assertEquals(64 - 3, value(8, "0:1", ReloKind.FIELD_RSHIFT_U64));
        assertEquals(1, value(8, "0:1", ReloKind.FIELD_SIGNED));
        // target 'lo': bits 33..37: the 4-byte unit at byte 4
        assertEquals(4, value(8, "0:0", ReloKind.FIELD_BYTE_OFFSET));
        assertEquals(4, value(8, "0:0", ReloKind.FIELD_BYTE_SIZE));
        assertEquals(64 - (33 + 5 - 32), value(8, "0:0", ReloKind.FIELD_LSHIFT_U64));
        assertEquals(59, value(8, "0:0", ReloKind.FIELD_RSHIFT_U64));
        assertEquals(0, value(8, "0:0", ReloKind.FIELD_SIGNED));
    }

    @Test
    void enumValuesByEssentialEnumeratorName() {
        assertEquals(3, value(7, "0", ReloKind.ENUMVAL_VALUE));
        assertEquals(7, value(7, "1", ReloKind.ENUMVAL_VALUE));
        assertEquals(1, value(7, "0", ReloKind.ENUMVAL_EXISTS));
        ReloResult r = resolve(7, "0", ReloKind.ENUMVAL_VALUE);
        assertEquals(new Accessor(8, 1, "RUNNING"), r.target().accessor(0));
        assertEquals("enum state::RUNNING___v2 (0)", r.relo().spec().describe());
    }

    @Test
    void typeRelocations() {
        assertEquals(4, value(4, "0", ReloKind.TYPE_ID_TARGET));
        assertEquals(1, value(4, "0", ReloKind.TYPE_EXISTS));
        assertEquals(24, value(4, "0", ReloKind.TYPE_SIZE));
        assertEquals(11, value(10, "0", ReloKind.TYPE_ID_TARGET));
        assertEquals(4, value(10, "0", ReloKind.TYPE_SIZE));
        assertEquals(1, value(10, "0", ReloKind.TYPE_MATCHES));
        ReloResult local = resolve(4, "0", ReloKind.TYPE_ID_LOCAL);
        assertEquals(ReloResult.Status.LOCAL, local.status());
        assertEquals(4, local.value());
        for (ReloKind k : List.of(ReloKind.TYPE_EXISTS, ReloKind.TYPE_ID_TARGET, ReloKind.TYPE_SIZE, ReloKind.TYPE_MATCHES)) {
            ReloResult r = resolve(12, "0", k);
            assertEquals(ReloResult.Status.NOT_FOUND, r.status(), k.name());
            assertEquals(0, r.value());
        }
        assertEquals(ReloResult.Status.ERROR, resolve(4, "0:1", ReloKind.TYPE_EXISTS).status());
    }

    @Test
    void typeMatchesIsStricterThanExists() {
        // the local task_struct___old has 'gone', the target has not: it exists, but does not match
        assertEquals(1, value(4, "0", ReloKind.TYPE_EXISTS));
        ReloResult r = resolve(4, "0", ReloKind.TYPE_MATCHES);
        assertEquals(ReloResult.Status.NOT_FOUND, r.status());
        // 'holder': local array of 4, target of 8 — nelems differ
        assertEquals(ReloResult.Status.NOT_FOUND, resolve(6, "0", ReloKind.TYPE_MATCHES).status());
        // 'inner': TYPE_MATCHES does not look into anonymous members by name ('b' is in one)
        assertEquals(ReloResult.Status.NOT_FOUND, resolve(9, "0", ReloKind.TYPE_MATCHES).status());
    }

    @Test
    void candidatesThatDisagreeAreAnError() {
        ReloResult r = resolve(11, "0:0", ReloKind.FIELD_BYTE_OFFSET);
        assertEquals(ReloResult.Status.ERROR, r.status());
        assertTrue(r.error().contains("ambiguity"), r.error());
        assertEquals(List.of(12, 13), r.candidates());
        assertNull(r.target());
        // the type size agrees (both 8): two matching candidates, one value
        ReloResult size = resolve(11, "0", ReloKind.TYPE_SIZE);
        assertEquals(List.of(12, 13), size.matching());
        assertEquals(8, size.value());
    }

    @Test
    void malformedAccessStringsAreErrorsOfTheirRelocation() {
        for (String s : List.of("", ":0", "0::1", "a", "-1", "0:99", "99999999999")) {
            assertEquals(ReloResult.Status.ERROR, resolve(4, s, ReloKind.FIELD_BYTE_OFFSET).status(), s);
        }
        assertEquals(ReloResult.Status.ERROR, resolve(4, "0".repeat(1) + ":0".repeat(70), ReloKind.FIELD_BYTE_OFFSET).status());
        ReloResult unknown = RELOCATOR.resolve(LOCAL, LocalRelo.parse(LOCAL, "sec", 0, 0, 4, "0", 99));
        assertEquals(ReloResult.Status.ERROR, unknown.status());
    }

    @Test
    void splitTargetSearchesItsBaseFirstThenItsOwnTypes() {
        Btf base = RawTextParser.parse(INTS + """
                [4] STRUCT 'dup' size=8 vlen=1
                \t'x' type_id=1 bits_offset=32
                """, null);
        Btf split = RawTextParser.parse("""
                [5] STRUCT 'dup' size=8 vlen=1
                \t'x' type_id=1 bits_offset=0
                [6] STRUCT 'absent' size=16 vlen=1
                \t'x' type_id=1 bits_offset=64
                """, base);
        CoreRelocator r = new CoreRelocator(split);
        ReloResult inBase = r.resolve(LOCAL, LocalRelo.parse(LOCAL, "s", 0, 0, 11, "0:0", ReloKind.FIELD_BYTE_OFFSET.ordinal()));
        assertEquals(List.of(4), inBase.candidates(), "the module's own 'dup' is not looked at");
        assertEquals(4, inBase.value());
        ReloResult inSplit = r.resolve(LOCAL, LocalRelo.parse(LOCAL, "s", 0, 0, 12, "0:0", ReloKind.FIELD_BYTE_OFFSET.ordinal()));
        assertEquals(List.of(6), inSplit.candidates());
        assertEquals(8, inSplit.value());
        assertEquals(6, r.resolve(LOCAL, LocalRelo.parse(LOCAL, "s", 0, 0, 12, "0", ReloKind.TYPE_ID_TARGET.ordinal())).value());
    }

    @Test
    void recordsNamingMissingTypesOrStringsAreMalformedInput() {
        io.btfkit.core.ext.BtfExtInfo relos = new io.btfkit.core.ext.BtfExtInfo.Builder(io.btfkit.core.ext.BtfExtInfo.Kind.CORE_RELO)
                .section(1).record(0, 9999, 1, 0).build();
        io.btfkit.core.ext.BtfExt ext = io.btfkit.core.ext.BtfExt.of(
                io.btfkit.core.ext.BtfExtInfo.absent(io.btfkit.core.ext.BtfExtInfo.Kind.FUNC_INFO),
                io.btfkit.core.ext.BtfExtInfo.absent(io.btfkit.core.ext.BtfExtInfo.Kind.LINE_INFO), relos);
        io.btfkit.core.BtfFormatException e = org.junit.jupiter.api.Assertions.assertThrows(
                io.btfkit.core.BtfFormatException.class, () -> LocalRelo.parseAll(LOCAL, ext));
        assertTrue(e.getMessage().contains("type id 9999"), e.getMessage());
    }

    /**
     * A relocator limited to the names of a program's relocations gives every one of them the
     * full relocator's result, and still answers a name outside its set (from a full index).
     */
    @Test
    void aRelocatorForSomeNamesResolvesAsTheFullOne() {
        List<LocalRelo> relos = List.of(
                LocalRelo.parse(LOCAL, "s", 0, 0, 4, "0:0", ReloKind.FIELD_BYTE_OFFSET.ordinal()),
                LocalRelo.parse(LOCAL, "s", 1, 8, 11, "0:0", ReloKind.FIELD_BYTE_OFFSET.ordinal()),
                LocalRelo.parse(LOCAL, "s", 2, 16, 7, "1", ReloKind.ENUMVAL_VALUE.ordinal()),
                LocalRelo.parse(LOCAL, "s", 3, 24, 12, "0", ReloKind.TYPE_EXISTS.ordinal()),
                LocalRelo.parse(LOCAL, "s", 4, 32, 10, "0", ReloKind.TYPE_SIZE.ordinal()));
        CoreProgram prog = new CoreProgram("p", LOCAL, relos);
        assertEquals(java.util.Set.of("task_struct", "dup", "state", "absent", "pid_t"), prog.essentialNames());
        CoreRelocator limited = new CoreRelocator(TARGET, List.of(prog));
        for (LocalRelo r : relos) {
            assertEquals(shown(RELOCATOR.resolve(LOCAL, r)), shown(limited.resolve(LOCAL, r)), r.toString());
        }
        CoreRelocator other = new CoreRelocator(TARGET, List.of(new CoreProgram("q", LOCAL, List.of(relos.get(2)))));
        LocalRelo outside = relos.get(0);
        assertEquals(shown(RELOCATOR.resolve(LOCAL, outside)), shown(other.resolve(LOCAL, outside)), "a name outside the set");
        assertEquals(List.of(4), other.resolve(LOCAL, outside).matching());
    }

    /** A one-byte name and names sharing their first two bytes with others are found alike. */
    @Test
    void shortAndSimilarNamesAreFound() {
        Btf target = RawTextParser.parse(INTS + """
                [4] STRUCT 'a' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0
                [5] STRUCT 'ab' size=4 vlen=0
                [6] STRUCT 'a___2' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0
                [7] STRUCT 'abc___1' size=4 vlen=0
                """, null);
        Btf local = RawTextParser.parse(INTS + """
                [4] STRUCT 'a' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0
                [5] STRUCT 'abc' size=4 vlen=0
                """, null);
        List<LocalRelo> relos = List.of(LocalRelo.parse(local, "s", 0, 0, 4, "0", ReloKind.TYPE_SIZE.ordinal()),
                LocalRelo.parse(local, "s", 1, 0, 5, "0", ReloKind.TYPE_SIZE.ordinal()));
        CoreRelocator limited = new CoreRelocator(target, List.of(new CoreProgram("p", local, relos)));
        assertEquals(List.of(4, 6), limited.resolve(local, relos.get(0)).candidates());
        assertEquals(List.of(7), limited.resolve(local, relos.get(1)).candidates());
    }

    /** What a result says, for comparing two (a target spec has no equals). */
    static String shown(ReloResult r) {
        CoreSpec t = r.target();
        return r.status() + " " + r.value() + " " + r.candidates() + " " + r.matching() + " " + r.error() + " "
                + (t == null ? "-" : t.rootTypeId() + " " + t.describe() + " " + java.util.Arrays.toString(t.rawSpec()) + " " + t.bitOffset());
    }

    @Test
    void essentialNames() {
        assertEquals(11, TypeOps.essentialNameLength("task_struct___old"));
        assertEquals(5, TypeOps.essentialNameLength("a___b___x"), "the last separator counts");
        assertEquals(6, TypeOps.essentialNameLength("____ab"), "no separator: leading underscores");
        assertEquals(5, TypeOps.essentialNameLength("a____"), "a separator needs a non-underscore after it");
    }
}
