package io.btfkit.minimize;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;

/**
 * The value a relocation of a given kind takes from a spec (libbpf's {@code bpf_core_calc_relo}):
 * offsets, sizes, signedness and shifts of the field the spec reaches, the type's id or size,
 * the enumerator's value. A null spec is "no candidate matched": existence kinds and type kinds
 * then give 0, while field reads and ENUMVAL_VALUE cannot be given a value ({@link #POISON}, the
 * instruction libbpf replaces with an invalid one).
 */
final class ReloValue {
    /** Marker: no value, the instruction is poisoned. */
    static final Long POISON = null;

    private ReloValue() {
    }

    /** @param bigEndian whether the program runs big-endian (bitfield left shifts depend on it) */
    static Long of(ReloKind kind, CoreSpec spec, boolean bigEndian) {
        if (kind.isFieldBased()) {
            return field(kind, spec, bigEndian);
        }
        if (kind.isTypeBased()) {
            if (spec == null) {
                return 0L;
            }
            switch (kind) {
                case TYPE_ID_LOCAL, TYPE_ID_TARGET:
                    return (long) spec.rootTypeId();
                case TYPE_EXISTS, TYPE_MATCHES:
                    return 1L;
                default:
                    long size = TypeOps.resolveSize(spec.btf(), spec.rootTypeId());
                    if (size < 0) {
                        throw new ReloFailure(TypeOps.describe(spec.btf(), spec.rootTypeId()) + " has no size");
                    }
                    return size;
            }
        }
        if (kind == ReloKind.ENUMVAL_EXISTS) {
            return spec == null ? 0L : 1L;
        }
        if (spec == null) {
            return POISON;
        }
        Accessor a = spec.accessor(0);
        return TypeOps.enumeratorValue(spec.btf(), a.typeId(), a.index());
    }

    private static Long field(ReloKind kind, CoreSpec spec, boolean bigEndian) {
        if (kind == ReloKind.FIELD_EXISTS) {
            return spec == null ? 0L : 1L;
        }
        if (spec == null) {
            return POISON;
        }
        Btf btf = spec.btf();
        Accessor acc = spec.last();
        if (acc.isArrayStep()) {
            // the spec ends on an array element (or the root itself): only offset and size make sense
            long size = TypeOps.resolveSize(btf, acc.typeId());
            if (size < 0) {
                throw new ReloFailure(TypeOps.describe(btf, acc.typeId()) + " has no size");
            }
            if (kind == ReloKind.FIELD_BYTE_OFFSET) {
                return spec.bitOffset() / 8;
            }
            if (kind == ReloKind.FIELD_BYTE_SIZE) {
                return size;
            }
            throw new ReloFailure(kind.label() + " cannot be applied to an array element");
        }
        int memberType = TypeOps.memberType(btf, acc.typeId(), acc.index());
        int mt = TypeOps.skipModsAndTypedefs(btf, memberType);
        if (mt < 0) {
            throw new ReloFailure("member type chain loops");
        }
        long bitOff = spec.bitOffset();
        long bitSize = TypeOps.memberBitfieldSize(btf, acc.typeId(), acc.index());
        long byteOff;
        long byteSize;
        if (bitSize > 0) {
            // the smallest aligned load (of at least the field type's size) holding every bit
            byteSize = Integer.toUnsignedLong(btf.sizeOrType(mt));
            if (byteSize == 0) {
                throw new ReloFailure("bitfield of zero-sized " + TypeOps.describe(btf, mt));
            }
            byteOff = bitOff / 8 / byteSize * byteSize;
            while (bitOff + bitSize - byteOff * 8 > byteSize * 8) {
                if (byteSize >= 8) {
                    throw new ReloFailure("bitfield cannot be read with one 64-bit load");
                }
                byteSize *= 2;
                byteOff = bitOff / 8 / byteSize * byteSize;
            }
        } else {
            byteSize = TypeOps.resolveSize(btf, memberType);
            if (byteSize < 0) {
                throw new ReloFailure("field of " + TypeOps.describe(btf, memberType) + " has no size");
            }
            byteOff = bitOff / 8;
            bitSize = byteSize * 8;
        }
        switch (kind) {
            case FIELD_BYTE_OFFSET:
                return byteOff;
            case FIELD_BYTE_SIZE:
                return byteSize;
            case FIELD_SIGNED:
                int k = btf.kind(mt);
                boolean signed = (Kind.isEnum(k) && btf.kindFlag(mt))
                        || (k == Kind.INT && ((btf.extra(mt, 0) >>> 24) & Kind.INT_SIGNED) != 0);
                return signed ? 1L : 0L;
            case FIELD_LSHIFT_U64:
                return bigEndian ? (8 - byteSize) * 8 + (bitOff - byteOff * 8) : 64 - (bitOff + bitSize - byteOff * 8);
            default: // FIELD_RSHIFT_U64
                return 64 - bitSize;
        }
    }
}
