package io.btfkit.core.permute;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import io.btfkit.core.TypeRefs;
import io.btfkit.core.ext.BtfExt;
import java.util.function.IntUnaryOperator;

/**
 * Reorders the own types of a BTF as libbpf's {@code btf__permute} does: type {@code i} moves to
 * id {@code map[i]}, and every type id field of every type (the ones {@link TypeRefs} lists) and
 * of an accompanying {@code .BTF.ext} follows. The string section is kept byte for byte, so string
 * offsets stay valid; void and base types never move, so references to them are kept as they are.
 *
 * <p>Why the result describes the same types: a type's words are copied unchanged except its
 * type-id fields, and each of those is replaced by the new id of the type it named; since the
 * map is a bijection ({@link IdMap}), applying the inverse map restores the input word for word.
 *
 * <pre>
 * [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED      map {0, 2, 1}      [1] PTR '(anon)' type_id=2
 * [2] PTR '(anon)' type_id=1                                       ------------->     [2] INT 'int' size=4 ...
 * </pre>
 */
public final class Permuter {
    private Permuter() {
    }

    /** {@code btf} with its own types renumbered by {@code idMap} (libbpf form, see {@link IdMap}). */
    public static Btf permute(Btf btf, int[] idMap) {
        return permute(btf, IdMap.of(btf, idMap));
    }

    /** {@code btf} with its own types renumbered by {@code map}, which must be made for it. */
    public static Btf permute(Btf btf, IdMap map) {
        checkFits(btf, map);
        int first = btf.firstId();
        int count = btf.typeCount();
        int n = btf.ownTypeCount();
        int[] w = btf.words();
        int[] st = btf.starts();
        int[] nw = new int[st[n]];
        int[] ns = new int[n + 1];
        int p = 0;
        for (int j = 0; j < n; j++) {
            int oldId = map.oldId(first + j);
            int s = st[oldId - first];
            int len = st[oldId - first + 1] - s;
            ns[j] = p;
            System.arraycopy(w, s, nw, p, len);
            int refs = TypeRefs.typeIdCount(nw, p);
            for (int k = 0; k < refs; k++) {
                int slot = TypeRefs.typeIdSlot(nw, p, k);
                int ref = nw[slot];
                if (Integer.compareUnsigned(ref, first) >= 0) {
                    if (Integer.compareUnsigned(ref, count) >= 0) {
                        throw new BtfFormatException("type [" + oldId + "] " + Kind.name(Kind.kindOf(nw[p + 1]))
                                + " refers to type " + Integer.toUnsignedString(ref) + ", but the last type id is "
                                + (count - 1));
                    }
                    nw[slot] = map.newId(ref);
                }
            }
            p += len;
        }
        ns[n] = p;
        return new Btf(btf.base(), nw, ns, btf.strings(), btf.format());
    }

    /**
     * The {@code .BTF.ext} of an object whose {@code .BTF} is renumbered by {@code map}: its
     * func_info and CO-RE relocation type ids follow the types; string offsets do not change.
     *
     * @throws OperationException when a record names a type id the BTF does not have
     */
    public static BtfExt permute(BtfExt ext, IdMap map) {
        int count = map.typeCount();
        IntUnaryOperator types = id -> {
            if (Integer.compareUnsigned(id, count) >= 0) {
                throw new OperationException(".BTF.ext refers to type id " + Integer.toUnsignedString(id)
                        + ", but the last type id is " + (count - 1));
            }
            return map.newId(id);
        };
        return ext.remap(types, IntUnaryOperator.identity());
    }

    /** {@link #permute(BtfExt, IdMap)} with a map in libbpf form, checked against {@code btf}. */
    public static BtfExt permute(BtfExt ext, Btf btf, int[] idMap) {
        return permute(ext, IdMap.of(btf, idMap));
    }

    /**
     * The id map (libbpf form) that sorts the own types by name the way the kernel build does
     * ({@code resolve_btfids}), so libbpf and the kernel find types by binary search: see
     * {@link NameOrder#byName}.
     */
    public static int[] sortByName(Btf btf) {
        return IdMap.ofOrder(btf, NameOrder.byName(btf)).toArray();
    }

    /** The id map (libbpf form) that groups the own types by kind, then sorts by name: {@link NameOrder#byKindAndName}. */
    public static int[] sortByKindAndName(Btf btf) {
        return IdMap.ofOrder(btf, NameOrder.byKindAndName(btf)).toArray();
    }

    /** {@code btf} sorted by {@link #sortByName}. */
    public static Btf sortedByName(Btf btf) {
        return permute(btf, IdMap.ofOrder(btf, NameOrder.byName(btf)));
    }

    private static void checkFits(Btf btf, IdMap map) {
        if (map.firstId() != btf.firstId() || map.typeCount() != btf.typeCount() || map.isStandalone() == btf.isSplit()) {
            throw new IllegalArgumentException("id map for types " + map.firstId() + ".." + (map.typeCount() - 1)
                    + " does not fit a BTF with types " + btf.firstId() + ".." + (btf.typeCount() - 1));
        }
    }
}
