package io.btfkit.minimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.text.RawTextParser;
import io.btfkit.core.text.RawTextPrinter;
import org.junit.jupiter.api.Test;

/** BTFGen's marking rules on hand-built BTF, one relocation kind at a time (bytes are checked against bpftool in corpus). */
class MinimizerTest {
    private static final Btf TARGET = RawTextParser.parse("""
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] STRUCT 'task' size=24 vlen=4
            \t'pid' type_id=1 bits_offset=0
            \t'parent' type_id=3 bits_offset=64
            \t'flags' type_id=1 bits_offset=128 bitfield_size=3
            \t'mm' type_id=4 bits_offset=160
            [3] PTR '(anon)' type_id=2
            [4] TYPEDEF 'mm_t' type_id=5
            [5] STRUCT 'mm' size=4 vlen=1
            \t'users' type_id=1 bits_offset=0
            [6] ENUM 'state' encoding=UNSIGNED size=4 vlen=2
            \t'RUNNING' val=3
            \t'DEAD' val=7
            [7] TYPEDEF 'task_p' type_id=3
            [8] FUNC 'f' type_id=9 linkage=static
            [9] FUNC_PROTO '(anon)' ret_type_id=1 vlen=0
            [10] STRUCT 'files' size=4 vlen=0
            [11] STRUCT 'holder' size=8 vlen=1
            \t'f' type_id=12 bits_offset=0
            [12] PTR '(anon)' type_id=10
            """, null);

    private static final Btf LOCAL = RawTextParser.parse("""
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] STRUCT 'task' size=16 vlen=3
            \t'flags' type_id=1 bits_offset=0 bitfield_size=3
            \t'parent' type_id=3 bits_offset=64
            \t'mm' type_id=4 bits_offset=96
            [3] PTR '(anon)' type_id=2
            [4] STRUCT 'mm' size=4 vlen=1
            \t'users' type_id=1 bits_offset=0
            [5] ENUM 'state' encoding=UNSIGNED size=4 vlen=1
            \t'DEAD' val=1
            [6] TYPEDEF 'task_p' type_id=3
            [7] STRUCT 'task' size=4 vlen=1
            \t'pid' type_id=1 bits_offset=0
            [8] STRUCT 'holder' size=8 vlen=1
            \t'f' type_id=9 bits_offset=0
            [9] PTR '(anon)' type_id=10
            [10] STRUCT 'files' size=4 vlen=0
            [11] STRUCT 'nothere' size=4 vlen=0
            """, null);

    private static String minimize(Object... relos) {
        CoreRelocator relocator = new CoreRelocator(TARGET);
        Minimizer m = new Minimizer(TARGET);
        for (int i = 0; i < relos.length; i += 3) {
            m.record(relocator.resolve(LOCAL, LocalRelo.parse(LOCAL, "s", i / 3, 0, (Integer) relos[i], (String) relos[i + 1],
                    ((ReloKind) relos[i + 2]).ordinal())));
        }
        return RawTextPrinter.toText(m.build());
    }

    @Test
    void fieldKeepsOnlyAccessedMembersAtTheirOffsets() {
        String got = minimize(2, "0:0", ReloKind.FIELD_BYTE_OFFSET, 2, "0:1", ReloKind.FIELD_EXISTS);
        assertEquals("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 'task' size=24 vlen=2
                \t'parent' type_id=3 bits_offset=64
                \t'flags' type_id=1 bits_offset=128 bitfield_size=3
                [3] PTR '(anon)' type_id=2
                """, got);
    }

    @Test
    void pointeesOfKeptMembersBecomeVoid() {
        assertEquals("""
                [1] STRUCT 'holder' size=8 vlen=1
                \t'f' type_id=2 bits_offset=0
                [2] PTR '(anon)' type_id=0
                """, minimize(8, "0:0", ReloKind.FIELD_BYTE_OFFSET));
    }

    @Test
    void memberTypesThroughTypedefsAreKeptAsShells() {
        String got = minimize(2, "0:2:0", ReloKind.FIELD_BYTE_OFFSET);
        assertEquals("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 'task' size=24 vlen=1
                \t'mm' type_id=3 bits_offset=160
                [3] TYPEDEF 'mm_t' type_id=4
                [4] STRUCT 'mm' size=4 vlen=1
                \t'users' type_id=1 bits_offset=0
                """, got);
        assertEquals("""
                [1] STRUCT 'task' size=24 vlen=1
                \t'mm' type_id=2 bits_offset=160
                [2] TYPEDEF 'mm_t' type_id=3
                [3] STRUCT 'mm' size=4 vlen=0
                """, minimize(2, "0:2", ReloKind.FIELD_BYTE_OFFSET));
    }

    @Test
    void typeRelocationsFollowPointersButKeepNoMembers() {
        assertEquals("""
                [1] STRUCT 'task' size=24 vlen=0
                [2] PTR '(anon)' type_id=1
                [3] TYPEDEF 'task_p' type_id=2
                """, minimize(6, "0", ReloKind.TYPE_EXISTS));
    }

    @Test
    void typeMatchesKeepsAllMembersButNotBehindPointers() {
        assertEquals("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 'task' size=24 vlen=4
                \t'pid' type_id=1 bits_offset=0
                \t'parent' type_id=3 bits_offset=64
                \t'flags' type_id=1 bits_offset=128 bitfield_size=3
                \t'mm' type_id=4 bits_offset=160
                [3] PTR '(anon)' type_id=2
                [4] TYPEDEF 'mm_t' type_id=5
                [5] STRUCT 'mm' size=4 vlen=1
                \t'users' type_id=1 bits_offset=0
                """, minimize(7, "0", ReloKind.TYPE_MATCHES));
    }

    @Test
    void enumValueKeepsTheWholeEnum() {
        assertEquals("""
                [1] ENUM 'state' encoding=UNSIGNED size=4 vlen=2
                \t'RUNNING' val=3
                \t'DEAD' val=7
                """, minimize(5, "0", ReloKind.ENUMVAL_VALUE));
    }

    @Test
    void unmatchedAndLocalRelocationsKeepNothing() {
        assertEquals("", minimize(11, "0", ReloKind.TYPE_EXISTS, 2, "0", ReloKind.TYPE_ID_LOCAL));
    }

    /** A hostile chain of modifiers: refused with a message, not a stack overflow; a wide DAG is walked once per type. */
    @Test
    void deepChainsAreRefusedAndSharedTypesWalkedOnce() {
        StringBuilder t = new StringBuilder("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n");
        int n = Minimizer.MAX_DEPTH + 10;
        for (int i = 2; i <= n; i++) {
            t.append('[').append(i).append("] CONST '(anon)' type_id=").append(i - 1).append('\n');
        }
        t.append('[').append(n + 1).append("] TYPEDEF 'deep' type_id=").append(n).append('\n');
        Btf deep = RawTextParser.parse(t.toString(), null);
        Btf local = RawTextParser.parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] TYPEDEF 'deep' type_id=1
                """, null);
        ReloResult r = new CoreRelocator(deep).resolve(local, LocalRelo.parse(local, "s", 0, 0, 2, "0", ReloKind.TYPE_EXISTS.ordinal()));
        BtfException e = assertThrows(BtfException.class, () -> new Minimizer(deep).record(r));
        // the relocator refuses such a chain first ("type chain loops"); the minimizer's own bound backs it up
        assertTrue(e.getMessage().contains("loops") || e.getMessage().contains("nested deeper than"), e.getMessage());

        // 40 structs, each with two members of the next: 2^40 paths, 41 types
        StringBuilder w = new StringBuilder("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n");
        for (int i = 2; i <= 41; i++) {
            w.append('[').append(i).append("] STRUCT 's").append(i).append("' size=8 vlen=2\n")
                    .append("\t'a' type_id=").append(i == 41 ? 1 : i + 1).append(" bits_offset=0\n")
                    .append("\t'b' type_id=").append(i == 41 ? 1 : i + 1).append(" bits_offset=32\n");
        }
        Btf wide = RawTextParser.parse(w.toString(), null);
        Btf wideLocal = RawTextParser.parse("[1] STRUCT 's2' size=0 vlen=0\n", null);
        Minimizer m = new Minimizer(wide);
        m.record(new CoreRelocator(wide).resolve(wideLocal, LocalRelo.parse(wideLocal, "s", 0, 0, 1, "0", ReloKind.TYPE_MATCHES.ordinal())));
        assertEquals(41, m.markedTypes());
    }

    @Test
    void ambiguousCandidatesAreAnError() {
        Btf two = RawTextParser.parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 'task' size=8 vlen=1
                \t'pid' type_id=1 bits_offset=0
                [3] STRUCT 'task' size=8 vlen=1
                \t'pid' type_id=1 bits_offset=32
                """, null);
        ReloResult r = new CoreRelocator(two).resolve(LOCAL, LocalRelo.parse(LOCAL, "s", 0, 0, 7, "0:0", ReloKind.FIELD_BYTE_OFFSET.ordinal()));
        assertThrows(BtfException.class, () -> new Minimizer(two).record(r));
    }
}
