package io.btfkit.core.validate;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.Kind;
import io.btfkit.core.StringTable;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Hand-made BTF that each break exactly one rule, as a table: case name, the rule, the type id
 * it must be reported for (-1 for whole-BTF rules), and how to build it. The comment on each
 * case is the BTF in raw text.
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

    private final List<Case> cases = new ArrayList<>();

    private InvalidBtfCases() {
    }

    private void add(String name, Rule rule, int typeId, Consumer<BtfBuilder> build) {
        addIn(Validator.Profile.KERNEL, name, rule, typeId, build);
    }

    /** A case the structural profile accepts on purpose (extern linkage). */
    private void addRelaxed(String name, Rule rule, int typeId, Consumer<BtfBuilder> build) {
        add(name, rule, typeId, build);
        Case c = cases.remove(cases.size() - 1);
        cases.add(new Case(c.name(), c.rule(), c.typeId(), c.profile(), false, c.btf()));
    }

    private void addIn(Validator.Profile p, String name, Rule rule, int typeId, Consumer<BtfBuilder> build) {
        cases.add(new Case(name, rule, typeId, p, !rule.kernelOnly(), () -> {
            BtfBuilder b = new BtfBuilder();
            build.accept(b);
            return b.build();
        }));
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

    /** [1] INT 'int'; [2] VAR 'v' type_id=1 linkage=global. */
    private static void intVar(BtfBuilder b) {
        intType(b);
        b.addVar("v", 1, Kind.LINKAGE_GLOBAL);
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
        add("flags byte set", Rule.HEADER_FLAGS, -1, b -> {
            b.format(new Btf.RawFormat(ByteOrder.LITTLE_ENDIAN, 24, 1, null));
            intType(b);
        });
        add("layout section", Rule.HEADER_LAYOUT, -1, b -> {
            b.format(Btf.RawFormat.CLASSIC.withLayout());
            intType(b);
        });
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
        add("no types at all", Rule.NO_TYPES, -1, b -> { });
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
        add("CONST with kind_flag", Rule.KIND_FLAG, 2, b -> {
            intType(b);
            raw(b, 0, Kind.CONST, 0, true, 1);
        });
        add("FUNC_PROTO with kind_flag", Rule.KIND_FLAG, 1, b -> raw(b, 0, Kind.FUNC_PROTO, 0, true, 0));
        add("FLOAT with kind_flag", Rule.KIND_FLAG, 1, b -> raw(b, b.addString("float"), Kind.FLOAT, 0, true, 4));
    }

    private void names() {
        add("anonymous TYPEDEF", Rule.NAME_MISSING, 2, b -> {
            intType(b);
            b.addTypedef(null, 1);
        });
        add("anonymous enumerator", Rule.NAME_MISSING, 1, b -> {
            b.addEnum("e", 4, false);
            b.addEnumValue(null, 1);
        });
        add("empty TYPE_TAG value", Rule.NAME_MISSING, 2, b -> {
            intType(b);
            b.addTypeTag(null, 1);
        });
        add("named PTR", Rule.NAME_NOT_ALLOWED, 2, b -> {
            intType(b);
            raw(b, b.addString("p"), Kind.PTR, 0, false, 1);
        });
        add("STRUCT name with a space", Rule.NAME_IDENTIFIER, 1, b -> b.addStruct("a b", 0));
        add("member name starting with a digit", Rule.NAME_IDENTIFIER, 2, b -> {
            intType(b);
            b.addStruct("s", 4);
            b.addMember("1st", 1, 0, 0);
        });
        add("FUNC_PROTO parameter name with '-'", Rule.NAME_IDENTIFIER, 2, b -> {
            intType(b);
            b.addFuncProto(1);
            b.addParam("a-b", 1);
        });
        add("UTF-8 FWD name", Rule.NAME_IDENTIFIER, 1, b -> b.addFwd("caf\u00e9", false));
        add("DATASEC name with a control byte", Rule.NAME_SECTION, 3, b -> {
            intVar(b);
            b.addDatasec(".data\u0001", 4);
            b.addVarSecinfo(2, 0, 4);
        });
    }

    private void scalars() {
        add("INT both SIGNED and CHAR", Rule.INT_ENCODING, 1, b -> b.addInt("c", 1, Kind.INT_SIGNED | Kind.INT_CHAR));
        add("INT word top bits", Rule.INT_DATA, 1, b -> raw(b, b.addString("i"), Kind.INT, 0, false, 4, 0x10000020));
        add("INT of 33 bits in 4 bytes", Rule.INT_BITS, 1, b -> b.addInt("i", 4, 0, 0, 33));
        add("INT offset 100 + 40 bits", Rule.INT_BITS, 1, b -> b.addInt("i", 16, 0, 100, 40));
        add("FLOAT of 3 bytes", Rule.FLOAT_SIZE, 1, b -> b.addFloat("f", 3));
        add("ENUM of 3 bytes", Rule.ENUM_SIZE, 1, b -> {
            b.addEnum("e", 3, false);
            b.addEnumValue("A", 1);
        });
        add("ENUM64 of 16 bytes", Rule.ENUM_SIZE, 1, b -> {
            b.addEnum64("e", 16, false);
            b.addEnumValue("A", 1);
        });
        add("FWD with a size/type word", Rule.FWD_TYPE, 1, b -> raw(b, b.addString("f"), Kind.FWD, 0, false, 5));
    }

    private void arrays() {
        add("ARRAY with a size word", Rule.ARRAY_SIZE_WORD, 2, b -> {
            intType(b);
            raw(b, 0, Kind.ARRAY, 0, false, 4, 1, 1, 2);
        });
        add("ARRAY of void", Rule.ARRAY_ELEM, 2, b -> {
            intType(b);
            b.addArray(0, 1, 2);
        });
        add("ARRAY of FUNC_PROTO", Rule.ARRAY_ELEM, 3, b -> {
            intType(b);
            b.addFuncProto(1);
            b.addArray(2, 1, 2);
        });
        add("ARRAY indexed by a STRUCT", Rule.ARRAY_INDEX, 3, b -> {
            intType(b);
            b.addStruct("s", 4);
            b.addMember("a", 1, 0, 0);
            b.addArray(1, 2, 4);
        });
        add("ARRAY indexed by a 3-bit INT", Rule.ARRAY_INDEX, 3, b -> {
            b.addInt("i3", 1, 0, 0, 3);
            intType(b);
            b.addArray(2, 1, 4);
        });
        add("ARRAY of 3-bit INTs", Rule.ARRAY_INT_ELEM, 3, b -> {
            b.addInt("i3", 1, 0, 0, 3);
            intType(b);
            b.addArray(1, 2, 4);
        });
        add("ARRAY of 4 GiB", Rule.ARRAY_OVERFLOW, 3, b -> {
            intType(b);
            b.addStruct("big", 0x10000);
            b.addArray(2, 1, 0x10000);
        });
    }

    private void composites() {
        add("member of FWD type", Rule.MEMBER_TYPE, 2, b -> {
            b.addFwd("f", false);
            b.addStruct("s", 8);
            b.addMember("m", 1, 0, 0);
        });
        add("member of FUNC_PROTO type", Rule.MEMBER_TYPE, 3, b -> {
            intType(b);
            b.addFuncProto(1);
            b.addStruct("s", 8);
            b.addMember("m", 2, 0, 0);
        });
        add("member of void type", Rule.MEMBER_TYPE, 1, b -> {
            b.addStruct("s", 8);
            b.addMember("m", 0, 0, 0);
        });
        add("members out of order", Rule.MEMBER_ORDER, 2, b -> {
            intType(b);
            b.addStruct("s", 8);
            b.addMember("a", 1, 32, 0);
            b.addMember("b", 1, 0, 0);
        });
        add("UNION member at bit 8", Rule.UNION_MEMBER_OFFSET, 2, b -> {
            intType(b);
            b.addUnion("u", 8);
            b.addMember("a", 1, 8, 0);
        });
        add("member starting past the size", Rule.MEMBER_OFFSET, 2, b -> {
            intType(b);
            b.addStruct("s", 4);
            b.addMember("a", 1, 64, 0);
        });
        add("PTR member at bit 4", Rule.MEMBER_ALIGNMENT, 3, b -> {
            intType(b);
            b.addPtr(1);
            b.addStruct("s", 16);
            b.addMember("p", 2, 4, 0);
        });
        add("double member at bit 32", Rule.FLOAT_ALIGNMENT, 2, b -> {
            b.addFloat("double", 8);
            b.addStruct("s", 16);
            b.addMember("d", 1, 32, 0);
        });
        add("int member ending past the size", Rule.MEMBER_SIZE, 2, b -> {
            intType(b);
            b.addStruct("s", 4);
            b.addMember("a", 1, 32, 0);
        });
        add("kind_flag bitfield on a pointer", Rule.BITFIELD, 3, b -> {
            intType(b);
            b.addPtr(1);
            b.addStruct("s", 8);
            b.addMember("p", 2, 0, 3);
        });
        add("kind_flag bitfield of 40 bits on an enum", Rule.BITFIELD, 2, b -> {
            b.addEnum("e", 4, false);
            b.addEnumValue("A", 1);
            b.addStruct("s", 8);
            b.addMember("x", 1, 0, 40);
        });
        add("kind_flag member of a 3-bit INT", Rule.BITFIELD, 2, b -> {
            b.addInt("i3", 1, 0, 0, 3);
            b.addStruct("s", 4);
            b.addMember("x", 1, 0, 2);
        });
    }

    private void references() {
        add("PTR to a VAR", Rule.REF_TARGET, 3, b -> {
            intVar(b);
            b.addPtr(2);
        });
        add("TYPEDEF of a DATASEC", Rule.REF_TARGET, 4, b -> {
            intVar(b);
            b.addDatasec(".data", 4);
            b.addVarSecinfo(2, 0, 4);
            b.addTypedef("t", 3);
        });
        // [1] INT; [2] PTR -> [3] CONST -> [4] TYPE_TAG 'x' -> [1]
        add("TYPE_TAG after CONST", Rule.TYPE_TAG_ORDER, 3, b -> {
            intType(b);
            b.addPtr(3);
            b.addConst(4);
            b.addTypeTag("x", 1);
        });
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
        addRelaxed("extern FUNC", Rule.FUNC_LINKAGE, 3, b -> {
            intType(b);
            b.addFuncProto(1);
            b.addFunc("f", 2, Kind.LINKAGE_EXTERN);
        });
        addIn(Validator.Profile.STRUCTURAL, "FUNC linkage 3", Rule.FUNC_LINKAGE, 3, b -> {
            intType(b);
            b.addFuncProto(1);
            b.addFunc("f", 2, 3);
        });
        add("FUNC of an INT", Rule.FUNC_PROTO, 2, b -> {
            intType(b);
            b.addFunc("f", 1, Kind.LINKAGE_GLOBAL);
        });
        add("FUNC with an unnamed parameter", Rule.FUNC_PARAM_NAME, 3, b -> {
            intType(b);
            b.addFuncProto(1);
            b.addParam(null, 1);
            b.addFunc("f", 2, Kind.LINKAGE_GLOBAL);
        });
        add("FUNC_PROTO returning a FWD", Rule.PROTO_RETURN, 2, b -> {
            b.addFwd("f", false);
            b.addFuncProto(1);
        });
        add("void parameter before the last", Rule.PROTO_PARAM, 2, b -> {
            intType(b);
            b.addFuncProto(1);
            b.addParam("a", 0);
            b.addParam("b", 1);
        });
        add("named vararg marker", Rule.PROTO_PARAM, 2, b -> {
            intType(b);
            b.addFuncProto(1);
            b.addParam("a", 1);
            b.addParam("rest", 0);
        });
    }

    private void variables() {
        addRelaxed("extern VAR", Rule.VAR_LINKAGE, 2, b -> {
            intType(b);
            b.addVar("v", 1, Kind.LINKAGE_EXTERN);
        });
        add("VAR of void", Rule.VAR_TYPE, 1, b -> b.addVar("v", 0, Kind.LINKAGE_GLOBAL));
        add("VAR of a FUNC_PROTO", Rule.VAR_TYPE, 3, b -> {
            intType(b);
            b.addFuncProto(1);
            b.addVar("v", 2, Kind.LINKAGE_GLOBAL);
        });
        add("DATASEC of size 0", Rule.DATASEC_SIZE, 1, b -> b.addDatasec(".bss", 0));
        add("DATASEC entry that is an INT", Rule.DATASEC_ENTRY, 2, b -> {
            intType(b);
            b.addDatasec(".data", 4);
            b.addVarSecinfo(1, 0, 4);
        });
        add("overlapping DATASEC entries", Rule.DATASEC_LAYOUT, 4, b -> {
            intVar(b);
            b.addVar("w", 1, Kind.LINKAGE_GLOBAL);
            b.addDatasec(".data", 8);
            b.addVarSecinfo(2, 0, 4);
            b.addVarSecinfo(3, 2, 4);
        });
        add("DATASEC entry smaller than its VAR", Rule.DATASEC_LAYOUT, 3, b -> {
            intVar(b);
            b.addDatasec(".data", 4);
            b.addVarSecinfo(2, 0, 2);
        });
    }

    private void tags() {
        add("DECL_TAG on an INT", Rule.DECL_TAG_TARGET, 2, b -> {
            intType(b);
            b.addDeclTag("tag", 1, -1);
        });
        add("DECL_TAG on member 5 of 1", Rule.DECL_TAG_COMPONENT, 3, b -> {
            intType(b);
            b.addStruct("s", 4);
            b.addMember("a", 1, 0, 0);
            b.addDeclTag("tag", 2, 5);
        });
        add("DECL_TAG with a component of a VAR", Rule.DECL_TAG_COMPONENT, 3, b -> {
            intVar(b);
            b.addDeclTag("tag", 2, 0);
        });
        add("DECL_TAG component_idx -2", Rule.DECL_TAG_COMPONENT, 3, b -> {
            intVar(b);
            b.addDeclTag("tag", 2, -2);
        });
        add("empty DECL_TAG value", Rule.NAME_MISSING, 3, b -> {
            intVar(b);
            b.addDeclTag(null, 2, -1);
        });
    }

    private void graph() {
        // [1] STRUCT 'a' size=4 vlen=1: 'self' type_id=1
        add("STRUCT containing itself", Rule.LOOP, 1, b -> {
            b.addStruct("a", 4);
            b.addMember("self", 1, 0, 0);
        });
        add("two STRUCTs containing each other", Rule.LOOP, 2, b -> {
            intType(b);
            b.addStruct("a", 8);
            b.addMember("b", 3, 0, 0);
            b.addStruct("b", 8);
            b.addMember("a", 2, 0, 0);
        });
        add("TYPEDEF cycle", Rule.LOOP, 1, b -> {
            b.addTypedef("a", 2);
            b.addTypedef("b", 1);
        });
        // [1] PTR -> [2] CONST -> [1]: a pointer loop without any pointee
        add("pointer loop through CONST", Rule.LOOP, 1, b -> {
            b.addPtr(2);
            b.addConst(1);
        });
        add("ARRAY of itself", Rule.LOOP, 2, b -> {
            intType(b);
            b.addArray(2, 1, 1);
        });
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
