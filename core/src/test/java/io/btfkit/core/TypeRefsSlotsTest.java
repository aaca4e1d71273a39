package io.btfkit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.BitSet;
import org.junit.jupiter.api.Test;

/**
 * The table-driven slot layout ({@link TypeRefs#typeIdSlot}, {@link TypeRefs#firstTypeIdSlot},
 * {@link TypeRefs#typeIdStride}) agrees with the kind-by-kind walk
 * ({@link TypeRefs#forEachTypeIdSlot}) on every type of a whole vmlinux, every kind seen.
 */
class TypeRefsSlotsTest {
    @Test
    void evenlySpacedSlotsAreTheWalkedSlots() {
        Btf btf = BtfReader.read(TestData.bytes(TestData.vmlinux618()));
        int[] w = btf.words();
        BitSet kinds = new BitSet();
        for (int id = 1; id < btf.typeCount(); id++) {
            int s = btf.startOf(id);
            IntArrayList walked = new IntArrayList();
            TypeRefs.forEachTypeIdSlot(w, s, walked::add);
            assertEquals(walked.size(), TypeRefs.typeIdCount(w, s), "count of type " + id);
            for (int i = 0; i < walked.size(); i++) {
                assertEquals(walked.getInt(i), TypeRefs.typeIdSlot(w, s, i), "slot " + i + " of type " + id);
                assertEquals(walked.getInt(i), TypeRefs.firstTypeIdSlot(w, s) + i * TypeRefs.typeIdStride(w, s),
                        "strided slot " + i + " of type " + id);
            }
            kinds.set(Kind.kindOf(w[s + 1]));
        }
        for (int k : new int[] {Kind.PTR, Kind.ARRAY, Kind.STRUCT, Kind.UNION, Kind.FUNC_PROTO, Kind.DATASEC,
                Kind.TYPEDEF, Kind.FUNC, Kind.VAR, Kind.CONST, Kind.VOLATILE, Kind.DECL_TAG}) {
            assertTrue(kinds.get(k), "vmlinux has no " + Kind.name(k));
        }
    }
}
