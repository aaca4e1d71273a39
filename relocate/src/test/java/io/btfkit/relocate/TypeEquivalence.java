package io.btfkit.relocate;

import io.btfkit.core.Btf;
import io.btfkit.core.TypeRefs;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Test helper: whether type {@code a} of one BTF and type {@code b} of another have the same
 * shape — same words except that names are compared as strings and referenced types are
 * compared the same way, recursively (cycles are assumed equal when met again).
 */
final class TypeEquivalence {
    private TypeEquivalence() {
    }

    /** A description of the first difference, or null when equivalent. */
    static String difference(Btf x, int a, Btf y, int b) {
        boolean sharedBase = x.base() != null && x.base() == y.base();
        int sharedEnd = sharedBase ? x.firstId() : 0;
        ArrayDeque<int[]> work = new ArrayDeque<>();
        LongOpenHashSet seen = new LongOpenHashSet();
        work.push(new int[] {a, b});
        while (!work.isEmpty()) {
            int[] pair = work.pop();
            int p = pair[0];
            int q = pair[1];
            if (p == q && p < sharedEnd) {
                continue; // the very same base type
            }
            if (!seen.add(((long) p << 32) | (q & 0xffffffffL))) {
                continue;
            }
            if (p == 0 || q == 0) {
                if (p != q) {
                    return "[" + p + "] vs [" + q + "]: void vs a type";
                }
                continue;
            }
            Btf ox = x.owner(p);
            Btf oy = y.owner(q);
            int sx = x.startOf(p);
            int sy = y.startOf(q);
            int len = x.wordCount(p);
            if (len != y.wordCount(q)) {
                return "[" + p + "] vs [" + q + "]: different sizes";
            }
            boolean[] special = new boolean[len];
            int[] wx = ox.words();
            int[] wy = oy.words();
            TypeRefs.forEachStringSlot(wx, sx, slot -> special[slot - sx] = true);
            int[] idSlots = new int[TypeRefs.typeIdCount(wx, sx)];
            for (int i = 0; i < idSlots.length; i++) {
                idSlots[i] = TypeRefs.typeIdSlot(wx, sx, i) - sx;
                special[idSlots[i]] = true;
            }
            for (int i = 0; i < len; i++) {
                if (!special[i] && wx[sx + i] != wy[sy + i]) {
                    return "[" + p + "] vs [" + q + "]: word " + i + " differs";
                }
            }
            String[] sxs = strings(x, wx, sx);
            String[] sys = strings(y, wy, sy);
            if (!Arrays.equals(sxs, sys)) {
                return "[" + p + "] vs [" + q + "]: names " + Arrays.toString(sxs) + " vs " + Arrays.toString(sys);
            }
            for (int off : idSlots) {
                work.push(new int[] {wx[sx + off], wy[sy + off]});
            }
        }
        return null;
    }

    private static String[] strings(Btf btf, int[] w, int start) {
        java.util.List<String> out = new java.util.ArrayList<>();
        TypeRefs.forEachStringSlot(w, start, slot -> out.add(btf.strings().latin1(w[slot])));
        return out.toArray(new String[0]);
    }
}
