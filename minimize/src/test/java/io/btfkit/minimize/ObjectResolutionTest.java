package io.btfkit.minimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.text.RawTextParser;
import io.btfkit.core.text.RawTextPrinter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An object's relocations resolved together, as libbpf resolves them: one candidate list per
 * local type, cut down after each match ({@link CandidateLists}); and what libbpf does to each
 * instruction ({@link InsnPatch}), a load of a field whose size changed above all. The same cases
 * are checked against libbpf itself in corpus (CoreHardCasesTest, CoreDifferentialTest).
 */
class ObjectResolutionTest {
    private static final String INTS = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] INT 'unsigned int' size=4 bits_offset=0 nr_bits=32 encoding=(none)
            [3] INT 'short' size=2 bits_offset=0 nr_bits=16 encoding=SIGNED
            [4] INT 'long unsigned int' size=8 bits_offset=0 nr_bits=64 encoding=(none)
            [5] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=(none)
            [6] INT '_Bool' size=1 bits_offset=0 nr_bits=8 encoding=BOOL
            """;

    /** The program's types: s {x, y}; t {a: ta, b: tb}; w {i, u, p, c, q}. */
    private static final Btf LOCAL = RawTextParser.parse(INTS + """
            [7] STRUCT 's' size=8 vlen=2
            \t'x' type_id=1 bits_offset=0
            \t'y' type_id=1 bits_offset=32
            [8] STRUCT 'ta' size=4 vlen=1
            \t'a' type_id=1 bits_offset=0
            [9] STRUCT 'tb' size=4 vlen=1
            \t'b' type_id=1 bits_offset=0
            [10] STRUCT 't' size=8 vlen=2
            \t'a' type_id=8 bits_offset=0
            \t'b' type_id=9 bits_offset=32
            [11] PTR '(anon)' type_id=1
            [12] STRUCT 'w' size=32 vlen=5
            \t'i' type_id=1 bits_offset=0
            \t'u' type_id=2 bits_offset=32
            \t'p' type_id=11 bits_offset=64
            \t'c' type_id=6 bits_offset=128
            \t'q' type_id=2 bits_offset=160
            """, null);

    private static ReloResult[] resolve(String target, List<LocalRelo> relos, Map<String, byte[]> code) {
        Btf t = RawTextParser.parse(target, null);
        CoreProgram p = new CoreProgram("p", LOCAL, relos, code == null ? ProgramCode.NONE : ProgramCode.of(code, ByteOrder.LITTLE_ENDIAN));
        return new CoreRelocator(t).resolveAll(p).toArray(new ReloResult[0]);
    }

    private static LocalRelo relo(int index, int insn, int typeId, String access, ReloKind kind) {
        return LocalRelo.parse(LOCAL, "kprobe/p", index, insn * 8, typeId, access, kind.ordinal());
    }

    private static final String S_FLAVOURS = INTS + """
            [7] STRUCT 's___1' size=4 vlen=1
            \t'x' type_id=1 bits_offset=0
            [8] STRUCT 's___2' size=12 vlen=3
            \t'pad' type_id=1 bits_offset=0
            \t'x' type_id=1 bits_offset=32
            \t'y' type_id=1 bits_offset=64
            """;

    @Test
    void aMatchNarrowsTheCandidatesOfTheNextRelocationOnTheSameType() {
        ReloResult[] r = resolve(S_FLAVOURS, List.of(relo(0, 0, 7, "0:1", ReloKind.FIELD_BYTE_OFFSET),
                relo(1, 1, 7, "0:0", ReloKind.FIELD_BYTE_OFFSET)), null);
        assertEquals(List.of(8), r[0].matching());
        assertEquals(8, r[0].value());
        assertEquals(List.of(8), r[1].candidates(), "only s___2 is left");
        assertEquals(ReloResult.Status.MATCHED, r[1].status());
        assertEquals(4, r[1].value());
        // on its own, #1 meets both flavours, and they disagree
        Btf target = RawTextParser.parse(S_FLAVOURS, null);
        ReloResult alone = new CoreRelocator(target).resolve(LOCAL, relo(1, 1, 7, "0:0", ReloKind.FIELD_BYTE_OFFSET));
        assertEquals(ReloResult.Status.ERROR, alone.status());
        assertEquals("field offset ambiguity: 32 != 0 (bit offsets in candidates [8] and [7])", alone.why());
    }

    @Test
    void theTargetSpecIsTheFirstMatchAmongTheCandidatesLeft() {
        ReloResult[] r = resolve(INTS + """
                [7] STRUCT 's___1' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0
                [8] STRUCT 's___2' size=8 vlen=2
                \t'x' type_id=1 bits_offset=0
                \t'y' type_id=1 bits_offset=32
                """, List.of(relo(0, 0, 7, "0:1", ReloKind.FIELD_BYTE_OFFSET), relo(1, 1, 7, "0:0", ReloKind.FIELD_BYTE_OFFSET)), null);
        assertEquals(8, r[1].target().rootTypeId());
        assertEquals(0, r[1].value());
    }

    @Test
    void aRelocationTheCandidatesLeftCannotMatchIsPoisoned() {
        String target = INTS + """
                [7] STRUCT 'ta' size=4 vlen=1
                \t'a' type_id=1 bits_offset=0
                [8] STRUCT 'tb' size=4 vlen=1
                \t'b' type_id=1 bits_offset=0
                [9] STRUCT 't___a' size=4 vlen=1
                \t'a' type_id=7 bits_offset=0
                [10] STRUCT 't___b' size=8 vlen=1
                \t'b' type_id=8 bits_offset=32
                """;
        ReloResult[] r = resolve(target, List.of(relo(0, 0, 10, "0:0:0", ReloKind.FIELD_BYTE_OFFSET),
                relo(1, 1, 10, "0:1:0", ReloKind.FIELD_BYTE_OFFSET), relo(2, 2, 10, "0:1:0", ReloKind.FIELD_EXISTS)), null);
        assertEquals(List.of(9), r[0].matching());
        assertEquals(ReloResult.Status.POISONED, r[1].status());
        assertEquals("no matching targets found", r[1].why());
        assertEquals(List.of(9), r[1].candidates());
        // nothing matched: the list stays as it was
        assertEquals(List.of(9), r[2].candidates());
        assertEquals(ReloResult.Status.NOT_FOUND, r[2].status());
    }

    @Test
    void anErrorOrTypeIdLocalLeavesTheListAlone() {
        ReloResult[] r = resolve(S_FLAVOURS, List.of(relo(0, 0, 7, "0:0", ReloKind.FIELD_BYTE_OFFSET),
                relo(1, 1, 7, "0", ReloKind.TYPE_ID_LOCAL), relo(2, 2, 7, "0:1", ReloKind.FIELD_BYTE_OFFSET),
                relo(3, 3, 7, "0", ReloKind.TYPE_SIZE)), null);
        assertEquals(ReloResult.Status.ERROR, r[0].status());
        assertEquals(ReloResult.Status.LOCAL, r[1].status());
        assertEquals(List.of(7, 8), r[2].candidates());
        assertEquals(List.of(8), r[3].candidates(), "a type relocation shares the field relocations' list");
        assertEquals(12, r[3].value());
    }

    /** Every call is a new object: nothing carries over. */
    @Test
    void eachObjectStartsWithTheFullList() {
        Btf t = RawTextParser.parse(S_FLAVOURS, null);
        CoreRelocator relocator = new CoreRelocator(t);
        CoreProgram p = new CoreProgram("p", LOCAL, List.of(relo(0, 0, 7, "0:1", ReloKind.FIELD_BYTE_OFFSET)));
        CoreProgram q = new CoreProgram("q", LOCAL, List.of(relo(0, 0, 7, "0", ReloKind.TYPE_EXISTS)));
        relocator.resolveAll(p);
        assertEquals(List.of(7, 8), relocator.resolveAll(q).get(0).matching());
    }

    /** w's fields with other sizes: int -> short, unsigned int -> long unsigned int, pointer, _Bool -> char. */
    private static final String W_RESIZED = INTS + """
            [7] PTR '(anon)' type_id=3
            [8] STRUCT 'w' size=40 vlen=5
            \t'i' type_id=3 bits_offset=0
            \t'u' type_id=4 bits_offset=64
            \t'p' type_id=7 bits_offset=128
            \t'c' type_id=5 bits_offset=192
            \t'q' type_id=1 bits_offset=224
            """;

    private static byte[] insns(int... codeRegsOffImm) {
        ByteBuffer b = ByteBuffer.allocate(codeRegsOffImm.length / 3 * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < codeRegsOffImm.length; i += 3) {
            b.put((byte) codeRegsOffImm[i]).put((byte) 0x21).putShort((short) codeRegsOffImm[i + 1]).putInt(codeRegsOffImm[i + 2]);
        }
        return b.array();
    }

    private static final int LDX_W = 0x61;
    private static final int LDX_DW = 0x79;
    private static final int LDX_B = 0x71;
    private static final int STX_W = 0x63;
    private static final int MOV64_K = 0xb7;
    private static final int ADD64_X = 0x0f;
    private static final int JA = 0x05;

    @Test
    void aLoadOfAFieldWhoseSizeChangedIsPoisonedUnlessBothAreUnsignedOrPointers() {
        byte[] code = insns(LDX_W, 0, 0, // #0 r = p->i (int -> short: signed)
                MOV64_K, 0, 0,              // #1 r = offset of i (an ALU use of the same offset)
                LDX_W, 4, 0,                // #2 r = p->u (unsigned int -> long unsigned int)
                LDX_DW, 8, 0,               // #3 r = p->p (pointer -> pointer: 8 bytes both)
                LDX_B, 16, 0,               // #4 r = p->c (_Bool -> char: both "not SIGNED")
                STX_W, 20, 0);              // #5 p->q = r (unsigned int -> int)
        List<LocalRelo> relos = new ArrayList<>();
        String[] access = {"0:0", "0:0", "0:1", "0:2", "0:3", "0:4"};
        for (int i = 0; i < access.length; i++) {
            relos.add(relo(i, i, 12, access[i], ReloKind.FIELD_BYTE_OFFSET));
        }
        ReloResult[] r = resolve(W_RESIZED, relos, Map.of("kprobe/p", code));
        assertEquals(ReloResult.Status.POISONED, r[0].status());
        assertEquals(0, r[0].target().bitOffset(), "the spec matched: the minimal BTF keeps it");
        assertTrue(r[0].why().startsWith("insn #0 (LDX/ST/STX) accesses field incorrectly"), r[0].why());
        assertEquals(ReloResult.Status.MATCHED, r[1].status());
        assertEquals(ReloResult.Status.MATCHED, r[2].status());
        assertEquals(8, r[2].value());
        assertEquals(ReloResult.Status.MATCHED, r[3].status());
        assertEquals(ReloResult.Status.MATCHED, r[4].status());
        assertEquals(ReloResult.Status.MATCHED, r[5].status(), "same size: nothing to resize");
        // without the instructions the value is all there is
        ReloResult[] blind = resolve(W_RESIZED, relos, null);
        assertEquals(ReloResult.Status.MATCHED, blind[0].status());
    }

    @Test
    void instructionsLibbpfCannotPatchFailTheLoad() {
        String bigger = INTS + """
                [7] STRUCT 'w' size=65536 vlen=2
                \t'i' type_id=1 bits_offset=262144
                \t'u' type_id=4 bits_offset=64
                """;
        byte[] code = insns(LDX_W, 0, 0, // #0 p->i at 32768: past a 16-bit offset
                MOV64_K, 0, 7,              // #1 an immediate that is not the local value
                ADD64_X, 0, 0,              // #2 a register operand
                JA, 0, 0,                   // #3 a jump
                LDX_DW, 4, 0);              // #4 p->u loaded with 8 bytes where the local field has 4
        List<LocalRelo> relos = List.of(relo(0, 0, 12, "0:0", ReloKind.FIELD_BYTE_OFFSET),
                relo(1, 1, 12, "0:0", ReloKind.FIELD_BYTE_OFFSET), relo(2, 2, 12, "0:0", ReloKind.FIELD_BYTE_OFFSET),
                relo(3, 3, 12, "0:0", ReloKind.FIELD_BYTE_OFFSET), relo(4, 4, 12, "0:1", ReloKind.FIELD_BYTE_OFFSET));
        ReloResult[] r = resolve(bigger, relos, Map.of("kprobe/p", code));
        assertEquals("insn #0 (LDX/ST/STX) value too big: 32768", r[0].why());
        assertEquals("unexpected insn #1 (ALU/ALU64) value: got 7, exp 0 -> 32768", r[1].why());
        assertTrue(r[2].why().contains("register"), r[2].why());
        assertTrue(r[3].why().startsWith("trying to relocate unrecognized insn #3"), r[3].why());
        assertEquals("insn #4 (LDX/ST/STX) unexpected mem size: got 8, exp 4", r[4].why());
        for (ReloResult x : r) {
            assertEquals(ReloResult.Status.INSN_ERROR, x.status(), x.why());
            assertTrue(x.failsLoad());
            assertTrue(x.target() != null, "resolved: bpftool minimizes it");
        }
    }

    @Test
    void anLdimm64IsPatchedOrPoisonedWholeAndARecordWithoutAnInstructionIsResolvedAlone() {
        // r1 = 4 ll (type_size of the local ta: 4 bytes), in two slots; the second slot is all zeros
        byte[] ldimm64 = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).put((byte) 0x18).put((byte) 0x01).putShort((short) 0)
                .putInt(4).putLong(0).array();
        ReloResult[] r = resolve(S_FLAVOURS, List.of(relo(0, 0, 9, "0", ReloKind.TYPE_SIZE), relo(1, 9, 7, "0:1", ReloKind.FIELD_BYTE_OFFSET)),
                Map.of("kprobe/p", ldimm64));
        assertEquals(ReloResult.Status.NOT_FOUND, r[0].status(), "no 'ta' in the target: its size is 0");
        assertEquals(ReloResult.Status.MATCHED, r[1].status(), "no instruction #9: the value alone");
        assertNull(r[1].why());
        ldimm64[9] = 0x10; // a second slot that names a register
        r = resolve(S_FLAVOURS, List.of(relo(0, 0, 9, "0", ReloKind.TYPE_SIZE)), Map.of("kprobe/p", ldimm64));
        assertEquals("insn #0 (LDIMM64) has unexpected form", r[0].why());
    }

    /** The third case of the issue, minimized: bpftool's rule keeps s___1.x and s___2.y only. */
    @Test
    void whereTheFirstMatchesAloneWouldResolveOtherwiseEveryMatchIsKept() {
        Btf target = RawTextParser.parse(INTS + """
                [7] STRUCT 's___1' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0
                [8] STRUCT 's___2' size=8 vlen=2
                \t'x' type_id=1 bits_offset=0
                \t'y' type_id=1 bits_offset=32
                """, null);
        CoreProgram xThenY = new CoreProgram("p", LOCAL, List.of(relo(0, 0, 7, "0:0", ReloKind.FIELD_BYTE_OFFSET),
                relo(1, 1, 7, "0:1", ReloKind.FIELD_BYTE_OFFSET)));
        Minimizer m = new Minimizer(target);
        m.recordAll(new CoreRelocator(target), xThenY);
        String out = RawTextPrinter.toText(m.build());
        assertEquals(1, m.widened().size());
        assertEquals(1, m.widened().get(0).relocation().relo().index());
        assertEquals("p", m.widened().get(0).object());
        assertEquals("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 's___1' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0
                [3] STRUCT 's___2' size=8 vlen=2
                \t'x' type_id=1 bits_offset=0
                \t'y' type_id=1 bits_offset=32
                """, out);
        // y then x: the first matches suffice, the output is bpftool's
        CoreProgram yThenX = new CoreProgram("p", LOCAL, List.of(relo(0, 0, 7, "0:1", ReloKind.FIELD_BYTE_OFFSET),
                relo(1, 1, 7, "0:0", ReloKind.FIELD_BYTE_OFFSET)));
        Minimizer n = new Minimizer(target);
        n.recordAll(new CoreRelocator(target), yThenX);
        assertEquals("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 's___2' size=8 vlen=2
                \t'x' type_id=1 bits_offset=0
                \t'y' type_id=1 bits_offset=32
                """, RawTextPrinter.toText(n.build()));
        assertTrue(n.widened().isEmpty());
    }
}
