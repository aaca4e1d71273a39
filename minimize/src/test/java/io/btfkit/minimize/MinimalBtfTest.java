package io.btfkit.minimize;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.text.RawTextParser;
import io.btfkit.core.text.RawTextPrinter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Minimization of a split target (a module's BTF on vmlinux): the minimal base and split pair,
 * and the standalone output, on hand-built BTF (bytes against bpftool: corpus MinimizeSplitTest).
 */
class MinimalBtfTest {
    private static final Btf BASE = RawTextParser.parse("""
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] STRUCT 'task' size=8 vlen=2
            \t'pid' type_id=1 bits_offset=0
            \t'flags' type_id=1 bits_offset=32
            [3] PTR '(anon)' type_id=2
            [4] INT 'long' size=8 bits_offset=0 nr_bits=64 encoding=SIGNED
            """, null);

    /** The module: its struct points to a base struct and embeds one of its own. */
    private static final Btf MODULE = RawTextParser.parse("""
            [5] STRUCT 'mod_stats' size=8 vlen=1
            \t'hits' type_id=4 bits_offset=0
            [6] STRUCT 'mod' size=24 vlen=3
            \t'owner' type_id=3 bits_offset=0
            \t'refs' type_id=1 bits_offset=64
            \t'stats' type_id=5 bits_offset=128
            [7] ENUM 'mod_state' encoding=UNSIGNED size=4 vlen=1
            \t'MOD_LIVE' val=1
            """, BASE);

    private static final Btf LOCAL = RawTextParser.parse("""
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] STRUCT 'task' size=4 vlen=1
            \t'pid' type_id=1 bits_offset=0
            [3] PTR '(anon)' type_id=2
            [4] STRUCT 'mod' size=16 vlen=2
            \t'owner' type_id=3 bits_offset=0
            \t'refs' type_id=1 bits_offset=64
            """, null);

    /** mod.owner, mod.refs, task.pid: module and base types, references across the boundary. */
    private static Minimizer marked() {
        CoreRelocator relocator = new CoreRelocator(MODULE);
        Minimizer m = new Minimizer(MODULE);
        String[][] relos = {{"4", "0:0"}, {"4", "0:1"}, {"2", "0:0"}};
        for (int i = 0; i < relos.length; i++) {
            m.record(relocator.resolve(LOCAL, LocalRelo.parse(LOCAL, "s", i, 0, Integer.parseInt(relos[i][0]), relos[i][1],
                    ReloKind.FIELD_BYTE_OFFSET.ordinal())));
        }
        return m;
    }

    @Test
    void splitPairRenumbersEachSideAndRemapsReferencesIntoTheBase() {
        MinimalBtf.Split pair = marked().buildSplit();
        assertEquals("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 'task' size=8 vlen=1
                \t'pid' type_id=1 bits_offset=0
                [3] PTR '(anon)' type_id=2
                """, RawTextPrinter.toText(pair.base()));
        assertEquals(4, pair.split().firstId());
        assertEquals("""
                [4] STRUCT 'mod' size=24 vlen=2
                \t'owner' type_id=3 bits_offset=0
                \t'refs' type_id=1 bits_offset=64
                """, RawTextPrinter.toText(pair.split()));
        // the split's own strings continue the base's; "int", "task", "pid" are the base's
        assertEquals("\0int\0task\0pid\0", new String(pair.base().strings().bytes(), StandardCharsets.UTF_8));
        assertEquals("mod\0owner\0refs\0", new String(pair.split().strings().bytes(), StandardCharsets.UTF_8));
        assertEquals(14, pair.split().nameOff(4));
    }

    @Test
    void thePairReadsBackAsSplitBtf() {
        MinimalBtf.Split pair = marked().buildSplit();
        Btf base = BtfReader.read(BtfWriter.write(pair.base()));
        Btf split = BtfReader.read(BtfWriter.write(pair.split()), base);
        assertEquals(RawTextPrinter.toText(pair.split()), RawTextPrinter.toText(split));
        int owner = split.type(4).members().get(0).type();
        assertEquals("task", split.name(split.sizeOrType(owner))); // a split member reaching a base struct
    }

    /** The pair joined end to end is the standalone output (bpftool's bytes on the all-in-one blob). */
    @Test
    void joinedPairIsTheStandaloneOutput() {
        Minimizer m = marked();
        MinimalBtf.Split pair = m.buildSplit();
        byte[] standalone = BtfWriter.write(m.build());
        assertArrayEquals(standalone, RawJoin.join(BtfWriter.write(pair.base()), BtfWriter.write(pair.split())));
        assertEquals(4, BtfReader.read(standalone).typeCount() - 1);
    }

    @Test
    void onlyBaseTypesUsedGivesAnEmptySplit() {
        Minimizer m = new Minimizer(MODULE);
        m.record(new CoreRelocator(MODULE).resolve(LOCAL, LocalRelo.parse(LOCAL, "s", 0, 0, 2, "0:0",
                ReloKind.FIELD_BYTE_OFFSET.ordinal())));
        MinimalBtf.Split pair = m.buildSplit();
        assertEquals(2, pair.base().ownTypeCount());
        assertEquals(0, pair.split().ownTypeCount());
        byte[] raw = BtfWriter.write(pair.split());
        assertEquals(24, raw.length); // no types, no strings: libbpf accepts an empty split string section
        assertEquals(0, BtfReader.read(raw, BtfReader.read(BtfWriter.write(pair.base()))).ownTypeCount());
    }

    @Test
    void onlyModuleTypesUsedGivesAnEmptyBase() {
        Btf local = RawTextParser.parse("""
                [1] ENUM 'mod_state' encoding=UNSIGNED size=4 vlen=1
                \t'MOD_LIVE' val=0
                """, null);
        Minimizer m = new Minimizer(MODULE);
        m.record(new CoreRelocator(MODULE).resolve(local, LocalRelo.parse(local, "s", 0, 0, 1, "0",
                ReloKind.ENUMVAL_VALUE.ordinal())));
        MinimalBtf.Split pair = m.buildSplit();
        assertEquals(0, pair.base().ownTypeCount());
        assertEquals("""
                [1] ENUM 'mod_state' encoding=UNSIGNED size=4 vlen=1
                \t'MOD_LIVE' val=1
                """, RawTextPrinter.toText(pair.split()));
    }

    @Test
    void aStandaloneTargetHasNoSplitPair() {
        Minimizer m = new Minimizer(BASE);
        assertThrows(IllegalStateException.class, m::buildSplit);
    }
}
