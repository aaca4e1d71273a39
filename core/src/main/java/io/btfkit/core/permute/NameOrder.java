package io.btfkit.core.permute;

import io.btfkit.core.Btf;
import io.btfkit.core.StringTable;
import it.unimi.dsi.fastutil.ints.IntArrays;
import it.unimi.dsi.fastutil.ints.IntComparator;

/**
 * Sort orders for {@link Permuter}: each returns the own type ids of a BTF in their new order
 * ({@code order[j]} gets id {@code firstId + j}). Both are total orders (the original id breaks
 * every tie), so the result depends only on the input.
 *
 * <ul>
 *   <li>{@link #byName}: by name, compared byte by byte as unsigned values (C {@code strcmp}), so
 *       anonymous types (empty name) come first; equal names keep their original relative order.
 *       This is exactly the order the kernel build gives vmlinux and module BTF
 *       ({@code resolve_btfids} sorts with {@code strcmp} and breaks ties by id, then calls
 *       {@code btf__permute}); libbpf ({@code btf_check_sorted}) and the kernel recognise it and
 *       then look names up by binary search from the first named type, scanning the run of
 *       equal names for the wanted kind.</li>
 *   <li>{@link #byKindAndName}: by kind number, then named types before anonymous ones, then by
 *       name (as above), then by original id. Groups kinds together for readers; libbpf does not
 *       recognise it as sorted (names are not ascending across kinds).</li>
 * </ul>
 *
 * <p>Sorting is a stable merge sort of an {@code int[]} of ids with a primitive comparator: no
 * boxing, no object per type.
 */
public final class NameOrder {
    private final int first;
    private final int[] nameIndex;
    private final byte[][] nameBytes;
    private final int[] kind;

    private NameOrder(Btf btf) {
        this.first = btf.firstId();
        int n = btf.ownTypeCount();
        this.nameIndex = new int[n];
        this.nameBytes = new byte[n][];
        this.kind = new int[n];
        StringTable strings = btf.strings();
        byte[] empty = {0};
        for (int i = 0; i < n; i++) {
            int id = first + i;
            int off = btf.nameOff(id);
            kind[i] = btf.kind(id);
            if (strings.isValid(off)) {
                StringTable t = strings.tableOf(off);
                nameBytes[i] = t.bytes();
                nameIndex[i] = off - t.start();
            } else {
                nameBytes[i] = empty;
                nameIndex[i] = 0;
            }
        }
    }

    /** Own type ids ordered by name (unsigned bytes, empty first), ties by original id. */
    public static int[] byName(Btf btf) {
        NameOrder o = new NameOrder(btf);
        return o.sorted((a, b) -> {
            int c = o.compareNames(a, b);
            return c != 0 ? c : Integer.compare(a, b);
        });
    }

    /** Own type ids ordered by kind, then named before anonymous, then name, then original id. */
    public static int[] byKindAndName(Btf btf) {
        NameOrder o = new NameOrder(btf);
        return o.sorted((a, b) -> {
            int c = Integer.compare(o.kind[a - o.first], o.kind[b - o.first]);
            if (c != 0) {
                return c;
            }
            boolean anonA = o.isAnonymous(a);
            boolean anonB = o.isAnonymous(b);
            if (anonA != anonB) {
                return anonA ? 1 : -1;
            }
            c = o.compareNames(a, b);
            return c != 0 ? c : Integer.compare(a, b);
        });
    }

    private int[] sorted(IntComparator cmp) {
        int[] ids = new int[kind.length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = first + i;
        }
        IntArrays.stableSort(ids, cmp);
        return ids;
    }

    private boolean isAnonymous(int id) {
        return nameBytes[id - first][nameIndex[id - first]] == 0;
    }

    /** {@code strcmp} of the names of two own types. */
    private int compareNames(int a, int b) {
        byte[] da = nameBytes[a - first];
        byte[] db = nameBytes[b - first];
        int i = nameIndex[a - first];
        int j = nameIndex[b - first];
        if (da == db && i == j) {
            return 0;
        }
        while (true) {
            int ca = i < da.length ? da[i] & 0xff : 0;
            int cb = j < db.length ? db[j] & 0xff : 0;
            if (ca != cb) {
                return ca - cb;
            }
            if (ca == 0) {
                return 0;
            }
            i++;
            j++;
        }
    }

    /** Whether the own types of {@code btf} are in {@link #byName} order by name (libbpf's test). */
    public static boolean isSortedByName(Btf btf) {
        NameOrder o = new NameOrder(btf);
        for (int id = o.first + 1; id < o.first + o.kind.length; id++) {
            if (o.compareNames(id - 1, id) > 0) {
                return false;
            }
        }
        return true;
    }
}
