package io.btfkit.validate;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.Kind;
import io.btfkit.core.StringTable;
import io.btfkit.core.text.RawTextParser;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Hand-made BTF that each break exactly one rule, as a table: case name, the rule, the type id
 * it must be reported for (-1 for whole-BTF rules), and the BTF, in raw text where the format
 * can say it, else built word by word (bad offsets and ids, vlen or size words the text never
 * shows, unknown kinds, long generated chains).
 */
final class InvalidBtfCases {

    /**
     * One table row. {@code structuralToo}: whether the structural profile reports it as well
     * (false for kernel-only rules and for what that profile deliberately accepts).
     */
    record Case(String name, Rule rule, int typeId, Validator.Profile profile, boolean structuralToo, Supplier<Btf> btf) {
        @Override
        public String toString() {
            return name + " -> " + rule.id();
        }
    }

    private static final String INT = "[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n";

    private final List<Case> cases = new ArrayList<>();

    private InvalidBtfCases() {
    }

    /** A case built word by word, for what the text format cannot say. */
    private void add(String name, Rule rule, int typeId, Consumer<BtfBuilder> build) {
        cases.add(new Case(name, rule, typeId, Validator.Profile.KERNEL, !rule.kernelOnly(), () -> {
            BtfBuilder b = new BtfBuilder();
            build.accept(b);
            return b.build();
        }));
    }

    /** A case written in raw text (bpftool's format; {@code \t} starts a member line). */
    private void text(String name, Rule rule, int typeId, String text) {
        text(Validator.Profile.KERNEL, name, rule, typeId, text);
    }

    private void text(Validator.Profile p, String name, Rule rule, int typeId, String text) {
        cases.add(new Case(name, rule, typeId, p, !rule.kernelOnly(), () -> RawTextParser.parse(text, null)));
    }

    /** A raw-text case the structural profile accepts on purpose (extern linkage). */
    private void relaxed(String name, Rule rule, int typeId, String text) {
        cases.add(new Case(name, rule, typeId, Validator.Profile.KERNEL, false, () -> RawTextParser.parse(text, null)));
    }

    private void addBtf(String name, Rule rule, int typeId, Supplier<Btf> btf) {
        cases.add(new Case(name, rule, typeId, Validator.Profile.KERNEL, !rule.kernelOnly(), btf));
    }

    /** Appends a type given as its words: name offset, kind, vlen, kind_flag, size/type, extras. */
    static int raw(BtfBuilder b, int nameOff, int kind, int vlen, boolean kflag, int sizeOrType, int... extra) {
        int[] w = new int[3 + extra.length];
        w[0] = nameOff;
        w[1] = Kind.info(kind, vlen, kflag);
        w[2] = sizeOrType;
        System.arraycopy(extra, 0, w, 3, extra.length);
        return b.addRaw(w, 0, w.length);
    }

    /** A standalone BTF from words and a string section, bypassing the builder. */
    static Btf direct(int[] words, int typeWords, byte[] strings, Btf.RawFormat f) {
        int n = words.length / typeWords;
        int[] starts = new int[n + 1];
        for (int i = 0; i <= n; i++) {
            starts[i] = i * typeWords;
        }
        return new Btf(null, words, starts, new StringTable(null, strings), f);
    }

    private static int intType(BtfBuilder b) {
        return b.addInt("int", 4, Kind.INT_SIGNED);
    }

    static List<Case> all() {
        InvalidBtfCases t = new InvalidBtfCases();
        t.header();
        t.common();
        t.names();
        t.scalars();
        t.arrays();
        t.composites();
        t.references();
        t.functions();
        t.variables();
        t.tags();
        t.graph();
        return t.cases;
    }

    private void header() {
        addBtf("flags byte set", Rule.HEADER_FLAGS, -1, () -> RawTextParser.parse(INT, null)
                .withFormat(new Btf.RawFormat(ByteOrder.LITTLE_ENDIAN, 24, 1, null)));
        addBtf("layout section", Rule.HEADER_LAYOUT, -1, () -> RawTextParser.parse(INT, null)
                .withFormat(Btf.RawFormat.CLASSIC.withLayout()));
        // read from bytes (HeaderLayouts): where the sections lie
        byte[] none = {};
        addBtf("32-byte header, layout_off 8, layout_len 0", Rule.HEADER_LAYOUT, -1, () -> io.btfkit.core.BtfReader.read(
                HeaderLayouts.bytes(new HeaderLayouts.Layout(32, new byte[] {8, 0, 0, 0, 0, 0, 0, 0}, 0, 0, 0, false, 0, (byte) 0))));
        addBtf("2 bytes between the type and string sections", Rule.SECTION_LAYOUT, -1, () -> io.btfkit.core.BtfReader.read(
                HeaderLayouts.bytes(new HeaderLayouts.Layout(24, none, 0, 0, 2, false, 0, (byte) 0))));
        addBtf("4 bytes between the header and the type section", Rule.SECTION_LAYOUT, -1, () -> io.btfkit.core.BtfReader.read(
                HeaderLayouts.bytes(new HeaderLayouts.Layout(24, none, 0, 4, 0, false, 0, (byte) 0))));
        addBtf("1 byte after the string section", Rule.SECTION_LAYOUT, -1, () -> io.btfkit.core.BtfReader.read(
                HeaderLayouts.bytes(new HeaderLayouts.Layout(24, none, 0, 0, 0, false, 1, (byte) 0))));
        // string section "x\0": does not start with the empty string
        addBtf("string section starts with a name", Rule.STRING_SECTION, -1,
                () -> direct(new int[] {0, Kind.info(Kind.INT, 0, false), 4, 32}, 4, "x\0".getBytes(StandardCharsets.US_ASCII),
                        Btf.RawFormat.CLASSIC));
        addBtf("string section not NUL-terminated", Rule.STRING_SECTION, -1,
                () -> direct(new int[] {0, Kind.info(Kind.INT, 0, false), 4, 32}, 4, "\0int".getBytes(StandardCharsets.US_ASCII),
                        Btf.RawFormat.CLASSIC));
        addBtf("string section of 16 MiB + 1", Rule.STRING_SECTION_SIZE, -1,
                () -> direct(new int[] {0, Kind.info(Kind.INT, 0, false), 4, 32}, 4, new byte[0x1000001], Btf.RawFormat.CLASSIC));
        // 1,048,575 x "[n] PTR '(anon)' type_id=0": with void, one id too many
        addBtf("one type id past BTF_MAX_TYPE", Rule.TYPE_COUNT, -1, () -> {
            int n = 0xfffff;
            int[] w = new int[3 * n];
            for (int i = 0; i < n; i++) {
                w[3 * i + 1] = Kind.info(Kind.PTR, 0, false);
            }
            return direct(w, 3, new byte[1], Btf.RawFormat.CLASSIC);
        });
        text("no types at all", Rule.NO_TYPES, -1, "");
    }

    private void common() {
        add("kind 20", Rule.KIND_UNKNOWN, 1, b -> raw(b, 0, 20, 0, false, 0));
        // [1] INT 'int'; [2] STRUCT 's' size=4 vlen=65536, all members 'int' at offset 0
        add("vlen needs 17 bits", Rule.INFO_BITS, 2, b -> {
            intType(b);
            int[] m = new int[3 * 0x10000];
            for (int i = 0; i < 0x10000; i++) {
                m[3 * i + 1] = 1;
            }
            raw(b, b.addString("s"), Kind.STRUCT, 0x10000, false, 4, m);
        });
        // [1] INT name_off=1000
        add("name offset past the strings", Rule.NAME_OFFSET, 1, b -> raw(b, 1000, Kind.INT, 0, false, 4, 32));
        // [1] PTR '(anon)' type_id=99
        add("pointer to a missing type", Rule.TYPE_ID, 1, b -> b.addPtr(99));
        add("PTR with vlen 1", Rule.VLEN, 1, b -> raw(b, 0, Kind.PTR, 1, false, 0));
        text("CONST with kind_flag", Rule.KIND_FLAG, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] CONST '(anon)' type_id=1 kind_flag=1
                """);
        text("FUNC_PROTO with kind_flag", Rule.KIND_FLAG, 1, """
                [1] FUNC_PROTO '(anon)' ret_type_id=0 vlen=0 kind_flag=1
                """);
        text("FLOAT with kind_flag", Rule.KIND_FLAG, 1, """
                [1] FLOAT 'float' size=4 kind_flag=1
                """);
    }

    private void names() {
        text("anonymous TYPEDEF", Rule.NAME_MISSING, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] TYPEDEF '(anon)' type_id=1
                """);
        text("anonymous enumerator", Rule.NAME_MISSING, 1, """
                [1] ENUM 'e' encoding=UNSIGNED size=4 vlen=1
                \t'(anon)' val=1
                """);
        text("empty TYPE_TAG value", Rule.NAME_MISSING, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] TYPE_TAG '(anon)' type_id=1
                """);
        text("named PTR", Rule.NAME_NOT_ALLOWED, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] PTR 'p' type_id=1
                """);
        text("STRUCT name with a space", Rule.NAME_IDENTIFIER, 1, """
                [1] STRUCT 'a b' size=0 vlen=0
                """);
        text("member name starting with a digit", Rule.NAME_IDENTIFIER, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 's' size=4 vlen=1
                \t'1st' type_id=1 bits_offset=0
                """);
        text("FUNC_PROTO parameter name with '-'", Rule.NAME_IDENTIFIER, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1
                \t'a-b' type_id=1
                """);
        // the text reader keeps one byte per char, so this name is UTF-8 encoded by the builder
        add("UTF-8 FWD name", Rule.NAME_IDENTIFIER, 1, b -> b.addFwd("caf\u00e9", false));
        text("DATASEC name with a control byte", Rule.NAME_SECTION, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] VAR 'v' type_id=1, linkage=global
                [3] DATASEC '.data\u0001' size=4 vlen=1
                \ttype_id=2 offset=0 size=4
                """);
    }

    private void scalars() {
        text("INT both SIGNED and CHAR", Rule.INT_ENCODING, 1, """
                [1] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=0x3
                """);
        add("INT word top bits", Rule.INT_DATA, 1, b -> raw(b, b.addString("i"), Kind.INT, 0, false, 4, 0x10000020));
        text("INT of 33 bits in 4 bytes", Rule.INT_BITS, 1, """
                [1] INT 'i' size=4 bits_offset=0 nr_bits=33 encoding=(none)
                """);
        text("INT offset 100 + 40 bits", Rule.INT_BITS, 1, """
                [1] INT 'i' size=16 bits_offset=100 nr_bits=40 encoding=(none)
                """);
        text("FLOAT of 3 bytes", Rule.FLOAT_SIZE, 1, """
                [1] FLOAT 'f' size=3
                """);
        text("ENUM of 3 bytes", Rule.ENUM_SIZE, 1, """
                [1] ENUM 'e' encoding=UNSIGNED size=3 vlen=1
                \t'A' val=1
                """);
        text("ENUM64 of 16 bytes", Rule.ENUM_SIZE, 1, """
                [1] ENUM64 'e' encoding=UNSIGNED size=16 vlen=1
                \t'A' val=1ULL
                """);
        add("FWD with a size/type word", Rule.FWD_TYPE, 1, b -> raw(b, b.addString("f"), Kind.FWD, 0, false, 5));
    }

    private void arrays() {
        add("ARRAY with a size word", Rule.ARRAY_SIZE_WORD, 2, b -> {
            intType(b);
            raw(b, 0, Kind.ARRAY, 0, false, 4, 1, 1, 2);
        });
        text("ARRAY of void", Rule.ARRAY_ELEM, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] ARRAY '(anon)' type_id=0 index_type_id=1 nr_elems=2
                """);
        text("ARRAY of FUNC_PROTO", Rule.ARRAY_ELEM, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=0
                [3] ARRAY '(anon)' type_id=2 index_type_id=1 nr_elems=2
                """);
        text("ARRAY indexed by a STRUCT", Rule.ARRAY_INDEX, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 's' size=4 vlen=1
                \t'a' type_id=1 bits_offset=0
                [3] ARRAY '(anon)' type_id=1 index_type_id=2 nr_elems=4
                """);
        text("ARRAY indexed by a 3-bit INT", Rule.ARRAY_INDEX, 3, """
                [1] INT 'i3' size=1 bits_offset=0 nr_bits=3 encoding=(none)
                [2] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [3] ARRAY '(anon)' type_id=2 index_type_id=1 nr_elems=4
                """);
        text("ARRAY of 3-bit INTs", Rule.ARRAY_INT_ELEM, 3, """
                [1] INT 'i3' size=1 bits_offset=0 nr_bits=3 encoding=(none)
                [2] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [3] ARRAY '(anon)' type_id=1 index_type_id=2 nr_elems=4
                """);
        text("ARRAY of 4 GiB", Rule.ARRAY_OVERFLOW, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 'big' size=65536 vlen=0
                [3] ARRAY '(anon)' type_id=2 index_type_id=1 nr_elems=65536
                """);
    }

    private void composites() {
        text("member of FWD type", Rule.MEMBER_TYPE, 2, """
                [1] FWD 'f' fwd_kind=struct
                [2] STRUCT 's' size=8 vlen=1
                \t'm' type_id=1 bits_offset=0
                """);
        text("member of FUNC_PROTO type", Rule.MEMBER_TYPE, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=0
                [3] STRUCT 's' size=8 vlen=1
                \t'm' type_id=2 bits_offset=0
                """);
        text("member of void type", Rule.MEMBER_TYPE, 1, """
                [1] STRUCT 's' size=8 vlen=1
                \t'm' type_id=0 bits_offset=0
                """);
        text("members out of order", Rule.MEMBER_ORDER, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 's' size=8 vlen=2
                \t'a' type_id=1 bits_offset=32
                \t'b' type_id=1 bits_offset=0
                """);
        text("UNION member at bit 8", Rule.UNION_MEMBER_OFFSET, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] UNION 'u' size=8 vlen=1
                \t'a' type_id=1 bits_offset=8
                """);
        text("member starting past the size", Rule.MEMBER_OFFSET, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 's' size=4 vlen=1
                \t'a' type_id=1 bits_offset=64
                """);
        text("PTR member at bit 4", Rule.MEMBER_ALIGNMENT, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] PTR '(anon)' type_id=1
                [3] STRUCT 's' size=16 vlen=1
                \t'p' type_id=2 bits_offset=4
                """);
        text("double member at bit 32", Rule.FLOAT_ALIGNMENT, 2, """
                [1] FLOAT 'double' size=8
                [2] STRUCT 's' size=16 vlen=1
                \t'd' type_id=1 bits_offset=32
                """);
        text("int member ending past the size", Rule.MEMBER_SIZE, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 's' size=4 vlen=1
                \t'a' type_id=1 bits_offset=32
                """);
        text("kind_flag bitfield on a pointer", Rule.BITFIELD, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] PTR '(anon)' type_id=1
                [3] STRUCT 's' size=8 vlen=1
                \t'p' type_id=2 bits_offset=0 bitfield_size=3
                """);
        text("kind_flag bitfield of 40 bits on an enum", Rule.BITFIELD, 2, """
                [1] ENUM 'e' encoding=UNSIGNED size=4 vlen=1
                \t'A' val=1
                [2] STRUCT 's' size=8 vlen=1
                \t'x' type_id=1 bits_offset=0 bitfield_size=40
                """);
        text("kind_flag member of a 3-bit INT", Rule.BITFIELD, 2, """
                [1] INT 'i3' size=1 bits_offset=0 nr_bits=3 encoding=(none)
                [2] STRUCT 's' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0 bitfield_size=2
                """);
    }

    private void references() {
        text("PTR to a VAR", Rule.REF_TARGET, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] VAR 'v' type_id=1, linkage=global
                [3] PTR '(anon)' type_id=2
                """);
        text("TYPEDEF of a DATASEC", Rule.REF_TARGET, 4, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] VAR 'v' type_id=1, linkage=global
                [3] DATASEC '.data' size=4 vlen=1
                \ttype_id=2 offset=0 size=4
                [4] TYPEDEF 't' type_id=3
                """);
        text("TYPE_TAG after CONST", Rule.TYPE_TAG_ORDER, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] PTR '(anon)' type_id=3
                [3] CONST '(anon)' type_id=4
                [4] TYPE_TAG 'x' type_id=1
                """);
        // [1] INT; [2] CONST -> [25]; [3] -> [4] -> ... -> [35] -> [1], all CONST. The resolver
        // needs at most 23 levels, but the kernel's tag walk from [3] meets 33 modifiers.
        add("33 modifiers in one walk", Rule.MODIFIER_CHAIN, 3, b -> {
            intType(b);
            b.addConst(25);
            for (int id = 3; id <= 35; id++) {
                b.addConst(id == 35 ? 1 : id + 1);
            }
        });
    }

    private void functions() {
        relaxed("extern FUNC", Rule.FUNC_LINKAGE, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=0
                [3] FUNC 'f' type_id=2 linkage=extern
                """);
        text(Validator.Profile.STRUCTURAL, "FUNC linkage 3", Rule.FUNC_LINKAGE, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=0
                [3] FUNC 'f' type_id=2 linkage=3
                """);
        text("FUNC of an INT", Rule.FUNC_PROTO, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] FUNC 'f' type_id=1 linkage=global
                """);
        text("FUNC with an unnamed parameter", Rule.FUNC_PARAM_NAME, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1
                \t'(anon)' type_id=1
                [3] FUNC 'f' type_id=2 linkage=global
                """);
        text("FUNC_PROTO returning a FWD", Rule.PROTO_RETURN, 2, """
                [1] FWD 'f' fwd_kind=struct
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=0
                """);
        text("void parameter before the last", Rule.PROTO_PARAM, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=2
                \t'a' type_id=0
                \t'b' type_id=1
                """);
        text("named vararg marker", Rule.PROTO_PARAM, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=2
                \t'a' type_id=1
                \t'rest' type_id=0
                """);
    }

    private void variables() {
        relaxed("extern VAR", Rule.VAR_LINKAGE, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] VAR 'v' type_id=1, linkage=extern
                """);
        text("VAR of void", Rule.VAR_TYPE, 1, """
                [1] VAR 'v' type_id=0, linkage=global
                """);
        text("VAR of a FUNC_PROTO", Rule.VAR_TYPE, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=0
                [3] VAR 'v' type_id=2, linkage=global
                """);
        text("DATASEC of size 0", Rule.DATASEC_SIZE, 1, """
                [1] DATASEC '.bss' size=0 vlen=0
                """);
        text("DATASEC entry that is an INT", Rule.DATASEC_ENTRY, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] DATASEC '.data' size=4 vlen=1
                \ttype_id=1 offset=0 size=4
                """);
        text("overlapping DATASEC entries", Rule.DATASEC_LAYOUT, 4, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] VAR 'v' type_id=1, linkage=global
                [3] VAR 'w' type_id=1, linkage=global
                [4] DATASEC '.data' size=8 vlen=2
                \ttype_id=2 offset=0 size=4
                \ttype_id=3 offset=2 size=4
                """);
        text("DATASEC entry smaller than its VAR", Rule.DATASEC_LAYOUT, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] VAR 'v' type_id=1, linkage=global
                [3] DATASEC '.data' size=4 vlen=1
                \ttype_id=2 offset=0 size=2
                """);
    }

    private void tags() {
        text("DECL_TAG on an INT", Rule.DECL_TAG_TARGET, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] DECL_TAG 'tag' type_id=1 component_idx=-1
                """);
        text("DECL_TAG on member 5 of 1", Rule.DECL_TAG_COMPONENT, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 's' size=4 vlen=1
                \t'a' type_id=1 bits_offset=0
                [3] DECL_TAG 'tag' type_id=2 component_idx=5
                """);
        text("DECL_TAG with a component of a VAR", Rule.DECL_TAG_COMPONENT, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] VAR 'v' type_id=1, linkage=global
                [3] DECL_TAG 'tag' type_id=2 component_idx=0
                """);
        text("DECL_TAG component_idx -2", Rule.DECL_TAG_COMPONENT, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] VAR 'v' type_id=1, linkage=global
                [3] DECL_TAG 'tag' type_id=2 component_idx=-2
                """);
        text("empty DECL_TAG value", Rule.NAME_MISSING, 3, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] VAR 'v' type_id=1, linkage=global
                [3] DECL_TAG '(anon)' type_id=2 component_idx=-1
                """);
    }

    private void graph() {
        text("STRUCT containing itself", Rule.LOOP, 1, """
                [1] STRUCT 'a' size=4 vlen=1
                \t'self' type_id=1 bits_offset=0
                """);
        text("two STRUCTs containing each other", Rule.LOOP, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 'a' size=8 vlen=1
                \t'b' type_id=3 bits_offset=0
                [3] STRUCT 'b' size=8 vlen=1
                \t'a' type_id=2 bits_offset=0
                """);
        text("TYPEDEF cycle", Rule.LOOP, 1, """
                [1] TYPEDEF 'a' type_id=2
                [2] TYPEDEF 'b' type_id=1
                """);
        // a pointer loop without any pointee
        text("pointer loop through CONST", Rule.LOOP, 1, """
                [1] PTR '(anon)' type_id=2
                [2] CONST '(anon)' type_id=1
                """);
        text("ARRAY of itself", Rule.LOOP, 2, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] ARRAY '(anon)' type_id=2 index_type_id=1 nr_elems=1
                """);
        // [1] INT; [k] STRUCT 'sk' { 'm' [k+1] } for k = 2..40; [41] STRUCT 's41' { 'a' int }
        add("40 STRUCTs nested by value", Rule.RESOLVE_DEPTH, 2, b -> {
            intType(b);
            for (int id = 2; id <= 41; id++) {
                b.addStruct("s" + id, 4);
                b.addMember(id == 41 ? "a" : "m", id == 41 ? 1 : id + 1, 0, 0);
            }
        });
    }
}
