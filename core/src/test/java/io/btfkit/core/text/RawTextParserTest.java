package io.btfkit.core.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.Kind;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Hand-written raw text for every kind, both spellings, the extensions and the comment rules. */
class RawTextParserTest {

    static final String ALL_KINDS = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=CHAR
            [3] INT '_Bool' size=1 bits_offset=0 nr_bits=8 encoding=BOOL
            [4] INT 'unsigned int' size=4 bits_offset=0 nr_bits=32 encoding=(none)
            [5] PTR '(anon)' type_id=6
            [6] STRUCT 's1' size=8 vlen=3
            \t'f1' type_id=1 bits_offset=0
            \t'f2' type_id=1 bits_offset=32 bitfield_size=16
            \t'(anon)' type_id=7 bits_offset=48 bitfield_size=1
            [7] UNION 'u' size=4 vlen=2
            \t'a' type_id=1 bits_offset=0
            \t'b' type_id=4 bits_offset=0
            [8] ENUM 'e' encoding=UNSIGNED size=4 vlen=2
            \t'A' val=0
            \t'B' val=4294967295
            [9] ENUM 'se' encoding=SIGNED size=4 vlen=2
            \t'M' val=-2147483648
            \t'N' val=2147483647
            [10] FWD 'fs' fwd_kind=struct
            [11] FWD 'fu' fwd_kind=union
            [12] TYPEDEF 'td' type_id=1
            [13] VOLATILE '(anon)' type_id=1
            [14] CONST '(anon)' type_id=13
            [15] RESTRICT '(anon)' type_id=5
            [16] FUNC_PROTO '(anon)' ret_type_id=1 vlen=3
            \t'x' type_id=1
            \t'(anon)' type_id=5
            \t'(anon)' type_id=0
            [17] FUNC 'f_static' type_id=16 linkage=static
            [18] FUNC 'f_global' type_id=16 linkage=global
            [19] FUNC 'f_extern' type_id=16 linkage=extern
            [20] VAR 'v_static' type_id=1, linkage=static
            [21] VAR 'v_global' type_id=1, linkage=global
            [22] VAR 'v_extern' type_id=1, linkage=extern
            [23] DATASEC '.data' size=12 vlen=2
            \ttype_id=20 offset=0 size=4 (VAR 'v_static')
            \ttype_id=21 offset=4 size=8 (VAR 'v_global')
            [24] FLOAT 'double' size=8
            [25] DECL_TAG 'tag' type_id=6 component_idx=-1
            [26] DECL_TAG 'tag' type_id=6 component_idx=1
            [27] TYPE_TAG 'address_space(1)' type_id=1
            [28] ENUM64 'e64' encoding=UNSIGNED size=8 vlen=2
            \t'BIG' val=18446744073709551615ULL
            \t'HI' val=9223372036854775808ULL
            [29] ENUM64 's64' encoding=SIGNED size=8 vlen=2
            \t'MIN' val=-9223372036854775808LL
            \t'V' val=4886718345LL
            [30] ARRAY '(anon)' type_id=1 index_type_id=4 nr_elems=16
            [31] STRUCT 'empty' size=0 vlen=0
            [32] INT 'bits' size=1 bits_offset=2 nr_bits=3 encoding=(none)
            """;

    static Btf parse(String text) {
        return RawTextParser.parse(text, null);
    }

    /** The words of type {@code id} of a standalone BTF. */
    static int[] words(Btf btf, int id) {
        int s = btf.startOf(id);
        return Arrays.copyOfRange(btf.words(), s, s + btf.wordCount(id));
    }

    @Test
    void everyKindRoundTripsToTheSameText() {
        Btf btf = parse(ALL_KINDS);
        assertEquals(33, btf.typeCount());
        assertEquals(ALL_KINDS, RawTextPrinter.toText(btf));
    }

    @Test
    void everyKindHasTheExpectedWords() {
        Btf btf = parse(ALL_KINDS);
        assertEquals(1 << 24 | 32, btf.extra(1, 0), "INT SIGNED, 32 bits");
        assertEquals(0x00020003, btf.extra(32, 0), "INT bits_offset=2 nr_bits=3");
        assertEquals(6, btf.sizeOrType(5));
        // STRUCT with bitfields: kind_flag and offset words bitfield_size << 24 | bits_offset
        assertTrue(btf.kindFlag(6));
        assertEquals(3, btf.vlen(6));
        assertEquals(0, btf.extra(6, 2));
        assertEquals(16 << 24 | 32, btf.extra(6, 5));
        assertEquals(0, btf.extra(6, 6), "'(anon)' member has name_off 0");
        assertEquals(1 << 24 | 48, btf.extra(6, 8));
        assertFalse(btf.kindFlag(7));
        assertEquals(-1, btf.extra(8, 3), "unsigned 4294967295 is word 0xffffffff");
        assertFalse(btf.kindFlag(8));
        assertTrue(btf.kindFlag(9));
        assertEquals(Integer.MIN_VALUE, btf.extra(9, 1));
        assertFalse(btf.kindFlag(10));
        assertTrue(btf.kindFlag(11));
        assertEquals(0, btf.vlen(17));
        assertEquals(Kind.LINKAGE_GLOBAL, btf.vlen(18), "FUNC linkage lives in vlen");
        assertEquals(Kind.LINKAGE_EXTERN, btf.vlen(19));
        assertEquals(Kind.LINKAGE_GLOBAL, btf.extra(21, 0));
        assertEquals(Kind.LINKAGE_EXTERN, btf.extra(22, 0));
        assertArrayEquals(new int[] {20, 0, 4, 21, 4, 8}, Arrays.copyOfRange(words(btf, 23), 3, 9));
        assertEquals(-1, btf.extra(25, 0));
        assertEquals(1, btf.extra(26, 0));
        assertEquals(btf.nameOff(25), btf.nameOff(26), "equal names share one string");
        assertEquals("address_space(1)", btf.name(27));
        assertArrayEquals(new int[] {-1, -1}, new int[] {btf.extra(28, 1), btf.extra(28, 2)});
        assertArrayEquals(new int[] {0, 0x80000000}, new int[] {btf.extra(28, 4), btf.extra(28, 5)});
        assertTrue(btf.kindFlag(29));
        assertArrayEquals(new int[] {0, 0x80000000}, new int[] {btf.extra(29, 1), btf.extra(29, 2)});
        assertArrayEquals(new int[] {0x23456789, 1}, new int[] {btf.extra(29, 4), btf.extra(29, 5)});
        assertArrayEquals(new int[] {0, Kind.info(Kind.ARRAY, 0, false), 0, 1, 4, 16}, words(btf, 30));
        assertEquals(Kind.info(Kind.STRUCT, 0, false), btf.info(31));
    }

    @Test
    void stringsAreAddedInFirstUseOrderEmptyFirst() {
        Btf btf = parse("""
                [1] STRUCT 'b' size=4 vlen=2
                \t'a' type_id=2 bits_offset=0
                \t'b' type_id=2 bits_offset=0
                [2] INT 'c' size=4 bits_offset=0 nr_bits=32 encoding=(none)
                """);
        assertEquals("\0b\0a\0c\0", new String(btf.strings().bytes(), StandardCharsets.ISO_8859_1));
    }

    @Test
    void selftestSpellingIsAccepted() {
        String selftest = """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] VAR 'var1' type_id=1, linkage=global-alloc
                [3] DATASEC 'datasec1' size=12 vlen=1
                \ttype_id=2 offset=4 size=8
                [4] ENUM64 'e1' encoding=SIGNED size=8 vlen=2
                \t'v1' val=-1
                \t'v2' val=4886718345
                [5] ENUM64 'e2' encoding=UNSIGNED size=8 vlen=1
                \t'v3' val=18446744073709551615
                """;
        Btf btf = parse(selftest);
        assertEquals(Kind.LINKAGE_GLOBAL, btf.extra(2, 0));
        assertEquals("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] VAR 'var1' type_id=1, linkage=global
                [3] DATASEC 'datasec1' size=12 vlen=1
                \ttype_id=2 offset=4 size=8 (VAR 'var1')
                [4] ENUM64 'e1' encoding=SIGNED size=8 vlen=2
                \t'v1' val=-1LL
                \t'v2' val=4886718345LL
                [5] ENUM64 'e2' encoding=UNSIGNED size=8 vlen=1
                \t'v3' val=18446744073709551615ULL
                """, RawTextPrinter.toText(btf));
    }

    @Test
    void commentsBlankLinesAndCrlfAreSkippedAnywhere() {
        Btf btf = parse("# header comment\r\n\r\n[1] STRUCT 's' size=4 vlen=2\r\n"
                + "\t# a comment between members\n   \n\t'a' type_id=2 bits_offset=0\n"
                + "#\n\t'b' type_id=2 bits_offset=0\n[2] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n# end");
        assertEquals(3, btf.typeCount());
        assertEquals(2, btf.vlen(1));
        assertEquals("b", btf.string(btf.extra(1, 3)));
    }

    @Test
    void namesAreTakenVerbatimBetweenTheOuterQuotes() {
        String text = "[1] TYPEDEF 'it''s a  name' type_id=0\n"
                + "[2] STRUCT 'has \\'quotes\\' ' size=4 vlen=1\n"
                + "\t' m' x=1 '' type_id=0 bits_offset=0\n"
                + "[3] TYPEDEF '' type_id=0\n"
                + "[4] TYPEDEF '(anon)' type_id=0\n"
                + "[5] TYPEDEF 'caf\u00e9 \t tab' type_id=0\n";
        Btf btf = parse(text);
        assertEquals("it''s a  name", btf.strings().latin1(btf.nameOff(1)));
        assertEquals("has \\'quotes\\' ", btf.strings().latin1(btf.nameOff(2)));
        assertEquals(" m' x=1 '", btf.strings().latin1(btf.extra(2, 0)));
        assertEquals(0, btf.nameOff(3), "'' is no name");
        assertEquals(0, btf.nameOff(4), "'(anon)' is no name");
        byte[] raw = Arrays.copyOfRange(btf.strings().bytes(), btf.nameOff(5), btf.nameOff(5) + 10);
        assertArrayEquals("caf\u00e9 \t tab".getBytes(StandardCharsets.ISO_8859_1), raw, "one byte per char");
        assertEquals(text.replace("TYPEDEF ''", "TYPEDEF '(anon)'"), RawTextPrinter.toText(btf));
    }

    @Test
    void extensionsExpressWhatBpftoolCannotShow() {
        Btf btf = parse("""
                [1] INT 'odd' size=4 bits_offset=0 nr_bits=32 encoding=0x3
                [2] TYPE_TAG 'attr' type_id=1 kind_flag=1
                [3] DECL_TAG 'attr' type_id=1 component_idx=-1 kind_flag=1
                [4] STRUCT 'flagged' size=4 vlen=1 kind_flag=1
                \t'a' type_id=1 bits_offset=0
                [5] FUNC_PROTO '(anon)' ret_type_id=0 vlen=0
                [6] FUNC 'f' type_id=5 linkage=7
                [7] VAR 'v' type_id=1, linkage=4000000000
                [8] ENUM 'e' encoding=SIGNED size=4 vlen=0 kind_flag=1
                """);
        assertEquals(3 << 24 | 32, btf.extra(1, 0));
        assertTrue(btf.kindFlag(2));
        assertTrue(btf.kindFlag(3));
        assertTrue(btf.kindFlag(4));
        assertEquals(0, btf.extra(4, 2), "no bitfield: offset word unchanged");
        assertEquals(7, btf.vlen(6));
        assertEquals((int) 4000000000L, btf.extra(7, 0));
        assertTrue(btf.kindFlag(8));
        String text = RawTextPrinter.toText(btf);
        assertTrue(text.contains("encoding=UNKN") && text.contains("linkage=(unknown)"), text);
    }

    @Test
    void bitfieldSizeZeroStillSetsKindFlag() {
        Btf btf = parse("[1] STRUCT 's' size=4 vlen=1\n\t'a' type_id=0 bits_offset=8 bitfield_size=0\n");
        assertTrue(btf.kindFlag(1));
        assertEquals(8, btf.extra(1, 2));
    }

    @Test
    void splitTextIsReadOnItsBase() {
        BtfBuilder bb = new BtfBuilder();
        bb.addInt("int", 4, Kind.INT_SIGNED);
        bb.addStruct("base_s", 4);
        bb.addMember("x", 1, 0, 0);
        Btf base = bb.build();
        String text = """
                [3] PTR '(anon)' type_id=4
                [4] STRUCT 'base_s' size=8 vlen=1
                \t'new_member' type_id=1 bits_offset=0
                """;
        Btf split = RawTextParser.parse(text, base);
        assertTrue(split.isSplit());
        assertEquals(3, split.firstId());
        assertEquals(5, split.typeCount());
        assertEquals(base.nameOff(2), split.nameOff(4), "a name of the base is referenced there");
        assertEquals(base.strings().end(), split.extra(4, 0), "a new name starts the split strings");
        assertEquals(text, RawTextPrinter.toText(split));
    }

    @Test
    void emptyTextGivesNoTypes() {
        assertEquals(1, parse("").typeCount());
        assertEquals(1, parse("# nothing\n\n").typeCount());
    }

    @Test
    void forwardReferencesWithinTheTextAreAllowed() {
        Btf btf = parse("[1] PTR '(anon)' type_id=3\n[2] PTR '(anon)' type_id=2\n[3] STRUCT 's' size=0 vlen=0\n");
        assertEquals(3, btf.sizeOrType(1));
        assertEquals(2, btf.sizeOrType(2));
    }

    @Test
    void charactersAboveOneByteAreRejected() {
        BtfFormatException e = assertThrows(BtfFormatException.class,
                () -> parse("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n[2] TYPEDEF '\u20ac' type_id=1\n"));
        assertTrue(e.getMessage().startsWith("line 2: character U+20AC"), e.getMessage());
    }

    @Test
    void looksLikeTextChecksTheFirstSignificantLine() {
        assertTrue(RawTextParser.looksLikeText("[1] INT 'int' size=4".getBytes(StandardCharsets.US_ASCII)));
        assertTrue(RawTextParser.looksLikeText("# c\n\n  \t\r\n[100751] CONST".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(RawTextParser.looksLikeText("".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(RawTextParser.looksLikeText("# only a comment\n".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(RawTextParser.looksLikeText("[x] INT".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(RawTextParser.looksLikeText("[1]INT".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(RawTextParser.looksLikeText(new byte[] {(byte) 0x9f, (byte) 0xeb, 1, 0}));
        assertFalse(RawTextParser.looksLikeText(new byte[] {0x7f, 'E', 'L', 'F'}));
    }
}
