package io.btfkit.diff;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.StringTable;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntArrays;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The types of one side that the diff reports on, sorted by key so the two sides can be walked
 * together: named STRUCT, UNION, ENUM/ENUM64 (one class), FWD, TYPEDEF, FUNC, VAR, DATASEC, INT and
 * FLOAT keyed by (kind class, name); anonymous enums all under (ENUM, ""); DECL_TAGs under their
 * {@link BtfDiff#label label} (tag value and what it tags).
 *
 * <p>Keys are 64-bit hashes of the kind class and the name's bytes, so no name is decoded to a
 * {@code String} while indexing; {@link #split} confirms by byte comparison that a run of equal
 * keys really is one name and separates the (astronomically rare) collisions.
 */
final class EntityIndex {
    final long[] keys;
    final int[] ids;

    private EntityIndex(long[] keys, int[] ids) {
        this.keys = keys;
        this.ids = ids;
    }

    int size() {
        return ids.length;
    }

    /** How many entries from {@code from} on have key {@code key} (0 when the one at {@code from} has not). */
    int runLength(int from, long key) {
        int k = from;
        while (k < keys.length && keys[k] == key) {
            k++;
        }
        return k - from;
    }

    static EntityIndex of(Side s, int from) {
        Btf btf = s.btf;
        int n = Math.max(0, btf.typeCount() - from);
        long[] k = new long[n];
        int[] id = new int[n];
        int count = 0;
        for (int t = from; t < btf.typeCount(); t++) {
            int cls = kindClass(btf.kind(t));
            if (cls < 0) {
                continue;
            }
            int nameOff = btf.nameOff(t);
            if (nameOff < 0 || nameOff >= btf.strings().end()
                    || (cls != Kind.ENUM && ShapeHash.isAnonymous(btf.strings(), nameOff))) {
                continue;
            }
            long h = cls == Kind.DECL_TAG ? labelHash(BtfDiff.label(s, t)) : s.hash.nameHash(nameOff);
            k[count] = ShapeHash.mix(cls, h);
            id[count] = t;
            count++;
        }
        long[] keys = java.util.Arrays.copyOf(k, count);
        int[] ids = java.util.Arrays.copyOf(id, count);
        int[] perm = new int[count];
        for (int i = 0; i < count; i++) {
            perm[i] = i;
        }
        IntArrays.quickSort(perm, (x, y) -> {
            int c = Long.compare(keys[x], keys[y]);
            return c != 0 ? c : Integer.compare(ids[x], ids[y]);
        });
        long[] sk = new long[count];
        int[] si = new int[count];
        for (int i = 0; i < count; i++) {
            sk[i] = keys[perm[i]];
            si[i] = ids[perm[i]];
        }
        return new EntityIndex(sk, si);
    }

    /** The class an entity of this kind is keyed under, or -1 when the kind is not reported on. */
    static int kindClass(int kind) {
        switch (kind) {
            case Kind.STRUCT:
            case Kind.UNION:
            case Kind.FWD:
            case Kind.TYPEDEF:
            case Kind.FUNC:
            case Kind.VAR:
            case Kind.DATASEC:
            case Kind.INT:
            case Kind.FLOAT:
            case Kind.DECL_TAG:
                return kind;
            case Kind.ENUM:
            case Kind.ENUM64:
                return Kind.ENUM;
            default:
                return -1;
        }
    }

    private static long labelHash(String label) {
        long h = 0xcbf29ce484222325L;
        for (byte b : label.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return h;
    }

    /**
     * Splits the ids of one key (from side a and side b) into groups of one real name each:
     * normally one group; several only after a hash collision.
     */
    static List<IntArrayList[]> split(Side sa, IntArrayList as, Side sb, IntArrayList bs) {
        if (as.size() + bs.size() == 1) {
            return List.<IntArrayList[]>of(new IntArrayList[] {as, bs});
        }
        Side refSide = as.isEmpty() ? sb : sa;
        int ref = as.isEmpty() ? bs.getInt(0) : as.getInt(0);
        boolean same = true;
        for (int i = 0; i < as.size() && same; i++) {
            same = sameName(refSide, ref, sa, as.getInt(i));
        }
        for (int i = 0; i < bs.size() && same; i++) {
            same = sameName(refSide, ref, sb, bs.getInt(i));
        }
        List<IntArrayList[]> out = new ArrayList<>(1);
        if (same) {
            out.add(new IntArrayList[] {as, bs});
            return out;
        }
        Map<String, IntArrayList[]> groups = new LinkedHashMap<>();
        for (int i = 0; i < as.size(); i++) {
            group(groups, BtfDiff.label(sa, as.getInt(i)))[0].add(as.getInt(i));
        }
        for (int i = 0; i < bs.size(); i++) {
            group(groups, BtfDiff.label(sb, bs.getInt(i)))[1].add(bs.getInt(i));
        }
        out.addAll(groups.values());
        return out;
    }

    private static IntArrayList[] group(Map<String, IntArrayList[]> groups, String label) {
        return groups.computeIfAbsent(label, k -> new IntArrayList[] {new IntArrayList(), new IntArrayList()});
    }

    /** Same kind class and the same name bytes (the same label for decl tags; any anonymous enums). */
    static boolean sameName(Side x, int ix, Side y, int iy) {
        int kind = x.btf.kind(ix);
        if (kindClass(kind) != kindClass(y.btf.kind(iy))) {
            return false;
        }
        if (kind == Kind.DECL_TAG) {
            return BtfDiff.label(x, ix).equals(BtfDiff.label(y, iy));
        }
        StringTable tx = x.btf.strings();
        StringTable ty = y.btf.strings();
        int ox = x.btf.nameOff(ix);
        int oy = y.btf.nameOff(iy);
        StringTable px = tx.tableOf(ox);
        StringTable py = ty.tableOf(oy);
        byte[] dx = px.bytes();
        byte[] dy = py.bytes();
        int i = ox - px.start();
        int j = oy - py.start();
        while (true) {
            if (i >= dx.length || j >= dy.length) {
                return false;
            }
            byte cx = dx[i++];
            byte cy = dy[j++];
            if (cx != cy) {
                return false;
            }
            if (cx == 0) {
                return true;
            }
        }
    }
}
