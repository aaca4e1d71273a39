package io.btfkit.core.permute;

import io.btfkit.core.Btf;
import io.btfkit.core.OperationException;
import java.util.Arrays;

/**
 * A checked renumbering of one BTF's own types, in the form libbpf's {@code btf__permute} takes:
 *
 * <ul>
 *   <li>standalone BTF: one entry per type id {@code 0..N}, entry {@code i} being the new id of
 *       type {@code i}; entry 0 must be 0 (void never moves);</li>
 *   <li>split BTF: one entry per own type, entry {@code i} being the new id of type
 *       {@code firstId + i}; new ids stay in the split range (base types never move).</li>
 * </ul>
 *
 * <p>Why the checks are enough: the map has exactly as many entries as there are own types, every
 * new id lies in the own range and no two entries share one, so it is a bijection of the own ids
 * onto themselves, which is all a permutation needs. Ids below {@link #firstId()} (void, base
 * types) map to themselves.
 */
public final class IdMap {
    private final boolean standalone;
    private final int firstId;
    private final int[] newOfOld;
    private final int[] oldOfNew;

    private IdMap(boolean standalone, int firstId, int[] newOfOld, int[] oldOfNew) {
        this.standalone = standalone;
        this.firstId = firstId;
        this.newOfOld = newOfOld;
        this.oldOfNew = oldOfNew;
    }

    /**
     * Checks {@code idMap} (libbpf form, see the class comment) against {@code btf}.
     *
     * @throws OperationException naming the first problem and the map index where it is
     */
    public static IdMap of(Btf btf, int[] idMap) {
        int first = btf.firstId();
        int n = btf.ownTypeCount();
        boolean standalone = !btf.isSplit();
        int skip = standalone ? 1 : 0;
        int expected = n + skip;
        if (idMap.length != expected) {
            throw new OperationException("id map has " + idMap.length + " entries, expected " + expected
                    + (standalone ? " (one per type id 0.." + n + ", entry 0 being 0)"
                            : " (one per split type " + first + ".." + (first + n - 1) + ")")
                    + (idMap.length > expected ? "; entry " + expected + " is one too many"
                            : "; entry " + idMap.length + " is missing"));
        }
        if (standalone && idMap[0] != 0) {
            throw new OperationException("id map entry 0 is " + Integer.toUnsignedString(idMap[0])
                    + ": void (type id 0) must map to 0");
        }
        int last = first + n - 1;
        int[] newOfOld = new int[n];
        int[] oldOfNew = new int[n];
        Arrays.fill(oldOfNew, -1);
        for (int i = skip; i < idMap.length; i++) {
            int oldId = first + i - skip;
            int to = idMap[i];
            if (Integer.compareUnsigned(to, first) < 0 || Integer.compareUnsigned(to, last) > 0) {
                String what = to == 0 ? "0 (void)" : Integer.toUnsignedString(to);
                String why = standalone ? "" : (Integer.compareUnsigned(to, first) < 0 && to != 0
                        ? ", which is a base type id" : "");
                throw new OperationException("id map entry " + i + " (type [" + oldId + "]) is " + what + why
                        + ": new ids must be in [" + first + ", " + last + "]");
            }
            int prev = oldOfNew[to - first];
            if (prev >= 0) {
                throw new OperationException("id map entries " + (prev - first + skip) + " and " + i
                        + " both map to type id " + to + " (types [" + prev + "] and [" + oldId + "])");
            }
            oldOfNew[to - first] = oldId;
            newOfOld[i - skip] = to;
        }
        return new IdMap(standalone, first, newOfOld, oldOfNew);
    }

    /**
     * The map that puts the own types in the given order: {@code order[j]} is the old id of the
     * type that gets id {@code firstId + j}.
     */
    public static IdMap ofOrder(Btf btf, int[] order) {
        int first = btf.firstId();
        int[] map = new int[order.length + (btf.isSplit() ? 0 : 1)];
        int skip = btf.isSplit() ? 0 : 1;
        for (int j = 0; j < order.length; j++) {
            int oldId = order[j];
            if (oldId < first || oldId - first + skip >= map.length) {
                throw new IllegalArgumentException("order entry " + j + " is " + oldId + ", not an own type id");
            }
            map[oldId - first + skip] = first + j;
        }
        return of(btf, map);
    }

    /** Id of the first type the map moves (1 for standalone BTF). */
    public int firstId() {
        return firstId;
    }

    /** One past the last type id. */
    public int typeCount() {
        return firstId + newOfOld.length;
    }

    public boolean isStandalone() {
        return standalone;
    }

    /** The new id of type {@code oldId}: itself below {@link #firstId()} (void, base types). */
    public int newId(int oldId) {
        if (oldId < firstId) {
            return oldId;
        }
        return newOfOld[oldId - firstId];
    }

    /** The old id of the type that gets {@code newId}. */
    public int oldId(int newId) {
        if (newId < firstId) {
            return newId;
        }
        return oldOfNew[newId - firstId];
    }

    /** The map that undoes this one. */
    public IdMap inverse() {
        return new IdMap(standalone, firstId, oldOfNew.clone(), newOfOld.clone());
    }

    public boolean isIdentity() {
        for (int i = 0; i < newOfOld.length; i++) {
            if (newOfOld[i] != firstId + i) {
                return false;
            }
        }
        return true;
    }

    /** The map in libbpf's form (with the leading 0 for standalone BTF); a fresh array. */
    public int[] toArray() {
        int skip = standalone ? 1 : 0;
        int[] out = new int[newOfOld.length + skip];
        System.arraycopy(newOfOld, 0, out, skip, newOfOld.length);
        return out;
    }
}
