package io.btfkit.gcc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfWriter;
import io.btfkit.validate.Validator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One hand-made gcc 12 input per quirk: what link normalises, what --fix rewrites, what is only counted. */
class GccNormalizerTest {
    private static final GccNormalizer.Level LINK = GccNormalizer.Level.LINK;
    private static final GccNormalizer.Level FIX = GccNormalizer.Level.FIX;

    private static String body(Btf btf) {
        String d = GccText.dump(btf);
        return d.substring(d.indexOf("[9] "));
    }

    @Test
    void fwdWordBecomesZeroAndEnumDeclarationBecomesAnEnum() {
        GccNormalizer.UnitResult r = GccText.one(LINK, GccText.PROLOGUE + """
                [9] FWD 'task' fwd_kind=struct type=6
                [10] FWD 'pid_type' fwd_kind=struct type=8
                [11] FWD 'u' fwd_kind=union type=7
                [12] PTR '(anon)' type_id=10
                """);
        assertEquals("""
                [9] FWD 'task' fwd_kind=struct
                [10] ENUM 'pid_type' encoding=UNSIGNED size=4 vlen=0
                [11] FWD 'u' fwd_kind=union
                [12] PTR '(anon)' type_id=10
                """, body(r.btf()));
        assertEquals(0, r.btf().sizeOrType(9));
        assertEquals(3, r.applied().count(GccQuirk.FWD_TYPE_FIELD));
        assertEquals(1, r.applied().count(GccQuirk.ENUM_FWD));
        assertEquals(10, r.applied().firstId(GccQuirk.ENUM_FWD));
        assertNull(r.idMap());
    }

    @Test
    void theInputIsNotModified() {
        Btf in = GccText.parse(GccText.PROLOGUE + "[9] FWD 'task' fwd_kind=struct type=6\n");
        byte[] before = BtfWriter.write(in);
        GccText.link(FIX, in);
        assertArrayEquals(before, BtfWriter.write(in));
        assertEquals(6, in.sizeOrType(9));
    }

    @Test
    void arrayOfUnknownBoundGetsTheUnitsIndexType() {
        GccNormalizer.UnitResult r = GccText.one(LINK, GccText.PROLOGUE + """
                [9] ARRAY '(anon)' type_id=2 index_type_id=1 nr_elems=4
                [10] ARRAY '(anon)' type_id=2 index_type_id=0 nr_elems=0
                """);
        assertEquals("""
                [9] ARRAY '(anon)' type_id=2 index_type_id=1 nr_elems=4
                [10] ARRAY '(anon)' type_id=2 index_type_id=1 nr_elems=0
                """, body(r.btf()));
        assertEquals(1, r.applied().count(GccQuirk.ARRAY_INDEX_VOID));
    }

    @Test
    void aUnitWithoutAnIndexTypeBorrowsTheLinksMostCommonOne() {
        Btf lonely = GccText.parse("""
                [1] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=0x3
                [2] ARRAY '(anon)' type_id=1 index_type_id=0 nr_elems=0
                [3] VAR '_end' type_id=2, linkage=global
                """);
        Btf other = GccText.parse(GccText.PROLOGUE + "[9] ARRAY '(anon)' type_id=2 index_type_id=1 nr_elems=4\n");
        Btf out = GccText.link(LINK, lonely, other).get(0).units().get(0).btf();
        assertEquals("""
                [1] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=UNKN
                [2] ARRAY '(anon)' type_id=1 index_type_id=4 nr_elems=0
                [3] VAR '_end' type_id=2, linkage=global
                [4] INT 'long unsigned int' size=8 bits_offset=0 nr_bits=64 encoding=(none)
                """, GccText.dump(out));
    }

    @Test
    void charEncodingIsCountedByLinkAndRewrittenByFix() {
        String text = GccText.PROLOGUE + "[9] INT 'signed char' size=1 bits_offset=0 nr_bits=8 encoding=0x3\n";
        GccNormalizer.UnitResult link = GccText.one(LINK, text);
        assertEquals(2, link.kept().count(GccQuirk.CHAR_ENCODING));
        assertEquals(0, link.applied().count(GccQuirk.CHAR_ENCODING));
        GccNormalizer.UnitResult fix = GccText.one(FIX, text);
        assertEquals("[9] INT 'signed char' size=1 bits_offset=0 nr_bits=8 encoding=SIGNED\n", body(fix.btf()));
        assertTrue(GccText.dump(fix.btf()).contains("[3] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=SIGNED\n"));
        assertEquals(2, fix.applied().count(GccQuirk.CHAR_ENCODING));
    }

    @Test
    void fixRemovesAnonymousFuncsAndRenumbers() {
        GccNormalizer.UnitResult r = GccText.one(FIX, GccText.PROLOGUE + """
                [9] FUNC_PROTO '(anon)' ret_type_id=2 vlen=1
                \t'x' type_id=2
                [10] FUNC '(anon)' type_id=9 linkage=static
                [11] PTR '(anon)' type_id=9
                [12] FUNC 'f' type_id=9 linkage=static
                [13] FUNC '(anon)' type_id=9 linkage=static
                [14] DECL_TAG 'kept' type_id=13 component_idx=-1
                """);
        assertEquals("""
                [9] FUNC_PROTO '(anon)' ret_type_id=2 vlen=1
                \t'x' type_id=2
                [10] PTR '(anon)' type_id=9
                [11] FUNC 'f' type_id=9 linkage=static
                [12] FUNC '(anon)' type_id=9 linkage=static
                [13] DECL_TAG 'kept' type_id=12 component_idx=-1
                """, body(r.btf()));
        assertEquals(1, r.applied().count(GccQuirk.ANON_FUNC));
        assertEquals(1, r.kept().count(GccQuirk.ANON_FUNC));
        assertEquals(0, r.idMap()[10]);
        assertEquals(10, r.idMap()[11]);
        assertEquals(13, r.idMap()[14]);
    }

    @Test
    void fixKeepsTheCopyOfAVariableItsDatasecLists() {
        GccNormalizer.UnitResult r = GccText.one(FIX, GccText.PROLOGUE + """
                [9] VAR 'counter' type_id=2, linkage=global
                [10] VAR 'counter' type_id=2, linkage=global
                [11] DATASEC '.data' size=0 vlen=1
                \ttype_id=10 offset=0 size=4
                [12] PTR '(anon)' type_id=3
                """);
        assertEquals("""
                [9] VAR 'counter' type_id=2, linkage=global
                [10] DATASEC '.data' size=0 vlen=1
                \ttype_id=9 offset=0 size=4 (VAR 'counter')
                [11] PTR '(anon)' type_id=3
                """, body(r.btf()));
        assertEquals(1, r.applied().count(GccQuirk.DUPLICATE_VAR));
        assertEquals(9, r.idMap()[9]);
        assertEquals(9, r.idMap()[10]);
        assertEquals(1, r.kept().count(GccQuirk.DATASEC_LAYOUT));
    }

    @Test
    void duplicatesNeitherListedStayAndAreCounted() {
        GccNormalizer.UnitResult r = GccText.one(FIX, GccText.PROLOGUE + """
                [9] VAR 'v' type_id=2, linkage=global
                [10] VAR 'v' type_id=2, linkage=global
                """);
        assertEquals(2, r.kept().count(GccQuirk.DUPLICATE_VAR));
        assertNull(r.idMap());
    }

    @Test
    void enumsThatLostValuesOrSignAreReported() {
        GccNormalizer.UnitResult r = GccText.one(FIX, GccText.PROLOGUE + """
                [9] ENUM 'big' encoding=UNSIGNED size=8 vlen=0
                [10] ENUM 'neg' encoding=UNSIGNED size=4 vlen=2
                \t'N1' val=4294967295
                \t'N2' val=2
                [11] ENUM 'small' encoding=UNSIGNED size=4 vlen=1
                \t'S' val=3
                """);
        assertEquals(1, r.kept().count(GccQuirk.ENUM_SIZE8));
        assertEquals(9, r.kept().firstId(GccQuirk.ENUM_SIZE8));
        assertEquals(1, r.kept().count(GccQuirk.ENUM_UNSIGNED));
        assertEquals(10, r.kept().firstId(GccQuirk.ENUM_UNSIGNED));
    }

    @Test
    void btfOfOtherProducersPassesThroughUntouched() {
        Btf clang = GccText.parse("""
                [1] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=SIGNED
                [2] FWD 's' fwd_kind=struct
                [3] VAR 'x' type_id=1, linkage=global
                [4] DATASEC '.bss' size=0 vlen=1
                \ttype_id=3 offset=0 size=1
                """);
        GccNormalizer.FileResult r = GccText.link(FIX, clang).get(0);
        assertSame(clang, r.units().get(0).btf());
        assertTrue(r.applied().isEmpty() && r.kept().isEmpty());
        assertNull(QuirkCounts.describe(r.applied(), r.kept()));
    }

    @Test
    void concatenatedUnitsAreCountedAndEachNormalised() {
        Btf a = GccText.parse(GccText.PROLOGUE + "[9] FWD 'e' fwd_kind=struct type=8\n");
        Btf b = GccText.parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] ENUM 'e' encoding=UNSIGNED size=4 vlen=1
                \t'E' val=0
                """);
        GccNormalizer.FileResult r = GccNormalizer.normalize(GccText.input("ld-r.o", a, b), LINK);
        assertEquals(2, r.applied().count(GccQuirk.CONCATENATED_BLOBS));
        assertEquals(1, r.applied().count(GccQuirk.ENUM_FWD));
        assertEquals("normalised 4 GCC encodings (1 gcc-fwd-type-field, 1 gcc-enum-fwd, 2 gcc-concatenated-blobs);"
                + " kept 1 (1 gcc-char-encoding)", QuirkCounts.describe(r.applied(), r.kept()));
        assertSame(b, r.units().get(1).btf());
    }

    @Test
    void linkNormalisedBtfPassesTheStructuralRules() {
        GccNormalizer.UnitResult r = GccText.one(LINK, GccText.PROLOGUE + """
                [9] FWD 'task' fwd_kind=struct type=6
                [10] FWD 'pid_type' fwd_kind=struct type=8
                [11] ARRAY '(anon)' type_id=2 index_type_id=0 nr_elems=0
                [12] VAR 'v' type_id=11, linkage=global
                [13] PTR '(anon)' type_id=9
                [14] PTR '(anon)' type_id=10
                """);
        assertEquals(List.of(), Validator.validate(r.btf(), Validator.Options.STRUCTURAL));
        assertEquals(1, r.btf().extra(11, 1), "the unit's own 'long unsigned int' indexes it");
        assertEquals(14, r.btf().ownTypeCount());
    }
}
