package io.btfkit.minimize;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;

/**
 * Parses a relocation's access string on its local type into a {@link CoreSpec}, as libbpf's
 * {@code bpf_core_parse_spec}: type relocations take only "0"; an enum value relocation takes
 * one enumerator index; a field relocation takes an array-style index on the root, then a
 * member index per struct/union and an element index per array, typedefs and modifiers
 * skipped on the way.
 */
final class SpecParser {
    private SpecParser() {
    }

    static CoreSpec parse(Btf btf, int typeId, String access, ReloKind kind) {
        CoreSpec spec = new CoreSpec(btf, typeId, kind);
        if (kind.isTypeBased()) {
            if (!"0".equals(access)) {
                throw new ReloFailure("access string '" + access + "' of a type relocation is not '0'");
            }
            return spec;
        }
        int[] raw = parseIndices(access);
        int id = TypeOps.skipModsAndTypedefs(btf, typeId);
        if (id <= 0) {
            throw new ReloFailure("type [" + typeId + "] resolves to void or loops");
        }
        spec.pushRaw(raw[0]);
        if (kind.isEnumValueBased()) {
            if (!Kind.isEnum(btf.kind(id)) || raw.length > 1 || raw[0] >= btf.vlen(id)) {
                throw new ReloFailure("access string '" + access + "' names no enumerator of " + TypeOps.describe(btf, id));
            }
            spec.addAccessor(new Accessor(id, raw[0], TypeOps.enumeratorName(btf, id, raw[0])));
            return spec;
        }
        spec.addAccessor(new Accessor(id, raw[0], null));
        long size = TypeOps.resolveSize(btf, id);
        if (size < 0) {
            throw new ReloFailure(TypeOps.describe(btf, id) + " has no size");
        }
        spec.addBits(raw[0] * size * 8);
        for (int i = 1; i < raw.length; i++) {
            id = TypeOps.skipModsAndTypedefs(btf, id);
            if (id <= 0) {
                throw new ReloFailure("access string '" + access + "' runs into void or a loop at index " + i);
            }
            int idx = raw[i];
            int k = btf.kind(id);
            if (Kind.isComposite(k)) {
                if (idx >= btf.vlen(id)) {
                    throw new ReloFailure("member " + idx + " of " + TypeOps.describe(btf, id) + " does not exist");
                }
                spec.addBits(TypeOps.memberBitOffset(btf, id, idx));
                String name = TypeOps.memberName(btf, id, idx);
                if (!name.isEmpty()) {
                    spec.addAccessor(new Accessor(id, idx, name));
                }
                id = TypeOps.memberType(btf, id, idx);
            } else if (k == Kind.ARRAY) {
                int nelems = btf.extra(id, 2);
                int elem = TypeOps.skipModsAndTypedefs(btf, btf.extra(id, 0));
                if (elem < 0) {
                    throw new ReloFailure("array [" + id + "] element type loops");
                }
                if (!isFlexibleArray(btf, spec.last(), nelems) && Integer.compareUnsigned(idx, nelems) >= 0) {
                    throw new ReloFailure("index " + idx + " past the " + Integer.toUnsignedString(nelems)
                            + " elements of array [" + id + "]");
                }
                spec.addAccessor(new Accessor(elem, idx, null));
                long esize = TypeOps.resolveSize(btf, elem);
                if (esize < 0) {
                    throw new ReloFailure("array element " + TypeOps.describe(btf, elem) + " has no size");
                }
                spec.addBits(idx * esize * 8);
                id = elem;
            } else {
                throw new ReloFailure("index " + i + " of '" + access + "' steps into " + TypeOps.describe(btf, id)
                        + ", neither struct, union nor array");
            }
            spec.pushRaw(idx);
        }
        return spec;
    }

    /**
     * Whether an array of {@code nelems} reached through accessor {@code prev} is a flexible
     * array member: zero elements, the last member of its struct.
     */
    static boolean isFlexibleArray(Btf btf, Accessor prev, int nelems) {
        if (prev == null || prev.isArrayStep() || nelems != 0) {
            return false;
        }
        return prev.index() == btf.vlen(prev.typeId()) - 1;
    }

    /** "0:1:2" → {0, 1, 2}; empty, negative, non-numeric or longer than 64 is refused. */
    static int[] parseIndices(String access) {
        if (access.isEmpty() || access.charAt(0) == ':') {
            throw new ReloFailure("access string '" + access + "' is malformed");
        }
        String[] parts = access.split(":", -1);
        if (parts.length > CoreSpec.MAX_LEN) {
            throw new ReloFailure("access string '" + access.substring(0, 40) + "...' has more than " + CoreSpec.MAX_LEN + " indices");
        }
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 10 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new ReloFailure("access string '" + access + "' is malformed");
            }
            long v = Long.parseLong(p);
            if (v > Integer.MAX_VALUE) {
                throw new ReloFailure("access string '" + access + "' has index " + p + " out of range");
            }
            out[i] = (int) v;
        }
        return out;
    }
}
