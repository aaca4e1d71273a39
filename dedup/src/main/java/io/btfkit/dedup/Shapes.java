package io.btfkit.dedup;

import io.btfkit.core.Kind;

/**
 * The "shape" of a type: every word of its encoding except the type ids it references, with
 * string offsets already made canonical (equal strings have equal offsets). Two types are
 * equivalent exactly when their shapes are equal and their referenced types are equivalent
 * position by position — this is the field-by-field equality libbpf's {@code btf_equal_*} and
 * {@code btf_shallow_equal_struct} apply (kind, name, kind_flag, vlen, size, int encoding,
 * array count, member names and offsets, enum values, linkage, component index).
 *
 * <p>VAR and DATASEC are never merged (libbpf leaves them unique), so their shapes never equal
 * another node's.
 */
final class Shapes {
    private Shapes() {
    }

    /** Whether {@code kind} is one of the kinds that are never deduplicated. */
    static boolean isUnique(int kind) {
        return kind == Kind.VAR || kind == Kind.DATASEC || !Kind.isKnown(kind);
    }

    /** 64-bit hash of the shape of the type at {@code w[s]}; {@code node} salts unique kinds. */
    static long hash(int[] w, int s, int node) {
        int info = w[s + 1];
        int kind = Kind.kindOf(info);
        int vlen = Kind.vlenOf(info);
        long h = mix(0x9E3779B97F4A7C15L ^ w[s]);
        h = mix(h ^ info);
        if (isUnique(kind)) {
            return mix(h ^ ((long) node << 17) ^ 0x5bd1e995L);
        }
        switch (kind) {
            case Kind.INT:
                h = mix(h ^ w[s + 2]);
                return mix(h ^ w[s + 3]);
            // members are folded in with one multiply-add each (a full mix per member was the
            // costliest part of hashing a struct) and the sum mixed once
            case Kind.ENUM: {
                long acc = w[s + 2];
                for (int i = 0, p = s + 3; i < vlen; i++, p += 2) {
                    acc = acc * FOLD + ((long) w[p] << 32 ^ (w[p + 1] & 0xffffffffL));
                }
                return mix(h ^ mix(acc));
            }
            case Kind.ENUM64: {
                long acc = w[s + 2];
                for (int i = 0, p = s + 3; i < vlen; i++, p += 3) {
                    acc = acc * FOLD + w[p];
                    acc = acc * FOLD + ((long) w[p + 2] << 32 ^ (w[p + 1] & 0xffffffffL));
                }
                return mix(h ^ mix(acc));
            }
            case Kind.STRUCT:
            case Kind.UNION: {
                long acc = w[s + 2];
                for (int i = 0, p = s + 3; i < vlen; i++, p += 3) {
                    acc = acc * FOLD + ((long) w[p] << 32 ^ (w[p + 2] & 0xffffffffL));
                }
                return mix(h ^ mix(acc));
            }
            case Kind.FUNC_PROTO: {
                long acc = 0;
                for (int i = 0, p = s + 3; i < vlen; i++, p += 2) {
                    acc = acc * FOLD + w[p];
                }
                return mix(h ^ mix(acc));
            }
            case Kind.ARRAY:
                h = mix(h ^ w[s + 2]);
                return mix(h ^ w[s + 5]);
            case Kind.FWD:
            case Kind.FLOAT:
                return mix(h ^ w[s + 2]);
            case Kind.DECL_TAG:
                return mix(h ^ w[s + 3]);
            default:
                // PTR, TYPEDEF, VOLATILE, CONST, RESTRICT, FUNC, TYPE_TAG: name and info only
                return h;
        }
    }

    /** Exact shape equality of two types (which may live in different word arrays). */
    static boolean equal(int[] a, int as, int[] b, int bs) {
        int info = a[as + 1];
        if (a[as] != b[bs] || info != b[bs + 1]) {
            return false;
        }
        int kind = Kind.kindOf(info);
        int vlen = Kind.vlenOf(info);
        if (isUnique(kind)) {
            return a == b && as == bs;
        }
        switch (kind) {
            case Kind.INT:
                return a[as + 2] == b[bs + 2] && a[as + 3] == b[bs + 3];
            case Kind.ENUM:
                if (a[as + 2] != b[bs + 2]) {
                    return false;
                }
                return java.util.Arrays.equals(a, as + 3, as + 3 + 2 * vlen, b, bs + 3, bs + 3 + 2 * vlen);
            case Kind.ENUM64:
                if (a[as + 2] != b[bs + 2]) {
                    return false;
                }
                return java.util.Arrays.equals(a, as + 3, as + 3 + 3 * vlen, b, bs + 3, bs + 3 + 3 * vlen);
            case Kind.STRUCT:
            case Kind.UNION:
                if (a[as + 2] != b[bs + 2]) {
                    return false;
                }
                for (int i = 0, p = as + 3, q = bs + 3; i < vlen; i++, p += 3, q += 3) {
                    if (a[p] != b[q] || a[p + 2] != b[q + 2]) {
                        return false;
                    }
                }
                return true;
            case Kind.FUNC_PROTO:
                for (int i = 0, p = as + 3, q = bs + 3; i < vlen; i++, p += 2, q += 2) {
                    if (a[p] != b[q]) {
                        return false;
                    }
                }
                return true;
            case Kind.ARRAY:
                return a[as + 2] == b[bs + 2] && a[as + 5] == b[bs + 5];
            case Kind.FWD:
            case Kind.FLOAT:
                return a[as + 2] == b[bs + 2];
            case Kind.DECL_TAG:
                return a[as + 3] == b[bs + 3];
            default:
                return true;
        }
    }

    /** Odd multiplier of the member fold in {@link #hash}. */
    private static final long FOLD = 0x9E3779B97F4A7C15L;

    /** A 64-bit finaliser (SplitMix64): good avalanche for combining ints into hash keys. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
