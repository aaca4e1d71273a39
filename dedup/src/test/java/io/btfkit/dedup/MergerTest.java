package io.btfkit.dedup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.TestData;
import io.btfkit.core.text.RawTextParser;
import io.btfkit.core.TypeRefs;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The merge interns strings round by round and grows its string pool between rounds; a merge
 * that releases its inputs rewrites their words in place. The merged graph must not depend on
 * the rounds or on releasing.
 */
class MergerTest {

    /**
     * Same types and the same string in every string slot (the pool's layout depends on which
     * thread interned a string first, so offsets are compared through the strings they name).
     */
    private static void assertSameMerge(Merger.Merged a, Merger.Merged b) {
        assertSameMerge(a, b, "");
    }

    private static void assertSameMerge(Merger.Merged a, Merger.Merged b, String what) {
        assertArrayEquals(a.starts, b.starts);
        // (not the pool's length: when two threads intern one string at once, the loser's copy
        // stays in the arena unused, so the length can differ by a few strings between runs)
        assertCanonical(a, what);
        assertCanonical(b, what);
        int[] wa = a.words.clone();
        int[] wb = b.words.clone();
        List<String> sa = new ArrayList<>();
        List<String> sb = new ArrayList<>();
        for (int t = 0; t + 1 < a.starts.length; t++) {
            TypeRefs.forEachStringSlot(wa, a.starts[t], slot -> {
                sa.add(string(a, wa[slot]));
                wa[slot] = 0;
            });
            TypeRefs.forEachStringSlot(wb, b.starts[t], slot -> {
                sb.add(string(b, wb[slot]));
                wb[slot] = 0;
            });
        }
        assertArrayEquals(wa, wb, what + ": the same types apart from string offsets");
        assertEquals(sa, sb, what);
    }

    /** Every string has one offset: equal strings in any two slots have equal offsets. */
    private static void assertCanonical(Merger.Merged m, String what) {
        java.util.Map<String, Integer> offsetOf = new java.util.HashMap<>();
        int[] w = m.words;
        for (int t = 0; t + 1 < m.starts.length; t++) {
            TypeRefs.forEachStringSlot(w, m.starts[t], slot -> {
                Integer old = offsetOf.putIfAbsent(string(m, w[slot]), w[slot]);
                if (old != null) {
                    assertEquals(old.intValue(), w[slot], what + ": one offset for '" + string(m, w[slot]) + "'");
                }
            });
        }
    }

    private static String string(Merger.Merged m, int off) {
        if (off < m.stringStart) {
            return m.base == null ? "" : m.base.strings().get(off);
        }
        byte[] pb = m.pool;
        int p = off - m.stringStart;
        int e = p;
        while (pb[e] != 0) {
            e++;
        }
        return new String(pb, p, e - p, StandardCharsets.UTF_8);
    }

    private static List<Btf> modules(Btf base) {
        List<Btf> modules = new ArrayList<>();
        for (String m : List.of("ocfs2", "mlx4_core", "gameport")) {
            modules.add(BtfReader.read(TestData.bytes(TestData.golden("modules/" + m + ".btf")), base));
        }
        return modules;
    }

    @Test
    void splitModulesMergeTheSameInAnyRoundsAndWhenReleased() {
        Btf base = BtfReader.read(TestData.bytes(TestData.golden("vmlinux-6.1.0-56.btf")));
        List<Btf> modules = modules(base);
        Merger.Merged full = Merger.merge(modules, null, base, false, modules.size());
        assertSameMerge(full, Merger.merge(modules, null, base, false, 1)); // the pool grows twice
        assertSameMerge(full, Merger.merge(modules, null, base, false));
        List<Btf> released = modules(base);
        assertSameMerge(full, Merger.merge(released, null, base, true, 2));
        assertEquals(java.util.Arrays.asList(null, null, null), released, "every input let go");
        assertSameMerge(full, Merger.merge(modules, null, base, false), "inputs not released are untouched");
    }

    /**
     * Modules merged on a pool seeded with the base's strings ({@code Merger.seedsBase}) and on
     * one that looks in the base first: the same strings, and every base string at the same
     * base offset (a split output names base strings by those offsets).
     */
    @Test
    void aSeededPoolMergesAsThePoolBesideTheBase() {
        Btf base = BtfReader.read(TestData.bytes(TestData.golden("vmlinux-6.1.0-56.btf")));
        List<Btf> modules = modules(base);
        Merger.Merged beside = withSeedBase("never", () -> Merger.merge(modules, null, base, false, 1));
        Merger.Merged seeded = withSeedBase("always", () -> Merger.merge(modules, null, base, false, 1));
        assertSameMerge(beside, seeded, "seeded");
        int baseStrings = 0;
        for (int t = 0; t + 1 < beside.starts.length; t++) {
            int[] n = {0};
            TypeRefs.forEachStringSlot(beside.words, beside.starts[t], slot -> {
                int off = beside.words[slot];
                if (off < beside.stringStart || seeded.words[slot] < seeded.stringStart) {
                    assertEquals(off, seeded.words[slot], "slot " + slot);
                    n[0]++;
                }
            });
            baseStrings += n[0];
        }
        assertTrue(baseStrings > 1000, baseStrings + " base strings named");
        assertEquals(false, Merger.seedsBase(base.strings(), 280_436), "the largest module alone");
        assertEquals(true, Merger.seedsBase(base.strings(), 8_954_410), "the 4,023 modules");
        assertEquals(false, Merger.seedsBase(null, 8_954_410), "no base");
    }

    private static Merger.Merged withSeedBase(String how, java.util.function.Supplier<Merger.Merged> merge) {
        try {
            System.setProperty("btfkit.dedup.seedBase", how);
            return merge.get();
        } finally {
            System.clearProperty("btfkit.dedup.seedBase");
        }
    }

    @Test
    void manyCopiesOfAUnitMergeTheSameInAnyRounds() {
        Btf unit = RawTextParser.parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 'node' size=8 vlen=2
                \t'value' type_id=1 bits_offset=0
                \t'next' type_id=3 bits_offset=32
                [3] PTR '(anon)' type_id=2
                """, null);
        List<Btf> units = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            units.add(unit);
        }
        Merger.Merged full = Merger.merge(units, null, null, false, 500);
        assertSameMerge(full, Merger.merge(units, null, null, false, 3));
        // a unit listed several times is read once per listing
        assertSameMerge(full, Merger.merge(new ArrayList<>(units), null, null, true, 7));
        assertSameMerge(full, Merger.merge(units, null, null, false, 500));
        assertEquals("\0int\0node\0value\0next\0".length(), full.pool.length, "each distinct string once");
    }

    @Test
    void aLargeInputMergesTheSameInterningInSlices() {
        Btf vmlinux = BtfReader.read(TestData.bytes(TestData.golden("vmlinux-6.1.0-56.btf")));
        Merger.Merged whole = Merger.merge(List.of(vmlinux), null, null, false, 1, Integer.MAX_VALUE);
        assertSameMerge(whole, Merger.merge(List.of(vmlinux), null, null, false, 1, 1000), "slices of 1,000 types");
        assertSameMerge(whole, Merger.merge(List.of(vmlinux), null, null, false, 1, 1), "one type per slice");
    }

    /**
     * A whole small unit's strings are interned in one pass over its string slots, else they are
     * numbered first and then interned (per slice of a large unit). Both ways give the same strings
     * in every slot and count the same strings per input (the count decides whether a link is
     * cut in parts, and so its bytes): split modules on a base, standalone units (the pool
     * grown between rounds of one), and a name pointing inside another string.
     */
    @Test
    void wholeUnitsInternAsUnitsCutInSlices() {
        Btf base = BtfReader.read(TestData.bytes(TestData.golden("vmlinux-6.1.0-56.btf")));
        List<Btf> modules = modules(base);
        for (int round : new int[] {1, 3}) {
            Merger.Merged whole = Merger.merge(modules, null, base, false, round, Integer.MAX_VALUE);
            Merger.Merged numbered = Merger.merge(modules, null, base, false, round, Integer.MAX_VALUE, -1);
            assertSameMerge(whole, numbered, "modules, rounds of " + round);
            assertEquals(numbered.stringSharing, whole.stringSharing, "strings per input, rounds of " + round);
            assertSameMerge(whole, Merger.merge(modules, null, base, false, round, 100), "slices of 100 types");
        }

        Btf unit = RawTextParser.parse("""
                [1] INT 'unsigned int' size=4 bits_offset=0 nr_bits=32 encoding=(none)
                [2] STRUCT 'node' size=8 vlen=2
                	'value' type_id=1 bits_offset=0
                	'next' type_id=3 bits_offset=32
                [3] PTR '(anon)' type_id=2
                [4] ENUM 'color' encoding=UNSIGNED size=4 vlen=2
                	'RED' val=0
                	'GREEN' val=1
                """, null);
        // the typedef's name is "int", the tail of "unsigned int"
        int[] words = java.util.Arrays.copyOf(unit.words(), unit.words().length + 3);
        int[] starts = java.util.Arrays.copyOf(unit.starts(), unit.starts().length + 1);
        int at = unit.words().length;
        words[at] = unit.nameOff(1) + "unsigned ".length();
        words[at + 1] = io.btfkit.core.Kind.TYPEDEF << 24;
        words[at + 2] = 1;
        starts[starts.length - 1] = at + 3;
        Btf withTail = new Btf(null, words, starts, unit.strings(), unit.format());
        List<Btf> units = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            units.add(i % 2 == 0 ? unit : withTail);
        }
        Merger.Merged whole = Merger.merge(units, null, null, false, 3, Integer.MAX_VALUE);
        Merger.Merged numbered = Merger.merge(units, null, null, false, 3, Integer.MAX_VALUE, -1);
        assertSameMerge(whole, numbered, "units");
        assertEquals(numbered.stringSharing, whole.stringSharing, "strings per input");
        int typedef = whole.starts[(unit.starts().length - 1) + 4]; // the second unit's fifth type
        assertEquals("int", string(whole, whole.words[typedef]), "a name inside another string");
    }
}
