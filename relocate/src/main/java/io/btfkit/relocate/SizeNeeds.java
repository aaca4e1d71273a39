package io.btfkit.relocate;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;

/**
 * Which distilled STRUCT/UNIONs the split needs by size, and the first split type that does:
 * a type is needed by size where the kernel resolves its size — as a member by value, an array
 * element, a VAR's type, a FUNC_PROTO's return or parameter type — reached directly or through
 * TYPEDEF, CONST, VOLATILE, RESTRICT, TYPE_TAG and (nested) ARRAY element types, never through
 * a pointer.
 *
 * <p>Such a type cannot be relocated onto a FWD: the kernel rejects an array, member, variable
 * or parameter whose type has no size. libbpf checks sizes only for types embedded in a split
 * STRUCT/UNION (its {@code btf_mark_embedded_composite_type_ids}, {@link DistilledBaseMap#markEmbedded}
 * here), so it maps, say, the element of a {@code const struct mfd_cell[]} onto a base that only
 * declares {@code struct mfd_cell} and writes BTF the kernel refuses; btfkit reports it.
 *
 * <pre>
 * distilled: [1] STRUCT 'mfd_cell' size=144 vlen=0     new base: [6485] FWD 'mfd_cell' fwd_kind=struct
 * split:     [3] CONST '(anon)' type_id=1
 *            [4] ARRAY '(anon)' type_id=3 index_type_id=2 nr_elems=4   needs [1] by size
 * </pre>
 */
final class SizeNeeds {
    /** How a split type needs a distilled type's size. */
    enum Use {
        MEMBER("embedded by value in split type "),
        ARRAY_ELEMENT("array element in split type "),
        VAR_TYPE("type of split variable "),
        RETURN_TYPE("return type of split type "),
        PARAMETER("parameter by value of split type ");

        final String words;

        Use(String words) {
            this.words = words;
        }
    }

    private final int[] by;
    private final Use[] use;

    private SizeNeeds(int[] by, Use[] use) {
        this.by = by;
        this.use = use;
    }

    /** Walks every split type once, each of its by-size references along its chain. */
    static SizeNeeds of(Btf split, int nDist) {
        SizeNeeds needs = new SizeNeeds(new int[nDist], new Use[nDist]);
        int[] w = split.words();
        int count = split.typeCount();
        for (int s = split.firstId(); s < count; s++) {
            int start = split.startOf(s);
            int kind = split.kind(s);
            switch (kind) {
                case Kind.STRUCT:
                case Kind.UNION:
                    for (int m = 0, n = TypeRefs.typeIdCount(w, start); m < n; m++) {
                        needs.follow(split, w[TypeRefs.typeIdSlot(w, start, m)], s, Use.MEMBER);
                    }
                    break;
                case Kind.ARRAY:
                    needs.follow(split, split.extra(s, 0), s, Use.ARRAY_ELEMENT);
                    break;
                case Kind.VAR:
                    needs.follow(split, split.sizeOrType(s), s, Use.VAR_TYPE);
                    break;
                case Kind.FUNC_PROTO:
                    needs.follow(split, split.sizeOrType(s), s, Use.RETURN_TYPE);
                    for (int p = 1, n = TypeRefs.typeIdCount(w, start); p < n; p++) {
                        needs.follow(split, w[TypeRefs.typeIdSlot(w, start, p)], s, Use.PARAMETER);
                    }
                    break;
                default:
                    break;
            }
        }
        return needs;
    }

    /** Follows typedefs, qualifiers, type tags and array elements from {@code next}; a loop ends the walk. */
    private void follow(Btf split, int next, int user, Use how) {
        int count = split.typeCount();
        for (int steps = 0; next != 0 && steps <= count; steps++) {
            int kind = split.kind(next);
            if (kind == Kind.CONST || kind == Kind.RESTRICT || kind == Kind.VOLATILE || kind == Kind.TYPEDEF
                    || kind == Kind.TYPE_TAG) {
                next = split.sizeOrType(next);
            } else if (kind == Kind.ARRAY) {
                next = split.extra(next, 0);
            } else {
                if (Kind.isComposite(kind) && next < by.length && by[next] == 0) {
                    by[next] = user;
                    use[next] = how;
                }
                return;
            }
        }
    }

    /** The first split type that needs distilled type {@code d} by size, or 0. */
    int by(int d) {
        return by[d];
    }

    /** {@code array element in split type [4] ARRAY '(anon)'}; {@code d} must be needed. */
    String describe(Btf split, int d) {
        return use[d].words + DistilledBaseMap.describe(split, by[d]);
    }
}
