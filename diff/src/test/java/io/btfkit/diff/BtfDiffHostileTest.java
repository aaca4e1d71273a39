package io.btfkit.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.Kind;
import org.junit.jupiter.api.Test;

/**
 * Hostile shapes for {@link BtfDiff} (issue 17), each built here: work stays near-linear in the
 * input and every text it spells is bounded.
 */
class BtfDiffHostileTest {

    /** A million structs of one name, diffed against itself: identical definitions pair by fingerprint (was 32 s). */
    @Test
    void millionDefinitionsOfOneNamePairInLinearTime() {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        for (int k = 0; k < 1_000_000; k++) {
            b.addStruct("s", 4);
            b.addMember("a", i, 0, 0);
        }
        Btf btf = b.build();
        assertTrue(BtfDiff.diff(btf, btf).isEmpty());
    }

    /**
     * 15 levels of prototypes with 8 parameters that each point to the next level: a 1 KB BTF
     * whose spelling used to be recomputed 8^15 times and to overflow a 2 GB string.
     */
    @Test
    void prototypesOfPrototypesSpellInBoundedText() {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int proto = b.addFuncProto(i);
        for (int level = 0; level < 15; level++) {
            int ptr = b.addPtr(proto);
            proto = b.addFuncProto(i);
            for (int p = 0; p < 8; p++) {
                b.addParam("p" + p, ptr);
            }
        }
        b.addFunc("f", proto, Kind.LINKAGE_GLOBAL);
        Btf withF = b.build();
        BtfBuilder e = new BtfBuilder();
        e.addInt("int", 4, Kind.INT_SIGNED);
        DiffReport r = BtfDiff.diff(e.build(), withF);
        TypeDiff f = r.find(Status.ADDED, "func", "f");
        assertNotNull(f, DiffTextPrinter.print(r));
        String d = f.descriptionB();
        assertTrue(d.startsWith("int f(int (*p0)(int (*)(int (*)("), d.substring(0, Math.min(80, d.length())));
        assertTrue(d.contains("..."), "cut where the parameter list grows too long");
        assertTrue(d.length() < 64 * TypeNames.MAX_PARAMS_LENGTH, d.length() + " characters");
    }

    /**
     * Anonymous structs 16 deep with 64 members each, all of the next level: flattening would
     * visit 64^16 member paths; it stops at {@link Side#MAX_MEMBERS}.
     */
    @Test
    void nestedAnonymousMembersAreFlattenedWithinABound() {
        Btf a = nested(4);
        Btf b = nested(8);
        DiffReport r = BtfDiff.diff(a, b);
        TypeDiff s = r.find(Status.CHANGED, "struct", "outer");
        assertNotNull(s, DiffTextPrinter.print(r));
        assertTrue(s.members().size() <= 2 * Side.MAX_MEMBERS, s.members().size() + " member entries");
        assertTrue(!s.members().isEmpty());
    }

    private static Btf nested(int leafSize) {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int inner = b.addStruct(null, leafSize);
        b.addMember("leaf", i, 0, 0);
        for (int level = 0; level < 16; level++) {
            int next = b.addStruct(null, leafSize);
            for (int m = 0; m < 64; m++) {
                b.addMember("m" + m, inner, 0, 0);
            }
            inner = next;
        }
        b.addStruct("outer", leafSize);
        b.addMember("x", inner, 0, 0);
        return b.build();
    }

    /** 65,535 members of one name: suffixes a#2 ... a#65535 without searching from 2 each time. */
    @Test
    void repeatedMemberNamesGetSuffixesInLinearTime() {
        Btf a = repeated(0);
        Btf b = repeated(8);
        DiffReport r = BtfDiff.diff(a, b);
        TypeDiff s = r.find(Status.CHANGED, "struct", "s");
        assertNotNull(s);
        assertEquals(65_535, s.members().size(), "every member moved");
        assertEquals("a#65535", s.members().get(s.members().size() - 1).name());
    }

    private static Btf repeated(int shift) {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int c = i;
        for (int k = 0; k < 100_000; k++) {
            c = b.addConst(c);
        }
        b.addStruct("s", 4 * 65_535 + 1);
        for (int m = 0; m < 65_535; m++) {
            b.addMember("a", m % 2 == 0 ? c : i, 32 * m + shift, 0);
        }
        return b.build();
    }
}
