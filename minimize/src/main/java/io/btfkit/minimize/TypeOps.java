package io.btfkit.minimize;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;

/** The BTF walks CO-RE resolution needs, bounded so that a reference cycle cannot loop. */
final class TypeOps {
    /** libbpf's limit on modifier/typedef chains and size resolution depth. */
    static final int MAX_DEPTH = 32;

    private TypeOps() {
    }

    /**
     * Follows TYPEDEF and modifiers (CONST, VOLATILE, RESTRICT, TYPE_TAG) from {@code id} to the
     * first other type; -1 when the chain is longer than any sane BTF has (a cycle).
     */
    static int skipModsAndTypedefs(Btf btf, int id) {
        for (int depth = 0; depth <= MAX_DEPTH; depth++) {
            if (!btf.isValidId(id)) {
                return -1;
            }
            int k = btf.kind(id);
            if (id == 0 || !(Kind.isModifier(k) || k == Kind.TYPEDEF)) {
                return id;
            }
            id = btf.sizeOrType(id);
        }
        return -1;
    }

    /**
     * The byte size of {@code id} as libbpf's {@code btf__resolve_size} gives it: through
     * typedefs, modifiers and VARs, arrays multiplied out, pointers 8 bytes; -1 for types without
     * a size (void, FWD, FUNC_PROTO, ...) or a size past 32 bits.
     */
    static long resolveSize(Btf btf, int id) {
        long nelems = 1;
        for (int depth = 0; depth <= MAX_DEPTH; depth++) {
            if (!btf.isValidId(id) || id == 0) {
                return -1;
            }
            int k = btf.kind(id);
            long size;
            switch (k) {
                case Kind.INT, Kind.STRUCT, Kind.UNION, Kind.ENUM, Kind.ENUM64, Kind.DATASEC, Kind.FLOAT:
                    size = Integer.toUnsignedLong(btf.sizeOrType(id));
                    break;
                case Kind.PTR:
                    size = 8;
                    break;
                case Kind.TYPEDEF, Kind.VOLATILE, Kind.CONST, Kind.RESTRICT, Kind.TYPE_TAG, Kind.VAR:
                    id = btf.sizeOrType(id);
                    continue;
                case Kind.ARRAY:
                    long n = Integer.toUnsignedLong(btf.extra(id, 2));
                    nelems *= n;
                    if (nelems > 0xffffffffL) {
                        return -1;
                    }
                    id = btf.extra(id, 0);
                    continue;
                default:
                    return -1;
            }
            long total = size * nelems;
            return total > 0xffffffffL ? -1 : total;
        }
        return -1;
    }

    /**
     * Length of the essential part of a CO-RE name: everything before the last {@code ___}
     * flavour separator ({@code task_struct___old} → 11), as libbpf's
     * {@code bpf_core_essential_name_len}: a separator is three underscores with a non-underscore
     * on each side.
     */
    static int essentialNameLength(String name) {
        int n = name.length();
        for (int i = n - 5; i >= 0; i--) {
            if (name.charAt(i) != '_' && name.charAt(i + 1) == '_' && name.charAt(i + 2) == '_'
                    && name.charAt(i + 3) == '_' && name.charAt(i + 4) != '_') {
                return i + 1;
            }
        }
        return n;
    }

    static String essentialName(String name) {
        return name.substring(0, essentialNameLength(name));
    }

    /** Whether the two kinds may be CO-RE candidates of each other: same kind, or ENUM with ENUM64. */
    static boolean kindsCompatible(int k1, int k2) {
        return k1 == k2 || (Kind.isEnum(k1) && Kind.isEnum(k2));
    }

    static String nameOrEmpty(Btf btf, int id) {
        String n = btf.name(id);
        return n == null ? "" : n;
    }

    /** Bit offset of member {@code i} of a struct/union. */
    static int memberBitOffset(Btf btf, int id, int i) {
        int off = btf.extra(id, 3 * i + 2);
        return btf.kindFlag(id) ? off & 0xffffff : off;
    }

    static int memberBitfieldSize(Btf btf, int id, int i) {
        int off = btf.extra(id, 3 * i + 2);
        return btf.kindFlag(id) ? off >>> 24 : 0;
    }

    static int memberType(Btf btf, int id, int i) {
        return btf.extra(id, 3 * i + 1);
    }

    static String memberName(Btf btf, int id, int i) {
        String n = btf.string(btf.extra(id, 3 * i));
        return n == null ? "" : n;
    }

    /** Name of enumerator {@code i} of an ENUM or ENUM64. */
    static String enumeratorName(Btf btf, int id, int i) {
        int words = btf.kind(id) == Kind.ENUM64 ? 3 : 2;
        String n = btf.string(btf.extra(id, words * i));
        return n == null ? "" : n;
    }

    /**
     * Value of enumerator {@code i} as libbpf puts it in a u64: an ENUM's 32-bit value is always
     * sign-extended, whether the enum is signed or not (libbpf reads it as the {@code s32} of
     * {@code struct btf_enum}: an unsigned 0xfffffffc becomes 0xfffffffffffffffc).
     */
    static long enumeratorValue(Btf btf, int id, int i) {
        if (btf.kind(id) == Kind.ENUM64) {
            return ((long) btf.extra(id, 3 * i + 2) << 32) | Integer.toUnsignedLong(btf.extra(id, 3 * i + 1));
        }
        return btf.extra(id, 2 * i + 1);
    }

    /** "struct task_struct", "int", "typedef u32", "struct (anon)"; a long name cut as messages cut it. */
    static String describe(Btf btf, int id) {
        if (id == 0) {
            return "void";
        }
        String name = btf.strings().forMessage(btf.nameOff(id));
        name = name == null ? "" : name;
        int k = btf.kind(id);
        if ((k == Kind.INT || k == Kind.FLOAT) && !name.isEmpty()) {
            return name;
        }
        return Kind.name(k).toLowerCase(java.util.Locale.ROOT) + " " + (name.isEmpty() ? "(anon)" : name);
    }
}
