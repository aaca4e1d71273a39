package io.btfkit.distill;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import io.btfkit.core.text.RawTextParser;
import io.btfkit.core.text.RawTextPrinter;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** Hand-made cases for each distillation rule: what goes to the base, what is copied, numbering, strings, errors. */
class DistillerTest {

    private static String text(Btf btf) {
        return RawTextPrinter.toText(btf);
    }

    private static Btf parse(String text) {
        return RawTextParser.parse(text, null);
    }

    private static Btf parse(String text, Btf base) {
        return RawTextParser.parse(text, base);
    }

    /** The kernel selftest's case (prog_tests/btf_distill.c, "distilled_base"), same expectations. */
    @Test
    void selftestDistilledBase() {
        Btf base = parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] PTR '(anon)' type_id=1
                [3] STRUCT 's1' size=8 vlen=1
                \t'f1' type_id=2 bits_offset=0
                [4] STRUCT '(anon)' size=12 vlen=2
                \t'f1' type_id=1 bits_offset=0
                \t'f2' type_id=3 bits_offset=32
                [5] INT 'unsigned int' size=4 bits_offset=0 nr_bits=32 encoding=(none)
                [6] UNION 'u1' size=12 vlen=2
                \t'f1' type_id=1 bits_offset=0
                \t'f2' type_id=2 bits_offset=0
                [7] UNION '(anon)' size=4 vlen=1
                \t'f1' type_id=1 bits_offset=0
                [8] ENUM 'e1' encoding=UNSIGNED size=4 vlen=1
                \t'v1' val=1
                [9] ENUM '(anon)' encoding=UNSIGNED size=4 vlen=1
                \t'av1' val=2
                [10] ENUM64 'e641' encoding=SIGNED size=8 vlen=1
                \t'v1' val=1024
                [11] ENUM64 '(anon)' encoding=SIGNED size=8 vlen=1
                \t'v1' val=1025
                [12] STRUCT 'unneeded' size=4 vlen=1
                \t'f1' type_id=1 bits_offset=0
                [13] STRUCT 'embedded' size=4 vlen=1
                \t'f1' type_id=1 bits_offset=0
                [14] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1
                \t'p1' type_id=1
                [15] ARRAY '(anon)' type_id=1 index_type_id=1 nr_elems=3
                [16] STRUCT 'from_proto' size=4 vlen=1
                \t'f1' type_id=1 bits_offset=0
                [17] UNION 'u1' size=4 vlen=1
                \t'f1' type_id=1 bits_offset=0
                """);
        Btf split = parse("""
                [18] PTR '(anon)' type_id=3
                [19] PTR '(anon)' type_id=4
                [20] CONST '(anon)' type_id=6
                [21] RESTRICT '(anon)' type_id=7
                [22] VOLATILE '(anon)' type_id=8
                [23] TYPEDEF 'et' type_id=9
                [24] CONST '(anon)' type_id=10
                [25] PTR '(anon)' type_id=11
                [26] STRUCT 'with_embedded' size=4 vlen=1
                \t'f1' type_id=13 bits_offset=0
                [27] FUNC 'fn' type_id=14 linkage=static
                [28] TYPEDEF 'arraytype' type_id=15
                [29] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1
                \t'p1' type_id=16
                """, base);
        Distiller.Result r = Distiller.distill(split);
        assertEquals("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 's1' size=8 vlen=0
                [3] UNION 'u1' size=12 vlen=0
                [4] ENUM 'e1' encoding=UNSIGNED size=4 vlen=0
                [5] ENUM 'e641' encoding=UNSIGNED size=8 vlen=0
                [6] STRUCT 'embedded' size=4 vlen=0
                [7] STRUCT 'from_proto' size=4 vlen=0
                """, text(r.distilledBase()));
        assertEquals("""
                [8] PTR '(anon)' type_id=2
                [9] PTR '(anon)' type_id=20
                [10] CONST '(anon)' type_id=3
                [11] RESTRICT '(anon)' type_id=21
                [12] VOLATILE '(anon)' type_id=4
                [13] TYPEDEF 'et' type_id=22
                [14] CONST '(anon)' type_id=5
                [15] PTR '(anon)' type_id=23
                [16] STRUCT 'with_embedded' size=4 vlen=1
                \t'f1' type_id=6 bits_offset=0
                [17] FUNC 'fn' type_id=24 linkage=static
                [18] TYPEDEF 'arraytype' type_id=25
                [19] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1
                \t'p1' type_id=7
                [20] STRUCT '(anon)' size=12 vlen=2
                \t'f1' type_id=1 bits_offset=0
                \t'f2' type_id=2 bits_offset=32
                [21] UNION '(anon)' size=4 vlen=1
                \t'f1' type_id=1 bits_offset=0
                [22] ENUM '(anon)' encoding=UNSIGNED size=4 vlen=1
                \t'av1' val=2
                [23] ENUM64 '(anon)' encoding=SIGNED size=8 vlen=1
                \t'v1' val=1025LL
                [24] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1
                \t'p1' type_id=1
                [25] ARRAY '(anon)' type_id=1 index_type_id=1 nr_elems=3
                """, text(r.newSplit()));
        assertSame(r.distilledBase(), r.newSplit().base());
    }

    @Test
    void referencesThroughReferenceTypesAreFollowedButNotIntoNamedStructs() {
        Btf base = parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                # 'long' is only a member of the named 's': not needed
                [2] INT 'long' size=8 bits_offset=0 nr_bits=64 encoding=SIGNED
                [3] STRUCT 's' size=16 vlen=2
                \t'a' type_id=1 bits_offset=0
                \t'b' type_id=2 bits_offset=64
                [4] TYPEDEF 's_t' type_id=3
                [5] PTR '(anon)' type_id=4
                """);
        Distiller.Result r = Distiller.distill(parse("""
                [6] CONST '(anon)' type_id=5
                [7] PTR '(anon)' type_id=1
                """, base));
        assertEquals("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 's' size=16 vlen=0
                """, text(r.distilledBase()));
        assertEquals("""
                [3] CONST '(anon)' type_id=6
                [4] PTR '(anon)' type_id=1
                [5] TYPEDEF 's_t' type_id=2
                [6] PTR '(anon)' type_id=5
                """, text(r.newSplit()));
    }

    @Test
    void intFloatAndFwdAreKeptWholeEnumsBecomeSizedUnsignedEnums() {
        Btf base = parse("""
                [1] INT 'u3' size=1 bits_offset=2 nr_bits=3 encoding=(none)
                [2] FLOAT 'double' size=8
                [3] FWD 'fw' fwd_kind=union
                [4] ENUM 'se' encoding=SIGNED size=2 vlen=1
                \t'neg' val=-1
                [5] ENUM64 'big' encoding=UNSIGNED size=8 vlen=1
                \t'v' val=1099511627776ULL
                """);
        Distiller.Result r = Distiller.distill(parse("""
                [6] STRUCT 'user' size=32 vlen=3
                \t'a' type_id=1 bits_offset=0
                \t'b' type_id=2 bits_offset=64
                \t'c' type_id=7 bits_offset=128
                [7] PTR '(anon)' type_id=3
                [8] VOLATILE '(anon)' type_id=4
                [9] VOLATILE '(anon)' type_id=5
                """, base));
        assertEquals("""
                [1] INT 'u3' size=1 bits_offset=2 nr_bits=3 encoding=(none)
                [2] FLOAT 'double' size=8
                [3] FWD 'fw' fwd_kind=union
                [4] ENUM 'se' encoding=UNSIGNED size=2 vlen=0
                [5] ENUM 'big' encoding=UNSIGNED size=8 vlen=0
                """, text(r.distilledBase()));
        assertEquals("""
                [6] STRUCT 'user' size=32 vlen=3
                \t'a' type_id=1 bits_offset=0
                \t'b' type_id=2 bits_offset=64
                \t'c' type_id=7 bits_offset=128
                [7] PTR '(anon)' type_id=3
                [8] VOLATILE '(anon)' type_id=4
                [9] VOLATILE '(anon)' type_id=5
                """, text(r.newSplit()));
    }

    @Test
    void stringsFollowLibbpfOrderAndReuseDistilledBaseNames() {
        Btf base = parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 'task' size=8 vlen=1
                \t'x' type_id=1 bits_offset=0
                [3] STRUCT '(anon)' size=4 vlen=1
                \t'zeta' type_id=1 bits_offset=0
                """);
        Distiller.Result r = Distiller.distill(parse("""
                # a member named like a distilled type takes its name from the distilled base
                [4] STRUCT 'mod' size=16 vlen=2
                \t'task' type_id=2 bits_offset=0
                \t'alpha' type_id=3 bits_offset=64
                """, base));
        assertArrayEquals("\0int\0task\0".getBytes(), r.distilledBase().strings().bytes());
        assertArrayEquals("mod\0alpha\0zeta\0".getBytes(), r.newSplit().strings().bytes(),
                "own types' strings first, then the copied anonymous struct's; 'task' and 'int' reused from the base");
        assertEquals(5, r.newSplit().extra(3, 0), "member 'task' names the distilled base's string");
    }

    @Test
    void outputsKeepTheInputByteOrderWithAClassicHeader() {
        Btf base = parse("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n");
        Btf beBase = BtfReader.read(BtfWriter.write(base, base.format().withOrder(ByteOrder.BIG_ENDIAN)));
        Distiller.Result r = Distiller.distill(parse("[2] PTR '(anon)' type_id=1\n", beBase));
        assertEquals(ByteOrder.BIG_ENDIAN, r.distilledBase().format().order());
        assertEquals(ByteOrder.BIG_ENDIAN, r.newSplit().format().order());
        assertEquals(24, r.newSplit().format().headerLength());
        Btf back = BtfReader.read(BtfWriter.write(r.newSplit()), BtfReader.read(BtfWriter.write(r.distilledBase())));
        assertEquals("[2] PTR '(anon)' type_id=1\n", text(back));
    }

    @Test
    void aReferenceToABaseFuncIsAnErrorNamingThePath() {
        Btf base = parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=0
                [3] FUNC 'helper' type_id=2 linkage=global
                # not C, but it reaches a FUNC through a base typedef
                [4] TYPEDEF 'fn_t' type_id=3
                """);
        Btf split = parse("[5] PTR '(anon)' type_id=4\n", base);
        OperationException e = assertThrows(OperationException.class, () -> Distiller.distill(split));
        assertEquals("split type [5] (via [4]) refers to base type [3] FUNC 'helper'; a distilled base can only stand for"
                + " INT, FLOAT, FWD, STRUCT, UNION, ENUM, ENUM64 and reference types", e.getMessage());
    }

    @Test
    void referencesToBaseVarDatasecAndDeclTagAreErrors() {
        Btf base = parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] VAR 'counter' type_id=1, linkage=global
                [3] DATASEC '.data' size=4 vlen=1
                \ttype_id=2 offset=0 size=4
                [4] DECL_TAG 'tag' type_id=2 component_idx=-1
                """);
        for (int target = 2; target <= 4; target++) {
            Btf split = parse("[5] DECL_TAG 'mine' type_id=" + target + " component_idx=-1\n", base);
            OperationException e = assertThrows(OperationException.class, () -> Distiller.distill(split));
            assertTrue(e.getMessage().contains("refers to base type [" + target + "] " + Kind.name(base.kind(target))),
                    e.getMessage());
        }
    }

    @Test
    void standaloneInputIsAnError() {
        Btf standalone = parse("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n");
        OperationException e = assertThrows(OperationException.class, () -> Distiller.distill(standalone));
        assertTrue(e.getMessage().contains("standalone"));
    }

    @Test
    void aNamedEnumOfOddSizeCannotBeDistilled() {
        Btf base = parse("[1] ENUM 'odd' encoding=UNSIGNED size=3 vlen=0\n");
        Btf split = parse("[2] PTR '(anon)' type_id=1\n", base);
        OperationException x = assertThrows(OperationException.class, () -> Distiller.distill(split));
        assertEquals("base type [1] ENUM 'odd' has size 3; a distilled enum must have size 1, 2, 4 or 8", x.getMessage());
    }

    @Test
    void aSplitWithoutBaseReferencesGivesAnEmptyDistilledBase() {
        Btf base = parse("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n");
        Distiller.Result r = Distiller.distill(parse("""
                [2] INT 'mine' size=2 bits_offset=0 nr_bits=16 encoding=(none)
                [3] PTR '(anon)' type_id=2
                """, base));
        assertEquals(0, r.distilledBase().ownTypeCount());
        assertEquals("""
                [1] INT 'mine' size=2 bits_offset=0 nr_bits=16 encoding=(none)
                [2] PTR '(anon)' type_id=1
                """, text(r.newSplit()));
    }
}
