package io.btfkit.core.ext;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.TypeRefs;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link BtfExt#remap}: identity is a no-op, a permutation changes exactly the reference fields. */
class BtfExtRemapTest {

    static Stream<String> objects() {
        return ExtSamples.OBJECTS.stream();
    }

    @ParameterizedTest
    @MethodSource("objects")
    void identityRemapIsByteIdentical(String name) {
        ExtSamples.Sample s = ExtSamples.load(name);
        assertArrayEquals(s.extBytes(), BtfExtWriter.write(s.ext().remap(IntUnaryOperator.identity(), IntUnaryOperator.identity())));
    }

    /** Byte positions of the reference fields, found by walking the encoding independently of the reader. */
    private static List<int[]> referencePositions(byte[] ext, ByteOrder order) {
        ByteBuffer b = ByteBuffer.wrap(ext).order(order);
        int hdr = b.getInt(4);
        List<int[]> out = new ArrayList<>();
        int[][] refWords = {{1}, {1, 2}, {1, 2}};
        boolean[][] isType = {{true}, {false, false}, {true, false}};
        for (int k = 0; k < 3 && 8 + 8 * k + 8 <= hdr; k++) {
            int off = b.getInt(8 + 8 * k);
            int len = b.getInt(12 + 8 * k);
            if (len == 0) {
                continue;
            }
            int p = hdr + off;
            int end = p + len;
            int rec = b.getInt(p);
            p += 4;
            while (p < end) {
                out.add(new int[] {p, 0});
                int n = b.getInt(p + 4);
                p += 8;
                for (int r = 0; r < n; r++, p += rec) {
                    for (int w = 0; w < refWords[k].length; w++) {
                        out.add(new int[] {p + 4 * refWords[k][w], isType[k][w] ? 1 : 0});
                    }
                }
            }
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("objects")
    void permutationChangesExactlyTheReferenceFields(String name) {
        ExtSamples.Sample s = ExtSamples.load(name);
        BtfExt ext = s.ext();
        IntUnaryOperator types = t -> t * 31 + 7;
        IntUnaryOperator strings = o -> ~o;
        byte[] expected = s.extBytes().clone();
        ByteBuffer e = ByteBuffer.wrap(expected).order(ext.order());
        List<int[]> refs = referencePositions(expected, ext.order());
        int typeRefs = 0;
        for (int[] ref : refs) {
            int v = e.getInt(ref[0]);
            e.putInt(ref[0], ref[1] == 1 ? types.applyAsInt(v) : strings.applyAsInt(v));
            typeRefs += ref[1];
        }
        assertEquals(ext.funcInfo().recordCount() + ext.coreRelo().recordCount(), typeRefs);
        byte[] actual = BtfExtWriter.write(ext.remap(types, strings));
        assertArrayEquals(expected, actual);
        int changed = 0;
        for (int i = 0; i < actual.length; i++) {
            changed += actual[i] != s.extBytes()[i] ? 1 : 0;
        }
        assertTrue(changed >= refs.size(), "every reference word changed");
    }

    /**
     * The use deduplication makes of it: renumber the .BTF (here: reverse the type order) and remap
     * .BTF.ext with the same map; every record still names the same function, struct and enum.
     */
    @Test
    void remapFollowsARenumberedBtf() {
        ExtSamples.Sample s = ExtSamples.load("bpf/task_trace.bpf.o");
        Btf btf = s.btf();
        int n = btf.typeCount();
        IntUnaryOperator perm = id -> id == 0 ? 0 : n - id;
        BtfBuilder b = new BtfBuilder(null, btf.strings().bytes());
        for (int newId = 1; newId < n; newId++) {
            int old = perm.applyAsInt(newId);
            int[] w = java.util.Arrays.copyOfRange(btf.words(), btf.startOf(old), btf.startOf(old) + btf.wordCount(old));
            TypeRefs.forEachTypeIdSlot(w, 0, slot -> w[slot] = perm.applyAsInt(w[slot]));
            b.addRaw(w, 0, w.length);
        }
        Btf renumbered = b.build();
        BtfExt ext = s.ext();
        BtfExt moved = ext.remap(perm, IntUnaryOperator.identity());
        assertNotEquals(ext.funcInfo().funcInfo(0).typeId(), moved.funcInfo().funcInfo(0).typeId());
        for (int r = 0; r < ext.funcInfo().recordCount(); r++) {
            assertEquals(btf.name(ext.funcInfo().funcInfo(r).typeId()), renumbered.name(moved.funcInfo().funcInfo(r).typeId()));
        }
        for (int r = 0; r < ext.coreRelo().recordCount(); r++) {
            int oldId = ext.coreRelo().coreRelo(r).typeId();
            int newId = moved.coreRelo().coreRelo(r).typeId();
            assertEquals(btf.name(oldId), renumbered.name(newId));
            assertEquals(btf.kind(oldId), renumbered.kind(newId));
        }
        assertArrayEquals(s.extBytes(), BtfExtWriter.write(moved.remap(perm, IntUnaryOperator.identity())), "the reversal is its own inverse");
    }
}
