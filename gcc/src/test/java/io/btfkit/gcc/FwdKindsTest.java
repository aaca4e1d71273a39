package io.btfkit.gcc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.btfkit.core.Btf;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which kind_flag-0 FWDs of a gcc 12 unit declare enums: by the word gcc leaves (7 or 8, or the
 * higher of a struct/enum pair), else by the names the link defines.
 */
class FwdKindsTest {
    private static int[] enums(Btf unit, Btf... others) {
        List<Btf> all = new java.util.ArrayList<>(List.of(others));
        all.add(0, unit);
        return FwdKinds.enumDeclarations(unit, FwdKinds.Anchors.of(all), new QuirkCounts());
    }

    @Test
    void wordsSixAndEightAreStructAndEnum() {
        Btf u = GccText.parse(GccText.PROLOGUE + """
                [9] FWD 'task' fwd_kind=struct type=6
                [10] FWD 'pid_type' fwd_kind=struct type=8
                [11] FWD 'u' fwd_kind=union type=7
                """);
        assertArrayEquals(new int[] {10}, enums(u));
    }

    @Test
    void wordSevenAloneIsAnEnumEvenWithoutNames() {
        Btf u = GccText.parse(GccText.PROLOGUE + "[9] FWD 'e' fwd_kind=struct type=7\n");
        assertArrayEquals(new int[] {9}, enums(u));
    }

    @Test
    void aPairShiftedByDroppedTypesStillSaysWhichIsWhich() {
        // two types dropped before CTF id 6: struct word 4, enum word 6
        Btf u = GccText.parse(GccText.PROLOGUE + """
                [9] FWD 'a' fwd_kind=struct type=4
                [10] FWD 'b' fwd_kind=struct type=6
                [11] FWD 'c' fwd_kind=struct type=4
                """);
        assertArrayEquals(new int[] {10}, enums(u));
    }

    @Test
    void aLoneWordUpToSixIsDecidedByNames() {
        Btf u = GccText.parse(GccText.PROLOGUE + """
                [9] FWD 'e' fwd_kind=struct type=6
                [10] FWD 's' fwd_kind=struct type=6
                [11] FWD 'opaque' fwd_kind=struct type=6
                """);
        Btf other = GccText.parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] ENUM 'e' encoding=UNSIGNED size=4 vlen=1
                \t'E1' val=1
                [3] STRUCT 's' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0
                """);
        assertArrayEquals(new int[] {9}, enums(u, other));
        assertArrayEquals(new int[0], enums(u));
    }

    @Test
    void bytesThatContradictTheNamesChangeNothing() {
        Btf u = GccText.parse(GccText.PROLOGUE + "[9] FWD 's' fwd_kind=struct type=8\n");
        Btf other = GccText.parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 's' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0
                """);
        QuirkCounts kept = new QuirkCounts();
        int[] got = FwdKinds.enumDeclarations(u, FwdKinds.Anchors.of(List.of(u, other)), kept);
        assertArrayEquals(new int[0], got);
        assertEquals(1, kept.count(GccQuirk.FWD_KIND_UNKNOWN));
        assertEquals(9, kept.firstId(GccQuirk.FWD_KIND_UNKNOWN));
    }

    @Test
    void aNameDefinedBothWaysIsLeftOpen() {
        Btf u = GccText.parse(GccText.PROLOGUE + "[9] FWD 'x' fwd_kind=struct type=6\n");
        Btf other = GccText.parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 'x' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0
                [3] ENUM 'x' encoding=UNSIGNED size=4 vlen=1
                \t'X' val=1
                """);
        QuirkCounts kept = new QuirkCounts();
        assertArrayEquals(new int[0], FwdKinds.enumDeclarations(u, FwdKinds.Anchors.of(List.of(u, other)), kept));
        assertEquals(1, kept.count(GccQuirk.FWD_KIND_UNKNOWN));
    }

    @Test
    void aTinyUnitsWordsProveNothing() {
        // fewer than 8 table types: gcc's map lookup ran past its table, the words are garbage
        Btf u = GccText.parse("""
                [1] FWD 's' fwd_kind=struct type=6
                [2] PTR '(anon)' type_id=1
                [3] FWD 'e' fwd_kind=struct type=113386176
                [4] PTR '(anon)' type_id=3
                """);
        assertArrayEquals(new int[0], enums(u));
        Btf other = GccText.parse("""
                [1] ENUM 'e' encoding=UNSIGNED size=4 vlen=1
                \t'E' val=0
                """);
        assertArrayEquals(new int[] {3}, enums(u, other));
    }

    @Test
    void unitsWithoutGcc12FwdWordsAreNotReadThisWay() {
        Btf clang = GccText.parse(GccText.PROLOGUE + "[9] FWD 'e' fwd_kind=struct\n");
        Btf other = GccText.parse("""
                [1] ENUM 'e' encoding=UNSIGNED size=4 vlen=1
                \t'E' val=0
                """);
        assertArrayEquals(new int[0], enums(clang, other));
    }

    @Test
    void threeDistinctWordsBreakTheModel() {
        Btf u = GccText.parse(GccText.PROLOGUE + """
                [9] FWD 'a' fwd_kind=struct type=3
                [10] FWD 'b' fwd_kind=struct type=5
                [11] FWD 'c' fwd_kind=struct type=8
                """);
        assertArrayEquals(new int[0], enums(u));
    }
}
