package io.btfkit.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hostile shapes for {@link BtfDiff} (issues 17 and 23), each built here: work stays near-linear
 * in the input, every text it spells is bounded, and where a run would still pass its bounds it
 * stops with a {@link DiffLimitException} naming the input, before printing anything.
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
     * visit 64^16 member paths; past {@link Side#MAX_MEMBERS} the diff stops and names the
     * struct (it used to compare the first 65,536 and say nothing).
     */
    @Test
    void nestedAnonymousMembersAreFlattenedWithinABound() {
        DiffLimitException e = assertThrows(DiffLimitException.class, () -> BtfDiff.diff(nested(4), nested(8)));
        assertEquals(0, e.side());
        assertTrue(e.getMessage().contains("has more than 65536 members once its anonymous members are lifted"), e.getMessage());
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

    /**
     * {@code n} named structs, each with one anonymous member into one shared tree of anonymous
     * structs ({@code levels} deep, 16 members each: 16^levels leaf paths), then {@code extra}.
     */
    private static Btf shared(int n, int levels, int size, int leafAt, String extra) {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int inner = b.addStruct(null, 4);
        b.addMember("leaf", i, leafAt, 0);
        for (int level = 0; level < levels; level++) {
            int next = b.addStruct(null, 4);
            for (int m = 0; m < 16; m++) {
                b.addMember(null, inner, 0, 0);
            }
            inner = next;
        }
        for (int k = 0; k < n; k++) {
            b.addStruct("s" + k, size);
            b.addMember(null, inner, 0, 0);
            if (extra != null) {
                b.addMember(extra, i, 0, 0);
            }
        }
        return b.build();
    }

    /** 300 structs that only grew, over a shared tree of 65,536 paths: none is flattened (was 31 s). */
    @Test
    void structsThatOnlyChangedSizeAreNotFlattened() {
        DiffReport r = BtfDiff.diff(shared(300, 4, 4, 0, null), shared(300, 4, 8, 0, null));
        assertEquals(300, r.count(Status.CHANGED));
        for (TypeDiff t : r.types()) {
            assertEquals(List.of(new PropertyChange("size", "4", "8")), t.properties());
            assertTrue(t.members().isEmpty());
        }
    }

    /** 300 structs whose shared tree is equal but a member was renamed: 2.5 million paths to flatten, refused. */
    @Test
    void flatteningIsBoundedPerRun() {
        DiffLimitException e = assertThrows(DiffLimitException.class,
                () -> BtfDiff.diff(shared(300, 3, 4, 0, "x"), shared(300, 3, 4, 0, "y")));
        assertEquals(-1, e.side());
        assertTrue(e.getMessage().startsWith("comparing their structs means flattening more than "), e.getMessage());
        // 5 of them fit: each lists its two changed members (the tree flattened once per side)
        DiffReport r = BtfDiff.diff(shared(5, 3, 4, 0, "x"), shared(5, 3, 4, 0, "y"));
        assertEquals(5, r.count(Status.CHANGED));
        assertEquals(2, r.types().get(0).members().size(), r.types().get(0).members()::toString);
    }

    /** 5,000 structs whose 4,096 shared leaf paths all moved: 20 million changes, refused before printing. */
    @Test
    void reportIsBoundedPerRun() {
        DiffLimitException e = assertThrows(DiffLimitException.class,
                () -> BtfDiff.diff(shared(5000, 3, 4, 0, null), shared(5000, 3, 4, 8, null)));
        assertTrue(e.getMessage().startsWith("the report would take more than 64 MiB ("), e.getMessage());
    }

    /**
     * Prototypes that return and take pointers to the previous level: each spelling holds the
     * whole chain of return types inline, 2^levels characters spelled once per depth before
     * (a 1 KB pair printed 95 MB); now each type is spelled once and its text bounded.
     */
    private static Btf returning(int levels, boolean extraParam) {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int c = b.addInt("char", 1, Kind.INT_SIGNED);
        int prev = i;
        for (int level = 0; level < levels; level++) {
            int proto = b.addFuncProto(prev);
            b.addParam(null, prev);
            b.addParam(null, prev);
            b.addParam(null, prev);
            if (extraParam) {
                b.addParam(null, c);
            }
            prev = b.addPtr(proto);
        }
        int f = b.addFuncProto(c);
        b.addParam("x", prev);
        b.addFunc("f", f, Kind.LINKAGE_GLOBAL);
        return b.build();
    }

    @Test
    void prototypesReturningPrototypesSpellOncePerType() {
        DiffReport r = BtfDiff.diff(returning(28, false), returning(28, true));
        String text = DiffTextPrinter.print(r);
        assertTrue(text.length() < 200_000, text.length() + " characters");
        TypeDiff f = r.find(Status.CHANGED, "func", "f");
        assertNotNull(f, text);
        assertTrue(f.descriptionA().startsWith("char f("), f.descriptionA().substring(0, 40));
    }

    /** A spelling does not depend on where it was first reached (it used to, by depth). */
    @Test
    void aSpellingIsTheSameWhereverItIsReached() {
        Btf btf = returning(40, false);
        int inner = 2 + 2 * 20; // the pointer of level 20
        TypeNames fresh = new Side(btf).names;
        String alone = fresh.of(inner);
        TypeNames used = new Side(btf).names;
        used.of(btf.firstId() + btf.typeCount() - 3); // the top level first: reaches level 20 deep inside
        assertEquals(alone, used.of(inner));
    }

    /**
     * 30,000 levels of prototypes: each spelling is bounded, but spelling them all would build
     * over 2^27 characters; the side that asks for it is named (was 5.9 GB, then a message
     * without the file).
     */
    @Test
    void spellingWorkIsBoundedPerSide() {
        BtfBuilder e = new BtfBuilder();
        e.addInt("int", 4, Kind.INT_SIGNED);
        DiffLimitException x = assertThrows(DiffLimitException.class, () -> BtfDiff.diff(e.build(), returning(30_000, false)));
        assertEquals(1, x.side());
        assertTrue(x.getMessage().startsWith("spelling its types takes more than"), x.getMessage());
    }
}
