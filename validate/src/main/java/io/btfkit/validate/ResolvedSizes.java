package io.btfkit.validate;

import io.btfkit.core.Kind;

/**
 * What the kernel's resolve pass records per type ({@code resolved_ids}, {@code resolved_sizes})
 * and the size query built on it ({@code btf_type_id_size}): for a modifier or VAR, the end of
 * its chain; for an ARRAY, its total size; for a FUNC, its prototype. Own types get their
 * values from the {@link Resolver} as it resolves them (0 until then, as in the kernel, whose
 * arrays start zeroed). Base types are trusted and computed on demand by following their words,
 * with a step limit so a bad base cannot hang the walk.
 */
final class ResolvedSizes {
    /** The kernel's sizeof(void *): BTF is loaded by 64-bit kernels. */
    static final long POINTER_SIZE = 8;
    /** Guard for walking base chains. */
    private static final int BASE_CHAIN_LIMIT = 1 << 16;

    private final Types t;
    private final int[] resolvedId;
    private final int[] resolvedSize;
    /** Second result of {@link #idSize}: the type whose size it returned. */
    int sizeId;

    ResolvedSizes(Types t) {
        this.t = t;
        int n = t.count - t.first;
        this.resolvedId = new int[n];
        this.resolvedSize = new int[n];
    }

    /** Records what own type {@code id} resolved to. */
    void set(int id, int resolvedTo, long size) {
        resolvedId[id - t.first] = resolvedTo;
        resolvedSize[id - t.first] = (int) size;
    }

    /** The id a needs-resolve type resolved to (the end of its modifier chain, a FUNC's prototype, ...). */
    int resolvedIdOf(int id) {
        if (id >= t.first) {
            return resolvedId[id - t.first];
        }
        return id == 0 ? 0 : baseResolvedId(id);
    }

    long resolvedSizeOf(int id) {
        if (id >= t.first) {
            return Types.u32(resolvedSize[id - t.first]);
        }
        return baseArraySize(id);
    }

    /**
     * {@code btf_type_id_size}: the size of {@code id} following modifiers and VARs through
     * their resolved ids, or -1 when it has none; {@link #sizeId} is set to the sized type.
     */
    long idSize(int id) {
        int k = t.kind(id);
        if (id == 0 || Types.isNoSize(k) || !Kind.isKnown(k)) {
            return -1;
        }
        int target = id;
        if (Types.isModifier(k) || k == Kind.VAR) {
            target = resolvedIdOf(id);
            if (target <= 0) {
                return -1;
            }
            k = t.kind(target);
            if (Types.isNoSize(k) || !Kind.isKnown(k)) {
                return -1;
            }
        }
        sizeId = target;
        if (Kind.hasSize(k)) {
            return Types.u32(t.word2(target));
        }
        if (k == Kind.ARRAY) {
            return resolvedSizeOf(target);
        }
        if (k == Kind.PTR) {
            return POINTER_SIZE;
        }
        return -1;
    }

    /** INT with whole bytes, offset 0 and 1, 2, 4, 8 or 16 bytes ({@code btf_type_int_is_regular}). */
    boolean isRegularInt(int id) {
        int data = t.extra(id, 0);
        int bits = data & 0xff;
        int bytes = bits >>> 3;
        return (bits & 7) == 0 && ((data >>> 16) & 0xff) == 0 && bytes <= 16 && Integer.bitCount(bytes) == 1;
    }

    // --- base types ---

    /**
     * The end of a base modifier chain; a chain that loops (a base carrying a modifier cycle)
     * ends at a modifier of the loop, which has no size, so what refers to it gets a finding.
     */
    private int chainEnd(int id) {
        int cur = id;
        for (int steps = 0; cur != 0 && Types.isModifier(t.kind(cur)); steps++) {
            if (steps > BASE_CHAIN_LIMIT || steps > t.first) { // more steps than base types: a loop
                return cur;
            }
            cur = t.word2(cur);
        }
        return cur;
    }

    private int baseResolvedId(int id) {
        switch (t.kind(id)) {
            case Kind.PTR:
            case Kind.VAR:
            case Kind.TYPEDEF:
            case Kind.VOLATILE:
            case Kind.CONST:
            case Kind.RESTRICT:
            case Kind.TYPE_TAG:
                return chainEnd(t.word2(id));
            case Kind.ARRAY:
                return chainEnd(t.extra(id, 0));
            case Kind.FUNC:
            case Kind.DECL_TAG:
                return t.word2(id);
            default:
                return 0;
        }
    }

    private long baseArraySize(int id) {
        long n = 1;
        int cur = id;
        for (int steps = 0; steps < BASE_CHAIN_LIMIT; steps++) {
            int k = t.kind(cur);
            if (k == Kind.ARRAY) {
                n = Math.min(n * Types.u32(t.extra(cur, 2)), 1L << 33);
                cur = t.extra(cur, 0);
            } else if (Types.isModifier(k)) {
                cur = t.word2(cur);
            } else if (Kind.hasSize(k)) {
                return n * Types.u32(t.word2(cur));
            } else {
                return k == Kind.PTR ? n * POINTER_SIZE : 0;
            }
        }
        return 0;
    }
}
