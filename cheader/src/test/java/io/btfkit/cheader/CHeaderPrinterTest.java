package io.btfkit.cheader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import io.btfkit.core.text.RawTextParser;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The C printer on hand-written BTF: each case is raw text in, C out (the part between
 * bpftool's prologue and epilogue). Every expected text here was checked against
 * {@code bpftool btf dump file F format c} (bpftool 7.1).
 */
class CHeaderPrinterTest {

    // Inputs of the cases below (also compiled, with layout assertions, by CHeaderCompileTest).

    static final String CYCLES = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] STRUCT 'a' size=16 vlen=2
            \t'b' type_id=3 bits_offset=0
            \t'n' type_id=1 bits_offset=64
            [3] PTR '(anon)' type_id=4
            [4] STRUCT 'b' size=8 vlen=1
            \t'a' type_id=5 bits_offset=0
            [5] PTR '(anon)' type_id=2
            [6] PTR '(anon)' type_id=7
            [7] TYPEDEF 'tp' type_id=8
            [8] STRUCT 'tps' size=16 vlen=2
            \t'x' type_id=6 bits_offset=0
            \t'in' type_id=9 bits_offset=64
            [9] STRUCT 'inner' size=4 vlen=1
            \t'v' type_id=1 bits_offset=0
            """;

    static final String BITFIELDS = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] INT 'unsigned char' size=1 bits_offset=0 nr_bits=8 encoding=(none)
            [3] INT 'long long unsigned int' size=8 bits_offset=0 nr_bits=64 encoding=(none)
            [4] STRUCT 'bf' size=8 vlen=3
            \t'x' type_id=1 bits_offset=0 bitfield_size=3
            \t'y' type_id=1 bits_offset=16 bitfield_size=5
            \t'z' type_id=1 bits_offset=40 bitfield_size=2
            [5] STRUCT 'flags' size=16 vlen=4
            \t'on' type_id=2 bits_offset=0 bitfield_size=1
            \t'mode' type_id=2 bits_offset=1 bitfield_size=3
            \t'big' type_id=3 bits_offset=64 bitfield_size=60
            \t'tail' type_id=2 bits_offset=124 bitfield_size=4
            """;

    static final String PACKED = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=(none)
            [3] INT 'long int' size=8 bits_offset=0 nr_bits=64 encoding=SIGNED
            [4] STRUCT 'tight' size=5 vlen=2
            \t'a' type_id=1 bits_offset=0
            \t'b' type_id=2 bits_offset=32
            [5] STRUCT 'odd' size=9 vlen=2
            \t'c' type_id=2 bits_offset=0
            \t'l' type_id=3 bits_offset=8
            [6] STRUCT 'holder' size=32 vlen=3
            \t'x' type_id=4 bits_offset=0
            \t'y' type_id=5 bits_offset=64
            \t'z' type_id=1 bits_offset=192
            [7] STRUCT 'aligned' size=64 vlen=2
            \t'a' type_id=1 bits_offset=0
            \t'b' type_id=3 bits_offset=128
            """;

    static final String ANONYMOUS = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] STRUCT 'nest' size=32 vlen=3
            \t'(anon)' type_id=3 bits_offset=0
            \t'e' type_id=5 bits_offset=128
            \t'p' type_id=6 bits_offset=192
            [3] UNION '(anon)' size=16 vlen=2
            \t'q' type_id=1 bits_offset=0
            \t'(anon)' type_id=4 bits_offset=0
            [4] STRUCT '(anon)' size=16 vlen=2
            \t'r' type_id=1 bits_offset=0
            \t's' type_id=8 bits_offset=64
            [5] ENUM '(anon)' encoding=UNSIGNED size=4 vlen=1
            \t'E1' val=0
            [6] PTR '(anon)' type_id=7
            [7] STRUCT '(anon)' size=4 vlen=1
            \t'w' type_id=1 bits_offset=0
            [8] PTR '(anon)' type_id=2
            [9] TYPEDEF 'anon_t' type_id=10
            [10] STRUCT '(anon)' size=4 vlen=1
            \t'v' type_id=11 bits_offset=0
            [11] TYPEDEF 'late_t' type_id=1
            [12] ENUM '(anon)' encoding=UNSIGNED size=4 vlen=2
            \t'TOP_A' val=1
            \t'TOP_B' val=2
            """;

    static final String FUNCTIONS = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=(none)
            [3] FUNC_PROTO '(anon)' ret_type_id=4 vlen=2
            \t'x' type_id=1
            \t'(anon)' type_id=0
            [4] PTR '(anon)' type_id=2
            [5] PTR '(anon)' type_id=3
            [6] ARRAY '(anon)' type_id=5 index_type_id=1 nr_elems=4
            [7] TYPEDEF 'fnarr_t' type_id=6
            [8] FUNC_PROTO '(anon)' ret_type_id=5 vlen=0
            [9] PTR '(anon)' type_id=8
            [10] STRUCT 'fp' size=64 vlen=5
            \t'f' type_id=6 bits_offset=0
            \t'g' type_id=9 bits_offset=256
            \t'h' type_id=12 bits_offset=320
            \t'm' type_id=14 bits_offset=384
            \t'cb' type_id=16 bits_offset=448
            [11] CONST '(anon)' type_id=1
            [12] ARRAY '(anon)' type_id=11 index_type_id=1 nr_elems=2
            [13] ARRAY '(anon)' type_id=2 index_type_id=1 nr_elems=3
            [14] ARRAY '(anon)' type_id=13 index_type_id=1 nr_elems=2
            [15] FUNC_PROTO '(anon)' ret_type_id=0 vlen=2
            \t'(anon)' type_id=18
            \t'fn' type_id=5
            [16] PTR '(anon)' type_id=15
            [17] ARRAY '(anon)' type_id=1 index_type_id=1 nr_elems=8
            [18] PTR '(anon)' type_id=17
            [19] VOLATILE '(anon)' type_id=3
            [20] PTR '(anon)' type_id=19
            [21] TYPEDEF 'volfp' type_id=20
            [22] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1
            \t'(anon)' type_id=0
            [23] TYPEDEF 'noargs_t' type_id=22
            """;

    static final String ENUMS = """
            [1] ENUM 'state' encoding=SIGNED size=4 vlen=3
            \t'S_NEG' val=-1
            \t'S_ZERO' val=0
            \t'S_MAX' val=2147483647
            [2] ENUM 'uflags' encoding=UNSIGNED size=4 vlen=2
            \t'U_LOW' val=1
            \t'U_HIGH' val=4294967295
            [3] ENUM64 'wide' encoding=UNSIGNED size=8 vlen=2
            \t'W_SMALL' val=5
            \t'W_BIG' val=18446744073709551615
            [4] ENUM64 'swide' encoding=SIGNED size=8 vlen=2
            \t'SW_MIN' val=-9223372036854775808
            \t'SW_BIG' val=4886718345
            [5] ENUM 'hint' encoding=UNSIGNED size=1 vlen=2
            \t'H_NONE' val=0
            \t'H_SHORT' val=1
            [6] ENUM64 'fits32' encoding=UNSIGNED size=8 vlen=1
            \t'F_ONE' val=1
            [7] ENUM 'decl' encoding=UNSIGNED size=4 vlen=0
            [8] FLOAT 'double' size=8
            [9] STRUCT 'uses' size=32 vlen=4
            \t'h' type_id=5 bits_offset=0
            \t'd' type_id=10 bits_offset=64
            \t'w' type_id=3 bits_offset=128
            \t'x' type_id=8 bits_offset=192
            [10] PTR '(anon)' type_id=7
            """;

    static final String QUALIFIERS = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=(none)
            [3] PTR '(anon)' type_id=2
            [4] RESTRICT '(anon)' type_id=3
            [5] CONST '(anon)' type_id=4
            [6] PTR '(anon)' type_id=5
            [7] VOLATILE '(anon)' type_id=6
            [8] TYPE_TAG 'user' type_id=1
            [9] PTR '(anon)' type_id=8
            [10] CONST '(anon)' type_id=1
            [11] VOLATILE '(anon)' type_id=10
            [12] PTR '(anon)' type_id=11
            [13] STRUCT 'mods' size=24 vlen=3
            \t'a' type_id=7 bits_offset=0
            \t'b' type_id=9 bits_offset=64
            \t'c' type_id=12 bits_offset=128
            [14] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1
            \t'm' type_id=15
            [15] PTR '(anon)' type_id=13
            [16] FUNC 'use_mods' type_id=14 linkage=global
            [17] VAR 'counter' type_id=1, linkage=global
            [18] DATASEC '.data' size=4 vlen=1
            \ttype_id=17 offset=0 size=4
            [19] DECL_TAG 'tag' type_id=13 component_idx=-1
            [20] TYPEDEF '__builtin_va_list' type_id=3
            [21] TYPEDEF '__gnuc_va_list' type_id=0
            [22] TYPEDEF 'va_list' type_id=20
            """;

    static final String NAMES = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] FWD 'foo' fwd_kind=struct
            [3] STRUCT 'foo' size=4 vlen=1
            \t'a' type_id=1 bits_offset=0
            [4] STRUCT 'foo' size=8 vlen=2
            \t'a' type_id=1 bits_offset=0
            \t'b' type_id=1 bits_offset=32
            [5] PTR '(anon)' type_id=2
            [6] STRUCT 'bar' size=16 vlen=2
            \t'p' type_id=5 bits_offset=0
            \t'q' type_id=4 bits_offset=64
            [7] ENUM 'foo' encoding=UNSIGNED size=4 vlen=1
            \t'X' val=1
            [8] TYPEDEF 'A' type_id=1
            [9] TYPEDEF 'A' type_id=1
            [10] ENUM '(anon)' encoding=SIGNED size=4 vlen=2
            \t'A' val=-1
            \t'X' val=2
            [11] FWD 'foo' fwd_kind=union
            """;

    /** The header body for {@code text} with the default (bpftool 7.1) options. */
    static String body(String text) {
        return body(RawTextParser.parse(text, null), CHeaderOptions.BPFTOOL_71);
    }

    static String body(Btf btf, CHeaderOptions options) {
        return strip(CHeaderPrinter.toText(btf, options));
    }

    static String strip(String header) {
        assertTrue(header.startsWith(CHeaderPrinter.PROLOGUE), "prologue");
        assertTrue(header.endsWith(CHeaderPrinter.EPILOGUE), "epilogue");
        return header.substring(CHeaderPrinter.PROLOGUE.length(), header.length() - CHeaderPrinter.EPILOGUE.length());
    }

    /**
     * Structs that point at each other need one forward declaration; a typedef used through a pointer
     * inside its own target is printed early; an embedded struct is defined before its container.
     */
    @Test
    void pointerCyclesGetForwardDeclarationsAndEmbeddedStructsComeFirst() {
        assertEquals("""
            struct b;

            struct a {
            \tstruct b *b;
            \tint n;
            };

            struct b {
            \tstruct a *a;
            };

            struct inner {
            \tint v;
            };

            struct tps;

            typedef struct tps tp;

            struct tps {
            \ttp *x;
            \tstruct inner in;
            };

            """, body(CYCLES));
    }

    /**
     * Gaps between bitfields become unnamed bitfields stating their width; a bitfield unit starting on a
     * new word is forced with a padding bitfield.
     */
    @Test
    void bitfieldGapsArePaddedWithUnnamedBitfields() {
        assertEquals("""
            struct bf {
            \tint x: 3;
            \tshort: 13;
            \tint y: 5;
            \tint: 11;
            \tchar: 8;
            \tint z: 2;
            };

            struct flags {
            \tunsigned char on: 1;
            \tunsigned char mode: 3;
            \tlong: 60;
            \tlong long unsigned int big: 60;
            \tunsigned char tail: 4;
            };

            """, body(BITFIELDS));
    }

    /**
     * A size or offset no natural layout gives means packed; a gap natural alignment would not leave is
     * padded, and {@code long: 0} forces a boundary.
     */
    @Test
    void packingAndAlignmentAreDetectedFromOffsetsAndSizes() {
        assertEquals("""
            struct tight {
            \tint a;
            \tchar b;
            } __attribute__((packed));

            struct odd {
            \tchar c;
            \tlong int l;
            } __attribute__((packed));

            struct holder {
            \tstruct tight x;
            \tlong: 0;
            \tstruct odd y;
            \tlong: 0;
            \tint z;
            \tlong: 0;
            };

            struct aligned {
            \tint a;
            \tlong: 64;
            \tlong int b;
            \tlong: 64;
            \tlong: 64;
            \tlong: 64;
            \tlong: 64;
            \tlong: 64;
            };

            """, body(PACKED));
    }

    /**
     * Anonymous members nest inline at deeper indentation; an anonymous enum nobody references is a top-
     * level definition.
     */
    @Test
    void anonymousStructsUnionsAndEnumsAreDefinedInline() {
        assertEquals("""
            struct nest {
            \tunion {
            \t\tint q;
            \t\tstruct {
            \t\t\tint r;
            \t\t\tstruct nest *s;
            \t\t};
            \t};
            \tenum {
            \t\tE1 = 0,
            \t} e;
            \tstruct {
            \t\tint w;
            \t} *p;
            };

            typedef int late_t;

            typedef struct {
            \tlate_t v;
            } anon_t;

            enum {
            \tTOP_A = 1,
            \tTOP_B = 2,
            };

            """, body(ANONYMOUS));
    }

    /**
     * Arrays of function pointers, functions returning function pointers, pointer-to-array parameters,
     * varargs, (void), qualifiers dropped from arrays and prototypes.
     */
    @Test
    void functionPointersAndNestedDeclarators() {
        assertEquals("""
            typedef char * (*fnarr_t[4])(int x, ...);

            struct fp {
            \tchar * (*f[4])(int x, ...);
            \tchar * (* (*g)(void))(int x, ...);
            \tconst int h[2];
            \tchar m[2][3];
            \tvoid (*cb)(int(*)[8], char * (*fn)(int x, ...));
            };

            typedef char * (*volfp)(int x, ...);

            typedef int noargs_t(void);

            """, body(FUNCTIONS));
    }

    /**
     * Signed and unsigned values, ENUM64 with LL/ULL suffixes, an enum without values as a declaration;
     * bpftool 7.1 prints no mode attribute.
     */
    @Test
    void enumsSignedUnsignedEnum64AndDeclarations() {
        assertEquals("""
            enum state {
            \tS_NEG = -1,
            \tS_ZERO = 0,
            \tS_MAX = 2147483647,
            };

            enum uflags {
            \tU_LOW = 1,
            \tU_HIGH = 4294967295,
            };

            enum wide {
            \tW_SMALL = 5ULL,
            \tW_BIG = 18446744073709551615ULL,
            };

            enum swide {
            \tSW_MIN = -9223372036854775808LL,
            \tSW_BIG = 4886718345LL,
            };

            enum hint {
            \tH_NONE = 0,
            \tH_SHORT = 1,
            };

            enum fits32 {
            \tF_ONE = 1ULL,
            };

            enum decl;

            struct uses {
            \tenum hint h;
            \tenum decl *d;
            \tenum wide w;
            \tdouble x;
            };

            """, body(ENUMS));
    }

    /**
     * const/volatile/restrict on either side of pointers, type tags as attributes; FUNC, VAR, DATASEC and
     * DECL_TAG print nothing; the compiler builtin va_list typedef is not redefined.
     */
    @Test
    void qualifiersTypeTagsAndNonTypeKinds() {
        assertEquals("""
            struct mods {
            \tchar * restrict const * volatile a;
            \tint __attribute__((btf_type_tag("user"))) *b;
            \tconst volatile int *c;
            };

            typedef __builtin_va_list __gnuc_va_list;

            typedef __builtin_va_list va_list;

            """, body(QUALIFIERS));
    }

    /**
     * Clashing names take ___N in print order, per namespace (tags; typedefs and enumerators); forward
     * declarations keep their name.
     */
    @Test
    void clashingNamesGetNumberedSuffixes() {
        assertEquals("""
            struct foo;

            struct foo {
            \tint a;
            };

            struct foo___2 {
            \tint a;
            \tint b;
            };

            struct bar {
            \tstruct foo *p;
            \tstruct foo___2 q;
            };

            enum foo___3 {
            \tX = 1,
            };

            typedef int A;

            typedef int A___2;

            enum {
            \tA___3 = -1,
            \tX___2 = 2,
            };

            union foo;

            """, body(NAMES));
    }

    @Test
    void currentLibbpfKeepsOddEnumSizesAndPrintsAttributeTags() {
        Btf btf = RawTextParser.parse("""
                [1] ENUM 'hint' encoding=UNSIGNED size=1 vlen=1
                \t'H_NONE' val=0
                [2] ENUM64 'fits32' encoding=UNSIGNED size=8 vlen=1
                \t'F_ONE' val=1
                [3] ENUM64 'wide' encoding=UNSIGNED size=8 vlen=1
                \t'W_BIG' val=4294967296
                [4] ENUM 'word' encoding=SIGNED size=8 vlen=1
                \t'W_NEG' val=-1
                """, null);
        String modes = """
                enum hint {
                \tH_NONE = 0,
                } __attribute__((mode(byte)));

                enum fits32 {
                \tF_ONE = 1ULL,
                } __attribute__((mode(word)));

                enum wide {
                \tW_BIG = 4294967296ULL,
                };

                enum word {
                \tW_NEG = -1,
                } __attribute__((mode(word)));

                """;
        assertEquals(modes, body(btf, CHeaderOptions.CURRENT_LIBBPF));
        assertEquals(modes.replace(" __attribute__((mode(byte)))", "").replace(" __attribute__((mode(word)))", ""),
                body(btf, CHeaderOptions.BPFTOOL_71));
        // a 4-byte pointer target has no 8-byte word mode
        assertEquals(modes.replace(" __attribute__((mode(word)))", ""), body(btf, CHeaderOptions.CURRENT_LIBBPF.withPointerSize(4)));

        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int poly = b.addInt("__Poly8_t", 1, 0);
        int attr = b.addTypeAttr("address_space(1)", i);
        int tag = b.addTypeTag("user", i);
        int attrPtr = b.addPtr(attr);
        int tagPtr = b.addPtr(tag);
        b.addStruct("s", 17);
        b.addMember("a", attrPtr, 0, 0);
        b.addMember("t", tagPtr, 64, 0);
        b.addMember("p", poly, 128, 0);
        Btf tags = b.build();
        String current = """
                typedef unsigned char __Poly8_t;

                struct s {
                \tint __attribute__((address_space(1))) *a;
                \tint __attribute__((btf_type_tag("user"))) *t;
                \t__Poly8_t p;
                } __attribute__((packed));

                """;
        assertEquals(current, body(tags, CHeaderOptions.CURRENT_LIBBPF));
        assertEquals(current.replace("typedef unsigned char __Poly8_t;\n\n", "")
                .replace("__attribute__((address_space(1)))", "__attribute__((btf_type_tag(\"address_space(1)\")))"),
                body(tags, CHeaderOptions.BPFTOOL_71));
    }

    @Test
    void pointerSizeDecidesLongPadding() {
        String text = """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] INT 'long int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [3] STRUCT 's' size=12 vlen=3
                \t'a' type_id=1 bits_offset=0
                \t'b' type_id=1 bits_offset=64
                \t'p' type_id=4 bits_offset=64
                [4] PTR '(anon)' type_id=1
                """;
        // guessed from the 4-byte 'long int', as libbpf does for raw BTF
        assertEquals("""
                struct s {
                \tint a;
                \tlong: 32;
                \tint b;
                \tint *p;
                };

                """, body(text));
        // told 8: the 8-byte pointer at offset 8 in 12 bytes proves packing
        assertEquals("""
                struct s {
                \tint a;
                \tlong: 0;
                \tint b;
                \tint *p;
                } __attribute__((packed));

                """, body(RawTextParser.parse(text, null), CHeaderOptions.BPFTOOL_71.withPointerSize(8)));
    }

    private static final String BASE = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] STRUCT 'base_s' size=4 vlen=1
            \t'v' type_id=1 bits_offset=0
            [3] STRUCT 'unused' size=4 vlen=1
            \t'u' type_id=1 bits_offset=0
            [4] TYPEDEF 'u32' type_id=1
            """;

    @Test
    void splitPrintsItsOwnTypesWithTheBaseTypesTheyNeed() {
        Btf base = RawTextParser.parse(BASE, null);
        Btf split = RawTextParser.parse("""
                [5] PTR '(anon)' type_id=2
                [6] STRUCT 'mod_s' size=16 vlen=2
                \t'p' type_id=5 bits_offset=0
                \t'b' type_id=2 bits_offset=64
                [7] STRUCT 'base_s' size=8 vlen=0
                """, base);
        String own = """
                struct base_s {
                \tint v;
                };

                struct mod_s {
                \tstruct base_s *p;
                \tstruct base_s b;
                };

                struct base_s___2 {
                \tlong: 64;
                };

                """;
        assertEquals(own, strip(text(os -> CHeaderPrinter.print(split, os))));
        String all = """
                struct base_s {
                \tint v;
                };

                struct unused {
                \tint u;
                };

                typedef int u32;

                struct mod_s {
                \tstruct base_s *p;
                \tstruct base_s b;
                };

                struct base_s___2 {
                \tlong: 64;
                };

                """;
        assertEquals(all, strip(text(os -> CHeaderPrinter.printWithBase(split, os))));
    }

    @Test
    void rootsPrintOnlyWhatTheyNeedInTheOrderGiven() {
        Btf btf = RawTextParser.parse(BASE + """
                [5] PTR '(anon)' type_id=2
                [6] STRUCT 'user' size=8 vlen=1
                \t'p' type_id=5 bits_offset=0
                """, null);
        assertEquals("""
                struct base_s;

                struct user {
                \tstruct base_s *p;
                };

                typedef int u32;

                struct base_s {
                \tint v;
                };

                """, strip(text(os -> CHeaderPrinter.print(btf, new int[] {6, 4, 5, 2, 1}, os))));
        assertEquals("", strip(text(os -> CHeaderPrinter.print(btf, new int[] {0, 1}, os))));
        assertThrows(IllegalArgumentException.class, () -> CHeaderPrinter.print(btf, new int[] {7}, new ByteArrayOutputStream()));
    }

    @Test
    void typeGraphsCCannotExpressAreRefused() {
        // a struct containing itself by value
        OperationException e = assertThrows(OperationException.class, () -> body("""
                [1] STRUCT 's' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0
                """));
        assertTrue(e.getMessage().startsWith("type [1]: unsatisfiable type cycle"), e.getMessage());
        // an anonymous struct pointing to itself (it has no name to declare)
        e = assertThrows(OperationException.class, () -> body("""
                [1] STRUCT '(anon)' size=8 vlen=1
                \t'p' type_id=2 bits_offset=0
                [2] PTR '(anon)' type_id=1
                """));
        assertTrue(e.getMessage().startsWith("type [1]: unsatisfiable type cycle"), e.getMessage());
        // a typedef of a pointer to itself, a function returning a pointer to itself: libbpf recurses forever
        e = assertThrows(OperationException.class, () -> body("""
                [1] TYPEDEF 't' type_id=2
                [2] PTR '(anon)' type_id=1
                """));
        assertTrue(e.getMessage().startsWith("type [1]: type cycle that C cannot express"), e.getMessage());
        e = assertThrows(OperationException.class, () -> body("""
                [1] FUNC_PROTO '(anon)' ret_type_id=2 vlen=0
                [2] PTR '(anon)' type_id=1
                [3] TYPEDEF 'selfret' type_id=2
                """));
        assertTrue(e.getMessage().contains("type cycle that C cannot express"), e.getMessage());
    }

    @Test
    void longChainsAndDeepNestingNeedNoJavaStack() {
        int depth = 100_000;
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int ptr = i;
        int typedef = i;
        int array = i;
        int anon = b.addStruct(null, 4);
        b.addMember("x", i, 0, 0);
        for (int k = 0; k < depth; k++) {
            ptr = b.addPtr(ptr);
            typedef = b.addTypedef("t" + k, typedef);
            array = b.addArray(array, i, 1);
            int next = b.addStruct(null, 4);
            b.addMember("a", anon, 0, 0);
            anon = next;
        }
        int s = b.addStruct("deep", 24);
        b.addMember("p", ptr, 0, 0);
        b.addMember("t", typedef, 64, 0);
        b.addMember("a", array, 96, 0);
        b.addMember("n", anon, 128, 0);
        Btf btf = b.build();
        String c = strip(text(os -> CHeaderPrinter.print(btf, new int[] {s}, os)));
        assertTrue(c.startsWith("typedef int t0;\n\ntypedef t0 t1;\n\n"), c.substring(0, 40));
        assertTrue(c.contains("\tint " + "*".repeat(depth) + "p;\n"));
        assertTrue(c.contains("\tt" + (depth - 1) + " t;\n"));
        assertTrue(c.contains("\tint a" + "[1]".repeat(depth) + ";\n"));
        String tabs = "\t".repeat(CText.MAX_INDENT);
        assertTrue(c.contains(tabs + "int x;\n" + tabs + "} a;\n"), "innermost anonymous struct, indentation capped");
        assertTrue(c.endsWith("\t} n;\n};\n\n"));
    }

    @Test
    void optionsRejectOtherPointerSizes() {
        assertThrows(IllegalArgumentException.class, () -> CHeaderOptions.BPFTOOL_71.withPointerSize(2));
    }

    interface Printing {
        void to(ByteArrayOutputStream os);
    }

    static String text(Printing p) {
        ByteArrayOutputStream os = new ByteArrayOutputStream();
        p.to(os);
        return os.toString(StandardCharsets.ISO_8859_1);
    }
}
