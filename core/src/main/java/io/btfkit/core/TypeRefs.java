package io.btfkit.core;

import java.util.function.IntConsumer;

/**
 * The one place that knows which words of which kind hold type ids and which hold string
 * offsets. Every pass (reader checks, dedup, remapping, distill, relocate, validate) walks
 * references through here, in libbpf's field order:
 *
 * <ul>
 *   <li>type ids: the size/type word of PTR, TYPEDEF, VOLATILE, CONST, RESTRICT, FUNC, VAR,
 *       DECL_TAG, TYPE_TAG; ARRAY element then index type; each STRUCT/UNION member's type;
 *       FUNC_PROTO return type then each parameter's type; each DATASEC entry's variable.</li>
 *   <li>strings: {@code name_off} of every type, then each member, enumerator or parameter
 *       name.</li>
 * </ul>
 *
 * <p>Slots are absolute indexes into the owning BTF's {@link Btf#words()} array, so a caller
 * can read them or rewrite them in a copy.
 */
public final class TypeRefs {
    private TypeRefs() {
    }

    /** Calls {@code out} with the word index of every type-id field of the type at {@code start}. */
    public static void forEachTypeIdSlot(int[] w, int start, IntConsumer out) {
        int info = w[start + 1];
        int kind = Kind.kindOf(info);
        int vlen = Kind.vlenOf(info);
        switch (kind) {
            case Kind.PTR:
            case Kind.TYPEDEF:
            case Kind.VOLATILE:
            case Kind.CONST:
            case Kind.RESTRICT:
            case Kind.FUNC:
            case Kind.VAR:
            case Kind.DECL_TAG:
            case Kind.TYPE_TAG:
                out.accept(start + 2);
                break;
            case Kind.ARRAY:
                out.accept(start + 3);
                out.accept(start + 4);
                break;
            case Kind.STRUCT:
            case Kind.UNION:
                for (int i = 0, m = start + 4; i < vlen; i++, m += 3) {
                    out.accept(m);
                }
                break;
            case Kind.FUNC_PROTO:
                out.accept(start + 2);
                for (int i = 0, p = start + 4; i < vlen; i++, p += 2) {
                    out.accept(p);
                }
                break;
            case Kind.DATASEC:
                for (int i = 0, v = start + 3; i < vlen; i++, v += 3) {
                    out.accept(v);
                }
                break;
            default:
                break;
        }
    }

    /** Calls {@code out} with the word index of every string-offset field of the type at {@code start}. */
    public static void forEachStringSlot(int[] w, int start, IntConsumer out) {
        out.accept(start);
        int info = w[start + 1];
        int kind = Kind.kindOf(info);
        int vlen = Kind.vlenOf(info);
        switch (kind) {
            case Kind.STRUCT:
            case Kind.UNION:
            case Kind.ENUM64:
                for (int i = 0, m = start + 3; i < vlen; i++, m += 3) {
                    out.accept(m);
                }
                break;
            case Kind.ENUM:
            case Kind.FUNC_PROTO:
                for (int i = 0, m = start + 3; i < vlen; i++, m += 2) {
                    out.accept(m);
                }
                break;
            default:
                break;
        }
    }

    /**
     * For loops without a callback (hot paths): the string fields of the type at {@code start}
     * are its name, {@code w[start]}, then {@code vlen} fields from {@code start + 3} this many
     * words apart; 0 when the name is the only one. Same fields as {@link #forEachStringSlot}.
     */
    public static int memberNameStride(int[] w, int start) {
        return MEMBER_NAME_STRIDE[Kind.kindOf(w[start + 1])];
    }

    /**
     * Number of type-id fields of the type at {@code start}: a per-kind constant plus a per-kind
     * multiple of vlen (tables rather than a switch: this runs several times per type in every
     * pass over millions of types).
     */
    public static int typeIdCount(int[] w, int start) {
        int info = w[start + 1];
        int kind = Kind.kindOf(info);
        return TYPE_IDS_FIXED[kind] + TYPE_IDS_PER_VLEN[kind] * Kind.vlenOf(info);
    }

    /** {@link #typeIdCount} of a type of {@code kind} with {@code vlen} (hot loops that decoded the info word). */
    public static int typeIdCountOf(int kind, int vlen) {
        return TYPE_IDS_FIXED[kind] + TYPE_IDS_PER_VLEN[kind] * vlen;
    }

    /** Offset of the first type-id field from the type's start, by kind ({@link #firstTypeIdSlot}). */
    public static int firstTypeIdOffset(int kind) {
        return FIRST_TYPE_ID[kind];
    }

    /** {@link #typeIdStride} by kind. */
    public static int typeIdStrideOf(int kind) {
        return TYPE_ID_STRIDE[kind];
    }

    private static final byte[] MEMBER_NAME_STRIDE = new byte[128];
    private static final byte[] TYPE_IDS_FIXED = new byte[128];
    private static final byte[] TYPE_IDS_PER_VLEN = new byte[128];

    static {
        MEMBER_NAME_STRIDE[Kind.STRUCT] = 3;
        MEMBER_NAME_STRIDE[Kind.UNION] = 3;
        MEMBER_NAME_STRIDE[Kind.ENUM64] = 3;
        MEMBER_NAME_STRIDE[Kind.ENUM] = 2;
        MEMBER_NAME_STRIDE[Kind.FUNC_PROTO] = 2;
        for (int k : new int[] {Kind.PTR, Kind.TYPEDEF, Kind.VOLATILE, Kind.CONST, Kind.RESTRICT, Kind.FUNC, Kind.VAR,
                Kind.DECL_TAG, Kind.TYPE_TAG}) {
            TYPE_IDS_FIXED[k] = 1;
        }
        TYPE_IDS_FIXED[Kind.ARRAY] = 2;
        TYPE_IDS_PER_VLEN[Kind.STRUCT] = 1;
        TYPE_IDS_PER_VLEN[Kind.UNION] = 1;
        TYPE_IDS_PER_VLEN[Kind.DATASEC] = 1;
        TYPE_IDS_FIXED[Kind.FUNC_PROTO] = 1;
        TYPE_IDS_PER_VLEN[Kind.FUNC_PROTO] = 1;
    }

    /**
     * Per kind: where the first type-id field is relative to the type's start, and how many
     * words apart the next ones are — every kind's type ids are evenly spaced (a FUNC_PROTO's
     * return type sits two words before its first parameter's type), so a hot loop can walk
     * them without decoding the kind per field.
     */
    private static final byte[] FIRST_TYPE_ID = new byte[128];
    private static final byte[] TYPE_ID_STRIDE = new byte[128];

    static {
        java.util.Arrays.fill(FIRST_TYPE_ID, (byte) 2);
        FIRST_TYPE_ID[Kind.ARRAY] = 3;
        TYPE_ID_STRIDE[Kind.ARRAY] = 1;
        FIRST_TYPE_ID[Kind.STRUCT] = 4;
        TYPE_ID_STRIDE[Kind.STRUCT] = 3;
        FIRST_TYPE_ID[Kind.UNION] = 4;
        TYPE_ID_STRIDE[Kind.UNION] = 3;
        TYPE_ID_STRIDE[Kind.FUNC_PROTO] = 2;
        FIRST_TYPE_ID[Kind.DATASEC] = 3;
        TYPE_ID_STRIDE[Kind.DATASEC] = 3;
    }

    /** Word index of the first type-id field of the type at {@code start} (if it has any). */
    public static int firstTypeIdSlot(int[] w, int start) {
        return start + FIRST_TYPE_ID[Kind.kindOf(w[start + 1])];
    }

    /** Words between consecutive type-id fields of the type at {@code start}. */
    public static int typeIdStride(int[] w, int start) {
        return TYPE_ID_STRIDE[Kind.kindOf(w[start + 1])];
    }

    /** Word index of the {@code i}-th type-id field (same order as {@link #forEachTypeIdSlot}). */
    public static int typeIdSlot(int[] w, int start, int i) {
        int kind = Kind.kindOf(w[start + 1]);
        return start + FIRST_TYPE_ID[kind] + TYPE_ID_STRIDE[kind] * i;
    }
}
