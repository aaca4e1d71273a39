package io.btfkit.core.text;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.Kind;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Malformed raw text: each error names its line and says what was expected. */
class RawTextParserErrorsTest {
    static final String INT = "[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n";

    static Stream<Arguments> cases() {
        return Stream.of(
                bad("misspelled field", INT + "[2] PTR '(anon)' tipe_id=1\n",
                        "line 2: expected 'type_id=' after the name of PTR, found 'tipe_id=1'"),
                bad("missing field", INT + "[2] ARRAY '(anon)' type_id=1 nr_elems=3\n",
                        "line 2: expected 'index_type_id=' after type_id of ARRAY, found 'nr_elems=3'"),
                bad("missing last field", "[1] INT 'int' size=4 bits_offset=0 nr_bits=32\n",
                        "line 1: expected 'encoding=' after nr_bits of INT, found end of line"),
                bad("extra field", INT + "[2] PTR '(anon)' type_id=1 size=8\n",
                        "line 2: unexpected 'size=8' after the fields of PTR"),
                bad("unknown kind", INT + "[2] POINTER '(anon)' type_id=1\n", "line 2: unknown kind 'POINTER'"),
                bad("UNKNOWN kind", "[1] UNKNOWN 'x'\n", "line 1: kind UNKNOWN cannot be read back"),
                bad("u32 overflow", "[1] INT 'int' size=4294967296 bits_offset=0 nr_bits=32 encoding=SIGNED\n",
                        "line 1: size=4294967296 is out of range 0..4294967295"),
                bad("negative unsigned", INT + "[2] ARRAY '(anon)' type_id=1 index_type_id=1 nr_elems=-1\n",
                        "line 2: nr_elems=-1 is negative; nr_elems is unsigned"),
                bad("not a number", INT + "[2] PTR '(anon)' type_id=1x\n", "line 2: type_id=1x is not a decimal number"),
                bad("empty number", INT + "[2] PTR '(anon)' type_id=\n",
                        "line 2: expected a number after 'type_id=', found end of line"),
                bad("INT bits too wide", "[1] INT 'int' size=4 bits_offset=0 nr_bits=256 encoding=SIGNED\n",
                        "line 1: nr_bits=256 is out of range 0..255"),
                bad("member line without header", "\t'a' type_id=1 bits_offset=0\n",
                        "line 1: member line before any type line"),
                bad("member line after a memberless kind", INT + "\t'a' type_id=1 bits_offset=0\n",
                        "line 2: member line after [1] INT at line 1, which has no members"),
                bad("more members than vlen", INT + "[2] STRUCT 's' size=4 vlen=1\n\t'a' type_id=1 bits_offset=0\n"
                        + "\t'b' type_id=1 bits_offset=0\n", "line 4: member line beyond vlen=1 of [2] STRUCT at line 2"),
                bad("fewer members than vlen", INT + "[2] STRUCT 's' size=4 vlen=3\n\t'a' type_id=1 bits_offset=0\n"
                        + "[3] PTR '(anon)' type_id=1\n", "line 2: [2] STRUCT has vlen=3 but only 1 member line follows"),
                bad("members missing at end of input", INT + "[2] ENUM 'e' encoding=UNSIGNED size=4 vlen=2\n",
                        "line 2: [2] ENUM has vlen=2 but no member line follows"),
                bad("ids not consecutive", INT + "[3] PTR '(anon)' type_id=1\n",
                        "line 2: expected type id [2], found [3] (ids must be consecutive)"),
                bad("huge id", "[99999999999999999999] INT 'int' size=4\n",
                        "line 1: expected type id [1], found [99999999999999999999] (text without a base starts at [1]"),
                bad("split text without a base", "[100751] PTR '(anon)' type_id=1\n",
                        "line 1: expected type id [1], found [100751] (text without a base starts at [1]"),
                bad("reference past the last type", INT + "[2] PTR '(anon)' type_id=7\n[3] PTR '(anon)' type_id=2\n",
                        "line 2: type_id=7 refers to no type (the last id is 3)"),
                bad("array index past the last type", INT + "# c\n[2] ARRAY '(anon)' type_id=1 index_type_id=9 nr_elems=1\n",
                        "line 3: index_type_id=9 refers to no type (the last id is 2)"),
                bad("unterminated name", INT + "[2] TYPEDEF 'td type_id=1\n",
                        "line 2: expected a closing ' after the name of TYPEDEF"),
                bad("name not quoted", INT + "[2] TYPEDEF td type_id=1\n",
                        "line 2: expected the name in single quotes after the kind TYPEDEF, found 'td'"),
                bad("member indented with spaces", INT + "[2] STRUCT 's' size=4 vlen=1\n    'a' type_id=1 bits_offset=0\n",
                        "line 3: expected a type line '[ID] KIND 'NAME' ...' or a member line starting with one TAB, found a space"),
                bad("garbage line", INT + "hello\n", "line 2: expected a type line"),
                bad("VAR without the comma", INT + "[2] VAR 'v' type_id=1 linkage=static\n",
                        "line 2: expected ', linkage=' after type_id of VAR"),
                bad("bad linkage", INT + "[2] VAR 'v' type_id=1, linkage=weak\n",
                        "line 2: expected linkage static, global, global-alloc, extern or a number, found 'weak'"),
                bad("unknown linkage", INT + "[2] FUNC_PROTO '(anon)' ret_type_id=0 vlen=0\n[3] FUNC 'f' type_id=2 linkage=(unknown)\n",
                        "line 3: linkage=(unknown) does not say which linkage the FUNC has; write its value as linkage=N"),
                bad("UNKN int encoding", "[1] INT 'i' size=4 bits_offset=0 nr_bits=32 encoding=UNKN\n",
                        "line 1: encoding=UNKN does not say which encoding the INT has"),
                bad("bad int encoding", "[1] INT 'i' size=4 bits_offset=0 nr_bits=32 encoding=signed\n",
                        "line 1: expected encoding (none), SIGNED, CHAR, BOOL or 0xN, found 'signed'"),
                bad("hex encoding too big", "[1] INT 'i' size=4 bits_offset=0 nr_bits=32 encoding=0x10\n",
                        "line 1: encoding=0x10 is out of range 0x0..0xf"),
                bad("bad enum encoding", "[1] ENUM 'e' encoding=signed size=4 vlen=0\n",
                        "line 1: expected encoding=SIGNED or encoding=UNSIGNED, found 'signed'"),
                bad("negative value of unsigned enum", "[1] ENUM 'e' encoding=UNSIGNED size=4 vlen=1\n\t'a' val=-1\n",
                        "line 2: val=-1 is negative; val is unsigned"),
                bad("signed enum overflow", "[1] ENUM 'e' encoding=SIGNED size=4 vlen=1\n\t'a' val=2147483648\n",
                        "line 2: val=2147483648 is out of range -2147483648..2147483647"),
                bad("enum64 overflow", "[1] ENUM64 'e' encoding=UNSIGNED size=8 vlen=1\n\t'a' val=18446744073709551616ULL\n",
                        "line 2: val=18446744073709551616ULL is out of range 0..18446744073709551615"),
                bad("enum64 signed overflow", "[1] ENUM64 'e' encoding=SIGNED size=8 vlen=1\n\t'a' val=-9223372036854775809LL\n",
                        "line 2: val=-9223372036854775809LL is out of range -9223372036854775808..9223372036854775807"),
                bad("enum64 wrong suffix", "[1] ENUM64 'e' encoding=SIGNED size=8 vlen=1\n\t'a' val=1ULL\n",
                        "line 2: val=1ULL is not a decimal number"),
                bad("negative enum64 unsigned", "[1] ENUM64 'e' encoding=UNSIGNED size=8 vlen=1\n\t'a' val=-1\n",
                        "line 2: val=-1 is negative; the values of an UNSIGNED ENUM64 are unsigned"),
                bad("bad fwd kind", "[1] FWD 'f' fwd_kind=enum\n",
                        "line 1: expected fwd_kind=struct or fwd_kind=union, found 'enum'"),
                bad("bitfield too large", INT + "[2] STRUCT 's' size=4 vlen=1\n\t'a' type_id=1 bits_offset=0 bitfield_size=256\n",
                        "line 3: bitfield_size=256 is out of range 0..255"),
                bad("wide offset with bitfields", INT + "[2] STRUCT 's' size=4 vlen=2\n\t'a' type_id=1 bits_offset=16777216\n"
                        + "\t'b' type_id=1 bits_offset=0 bitfield_size=1\n",
                        "line 3: bits_offset does not fit in 24 bits, but [2] STRUCT has kind_flag"),
                bad("wide offset with kind_flag=1", INT + "[2] STRUCT 's' size=4 vlen=1 kind_flag=1\n"
                        + "\t'a' type_id=1 bits_offset=16777216\n",
                        "line 3: bits_offset does not fit in 24 bits, but [2] STRUCT has kind_flag"),
                bad("member without its quote", INT + "[2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1\n\ttype_id=1\n",
                        "line 3: expected a name in single quotes at the start of a FUNC_PROTO parameter, found 'type_id=1'"),
                bad("datasec entry misspelled", INT + "[2] DATASEC '.d' size=4 vlen=1\n\ttype_id=1 off=0 size=4\n",
                        "line 3: expected 'offset=' after type_id of DATASEC entry, found 'off=0'"),
                bad("datasec trailing junk", INT + "[2] DATASEC '.d' size=4 vlen=1\n\ttype_id=1 offset=0 size=4 junk\n",
                        "line 3: unexpected 'junk' after the fields of DATASEC entry"),
                bad("vlen too large", "[1] STRUCT 's' size=4 vlen=16777216\n",
                        "line 1: vlen=16777216 is out of range 0..16777215"),
                bad("double space", INT + "[2] PTR '(anon)'  type_id=1\n",
                        "line 2: expected 'type_id=' after the name of PTR, found an extra space"),
                bad("kind_flag=0", INT + "[2] PTR '(anon)' type_id=1 kind_flag=0\n",
                        "line 2: kind_flag=0 is not allowed; write kind_flag=1 or leave it out"),
                bad("kind_flag contradicts encoding", "[1] ENUM 'e' encoding=UNSIGNED size=4 vlen=0 kind_flag=1\n",
                        "line 1: kind_flag=1 contradicts encoding=UNSIGNED"),
                bad("component_idx overflow", INT + "[2] DECL_TAG 't' type_id=1 component_idx=-2147483649\n",
                        "line 2: component_idx=-2147483649 is out of range -2147483648..2147483647"),
                bad("id not a number", "[one] INT 'int' size=4\n", "line 1: expected a type id in decimal after '[', found 'one]'"));
    }

    static Arguments bad(String what, String text, String messagePrefix) {
        return Arguments.of(what, text, messagePrefix);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rejectsWithLineAndReason(String what, String text, String messagePrefix) {
        BtfFormatException e = assertThrows(BtfFormatException.class, () -> RawTextParser.parse(text, null));
        assertTrue(e.getMessage().startsWith(messagePrefix), "message was: " + e.getMessage());
    }

    @Test
    void splitTextMustStartAfterItsBase() {
        BtfBuilder bb = new BtfBuilder();
        bb.addInt("int", 4, Kind.INT_SIGNED);
        Btf base = bb.build();
        BtfFormatException e = assertThrows(BtfFormatException.class,
                () -> RawTextParser.parse("# split\n[1] PTR '(anon)' type_id=1\n", base));
        assertTrue(e.getMessage().startsWith("line 2: expected type id [2], found [1] (split text starts right after the base, whose last id is 1)"),
                e.getMessage());
    }
}
