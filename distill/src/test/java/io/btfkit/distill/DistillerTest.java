package io.btfkit.distill;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import io.btfkit.core.text.RawTextPrinter;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** Hand-made cases for each distillation rule: what goes to the base, what is copied, numbering, strings, errors. */
class DistillerTest {

    private static String text(Btf btf) {
        return RawTextPrinter.toText(btf);
    }

    /** The kernel selftest's case (prog_tests/btf_distill.c, "distilled_base"), same expectations. */
    @Test
    void selftestDistilledBase() {
        BtfBuilder b = new BtfBuilder();
        b.addInt("int", 4, Kind.INT_SIGNED); // 1
        b.addPtr(1); // 2
        b.addStruct("s1", 8); // 3
        b.addMember("f1", 2, 0, 0);
        b.addStruct("", 12); // 4
        b.addMember("f1", 1, 0, 0);
        b.addMember("f2", 3, 32, 0);
        b.addInt("unsigned int", 4, 0); // 5
        b.addUnion("u1", 12); // 6
        b.addMember("f1", 1, 0, 0);
        b.addMember("f2", 2, 0, 0);
        b.addUnion("", 4); // 7
        b.addMember("f1", 1, 0, 0);
        b.addEnum("e1", 4, false); // 8
        b.addEnumValue("v1", 1);
        b.addEnum("", 4, false); // 9
        b.addEnumValue("av1", 2);
        b.addEnum64("e641", 8, true); // 10
        b.addEnumValue("v1", 1024);
        b.addEnum64("", 8, true); // 11
        b.addEnumValue("v1", 1025);
        b.addStruct("unneeded", 4); // 12
        b.addMember("f1", 1, 0, 0);
        b.addStruct("embedded", 4); // 13
        b.addMember("f1", 1, 0, 0);
        b.addFuncProto(1); // 14
        b.addParam("p1", 1);
        b.addArray(1, 1, 3); // 15
        b.addStruct("from_proto", 4); // 16
        b.addMember("f1", 1, 0, 0);
        b.addUnion("u1", 4); // 17
        b.addMember("f1", 1, 0, 0);
        Btf base = b.build();

        BtfBuilder s = new BtfBuilder(base);
        s.addPtr(3); // 18
        s.addPtr(4); // 19
        s.addConst(6); // 20
        s.addRestrict(7); // 21
        s.addVolatile(8); // 22
        s.addTypedef("et", 9); // 23
        s.addConst(10); // 24
        s.addPtr(11); // 25
        s.addStruct("with_embedded", 4); // 26
        s.addMember("f1", 13, 0, 0);
        s.addFunc("fn", 14, Kind.LINKAGE_STATIC); // 27
        s.addTypedef("arraytype", 15); // 28
        s.addFuncProto(1); // 29
        s.addParam("p1", 16);
        Btf split = s.build();

        Distiller.Result r = Distiller.distill(split);
        assertEquals(""
                + "[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n"
                + "[2] STRUCT 's1' size=8 vlen=0\n"
                + "[3] UNION 'u1' size=12 vlen=0\n"
                + "[4] ENUM 'e1' encoding=UNSIGNED size=4 vlen=0\n"
                + "[5] ENUM 'e641' encoding=UNSIGNED size=8 vlen=0\n"
                + "[6] STRUCT 'embedded' size=4 vlen=0\n"
                + "[7] STRUCT 'from_proto' size=4 vlen=0\n", text(r.distilledBase()));
        assertEquals(""
                + "[8] PTR '(anon)' type_id=2\n"
                + "[9] PTR '(anon)' type_id=20\n"
                + "[10] CONST '(anon)' type_id=3\n"
                + "[11] RESTRICT '(anon)' type_id=21\n"
                + "[12] VOLATILE '(anon)' type_id=4\n"
                + "[13] TYPEDEF 'et' type_id=22\n"
                + "[14] CONST '(anon)' type_id=5\n"
                + "[15] PTR '(anon)' type_id=23\n"
                + "[16] STRUCT 'with_embedded' size=4 vlen=1\n"
                + "\t'f1' type_id=6 bits_offset=0\n"
                + "[17] FUNC 'fn' type_id=24 linkage=static\n"
                + "[18] TYPEDEF 'arraytype' type_id=25\n"
                + "[19] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1\n"
                + "\t'p1' type_id=7\n"
                + "[20] STRUCT '(anon)' size=12 vlen=2\n"
                + "\t'f1' type_id=1 bits_offset=0\n"
                + "\t'f2' type_id=2 bits_offset=32\n"
                + "[21] UNION '(anon)' size=4 vlen=1\n"
                + "\t'f1' type_id=1 bits_offset=0\n"
                + "[22] ENUM '(anon)' encoding=UNSIGNED size=4 vlen=1\n"
                + "\t'av1' val=2\n"
                + "[23] ENUM64 '(anon)' encoding=SIGNED size=8 vlen=1\n"
                + "\t'v1' val=1025LL\n"
                + "[24] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1\n"
                + "\t'p1' type_id=1\n"
                + "[25] ARRAY '(anon)' type_id=1 index_type_id=1 nr_elems=3\n", text(r.newSplit()));
        assertSame(r.distilledBase(), r.newSplit().base());
    }

    @Test
    void referencesThroughReferenceTypesAreFollowedButNotIntoNamedStructs() {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int l = b.addInt("long", 8, Kind.INT_SIGNED); // only a member of 's': not needed
        int s = b.addStruct("s", 16);
        b.addMember("a", i, 0, 0);
        b.addMember("b", l, 64, 0);
        int td = b.addTypedef("s_t", s);
        int p = b.addPtr(td);
        Btf base = b.build();
        BtfBuilder sb = new BtfBuilder(base);
        sb.addConst(p);
        sb.addPtr(i);
        Distiller.Result r = Distiller.distill(sb.build());
        assertEquals("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n"
                + "[2] STRUCT 's' size=16 vlen=0\n", text(r.distilledBase()));
        assertEquals("[3] CONST '(anon)' type_id=6\n"
                + "[4] PTR '(anon)' type_id=1\n"
                + "[5] TYPEDEF 's_t' type_id=2\n"
                + "[6] PTR '(anon)' type_id=5\n", text(r.newSplit()));
    }

    @Test
    void intFloatAndFwdAreKeptWholeEnumsBecomeSizedUnsignedEnums() {
        BtfBuilder b = new BtfBuilder();
        int bits = b.addInt("u3", 1, 0, 2, 3);
        int f = b.addFloat("double", 8);
        int fw = b.addFwd("fw", true);
        int e = b.addEnum("se", 2, true);
        b.addEnumValue("neg", -1);
        int e64 = b.addEnum64("big", 8, false);
        b.addEnumValue("v", 1L << 40);
        Btf base = b.build();
        BtfBuilder sb2 = new BtfBuilder(base);
        sb2.addStruct("user", 32);
        sb2.addMember("a", bits, 0, 0);
        sb2.addMember("b", f, 64, 0);
        sb2.addMember("c", base.typeCount() + 1, 128, 0);
        sb2.addPtr(fw);
        sb2.addVolatile(e);
        sb2.addVolatile(e64);
        Distiller.Result r = Distiller.distill(sb2.build());
        assertEquals(""
                + "[1] INT 'u3' size=1 bits_offset=2 nr_bits=3 encoding=(none)\n"
                + "[2] FLOAT 'double' size=8\n"
                + "[3] FWD 'fw' fwd_kind=union\n"
                + "[4] ENUM 'se' encoding=UNSIGNED size=2 vlen=0\n"
                + "[5] ENUM 'big' encoding=UNSIGNED size=8 vlen=0\n", text(r.distilledBase()));
        assertEquals(""
                + "[6] STRUCT 'user' size=32 vlen=3\n"
                + "\t'a' type_id=1 bits_offset=0\n"
                + "\t'b' type_id=2 bits_offset=64\n"
                + "\t'c' type_id=7 bits_offset=128\n"
                + "[7] PTR '(anon)' type_id=3\n"
                + "[8] VOLATILE '(anon)' type_id=4\n"
                + "[9] VOLATILE '(anon)' type_id=5\n", text(r.newSplit()));
    }

    @Test
    void stringsFollowLibbpfOrderAndReuseDistilledBaseNames() {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int s = b.addStruct("task", 8);
        b.addMember("x", i, 0, 0);
        int anon = b.addStruct("", 4);
        b.addMember("zeta", i, 0, 0);
        Btf base = b.build();
        BtfBuilder sb = new BtfBuilder(base);
        sb.addStruct("mod", 16);
        sb.addMember("task", s, 0, 0); // a member named like a distilled type: its name comes from the distilled base
        sb.addMember("alpha", anon, 64, 0);
        Distiller.Result r = Distiller.distill(sb.build());
        assertArrayEquals("\0int\0task\0".getBytes(), r.distilledBase().strings().bytes());
        assertArrayEquals("mod\0alpha\0zeta\0".getBytes(), r.newSplit().strings().bytes(),
                "own types' strings first, then the copied anonymous struct's; 'task' and 'int' reused from the base");
        assertEquals(5, r.newSplit().extra(3, 0), "member 'task' names the distilled base's string");
    }

    @Test
    void outputsKeepTheInputByteOrderWithAClassicHeader() {
        BtfBuilder b = new BtfBuilder();
        b.addInt("int", 4, Kind.INT_SIGNED);
        Btf base = b.build();
        byte[] be = BtfWriter.write(base, base.format().withOrder(ByteOrder.BIG_ENDIAN));
        Btf beBase = BtfReader.read(be);
        BtfBuilder sb = new BtfBuilder(beBase);
        sb.addPtr(1);
        Distiller.Result r = Distiller.distill(sb.build());
        assertEquals(ByteOrder.BIG_ENDIAN, r.distilledBase().format().order());
        assertEquals(ByteOrder.BIG_ENDIAN, r.newSplit().format().order());
        assertEquals(24, r.newSplit().format().headerLength());
        Btf back = BtfReader.read(BtfWriter.write(r.newSplit()), BtfReader.read(BtfWriter.write(r.distilledBase())));
        assertEquals("[2] PTR '(anon)' type_id=1\n", text(back));
    }

    @Test
    void aReferenceToABaseFuncIsAnErrorNamingThePath() {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int proto = b.addFuncProto(i);
        int fn = b.addFunc("helper", proto, Kind.LINKAGE_GLOBAL);
        int td = b.addTypedef("fn_t", fn); // malformed in C terms, but reaches a FUNC through a base typedef
        Btf base = b.build();
        BtfBuilder sb = new BtfBuilder(base);
        sb.addPtr(td);
        OperationException e = assertThrows(OperationException.class, () -> Distiller.distill(sb.build()));
        assertEquals("split type [5] (via [4]) refers to base type [3] FUNC 'helper'; a distilled base can only stand for"
                + " INT, FLOAT, FWD, STRUCT, UNION, ENUM, ENUM64 and reference types", e.getMessage());
    }

    @Test
    void referencesToBaseVarDatasecAndDeclTagAreErrors() {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int v = b.addVar("counter", i, Kind.LINKAGE_GLOBAL);
        int ds = b.addDatasec(".data", 4);
        b.addVarSecinfo(v, 0, 4);
        int tag = b.addDeclTag("tag", v, -1);
        Btf base = b.build();
        for (int target : new int[] {v, ds, tag}) {
            BtfBuilder sb = new BtfBuilder(base);
            sb.addDeclTag("mine", target, -1);
            OperationException e = assertThrows(OperationException.class, () -> Distiller.distill(sb.build()));
            assertTrue(e.getMessage().contains("refers to base type [" + target + "] " + Kind.name(base.kind(target))),
                    e.getMessage());
        }
    }

    @Test
    void standaloneInputIsAnError() {
        BtfBuilder b = new BtfBuilder();
        b.addInt("int", 4, Kind.INT_SIGNED);
        OperationException e = assertThrows(OperationException.class, () -> Distiller.distill(b.build()));
        assertTrue(e.getMessage().contains("standalone"));
    }

    @Test
    void aNamedEnumOfOddSizeCannotBeDistilled() {
        BtfBuilder b = new BtfBuilder();
        int e = b.addEnum("odd", 3, false);
        Btf base = b.build();
        BtfBuilder sb = new BtfBuilder(base);
        sb.addPtr(e);
        OperationException x = assertThrows(OperationException.class, () -> Distiller.distill(sb.build()));
        assertEquals("base type [1] ENUM 'odd' has size 3; a distilled enum must have size 1, 2, 4 or 8", x.getMessage());
    }

    @Test
    void aSplitWithoutBaseReferencesGivesAnEmptyDistilledBase() {
        BtfBuilder b = new BtfBuilder();
        b.addInt("int", 4, Kind.INT_SIGNED);
        Btf base = b.build();
        BtfBuilder sb = new BtfBuilder(base);
        int own = sb.addInt("mine", 2, 0);
        sb.addPtr(own);
        Distiller.Result r = Distiller.distill(sb.build());
        assertEquals(0, r.distilledBase().ownTypeCount());
        assertEquals("[1] INT 'mine' size=2 bits_offset=0 nr_bits=16 encoding=(none)\n[2] PTR '(anon)' type_id=1\n",
                text(r.newSplit()));
    }
}
