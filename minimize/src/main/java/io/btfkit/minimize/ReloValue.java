package io.btfkit.minimize;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;

/**
 * What a relocation of a given kind takes from one spec (libbpf's {@code bpf_core_calc_field_relo},
 * {@code _type_relo}, {@code _enumval_relo}): offsets, sizes, signedness and shifts of the field
 * the spec reaches, the type's id or size, the enumerator's value. libbpf computes it twice per
 * relocation, on the local spec (the value the compiler put in the instruction) and on the
 * target's (the value patched in). A null spec is "no candidate matched": existence kinds and
 * type kinds then give 0, while field reads and ENUMVAL_VALUE cannot be given a value
 * ({@link Calc#poison}, the instruction libbpf replaces with an invalid one).
 */
final class ReloValue {
    private ReloValue() {
    }

    /**
     * One side's result.
     *
     * @param value     the value (u64)
     * @param poison    no value: the instruction is poisoned
     * @param memSize   for {@code byte_off} of a field that is not a bitfield: the field's byte size,
     *                  which a load or store of it uses; else 0
     * @param memTypeId with {@code memSize}: the field's type, typedefs and modifiers skipped
     * @param validate  whether libbpf checks that the instruction holds the local value before it
     *                  patches (not for bitfield offsets and sizes, nor type ids); meaningful on the local side
     */
    record Calc(long value, boolean poison, long memSize, int memTypeId, boolean validate) {
        static final Calc POISON = new Calc(0, true, 0, 0, true);

        static Calc of(long value, boolean validate) {
            return new Calc(value, false, 0, 0, validate);
        }
    }

    /** @param bigEndian whether the program runs big-endian (bitfield left shifts depend on it) */
    static Calc of(ReloKind kind, CoreSpec spec, boolean bigEndian) {
        if (kind.isFieldBased()) {
            return field(kind, spec, bigEndian);
        }
        if (kind.isTypeBased()) {
            if (spec == null) {
                return Calc.of(0, true);
            }
            switch (kind) {
                case TYPE_ID_LOCAL, TYPE_ID_TARGET:
                    // a type id may change when objects are linked: never checked against the instruction
                    return Calc.of(spec.rootTypeId(), false);
                case TYPE_EXISTS, TYPE_MATCHES:
                    return Calc.of(1, true);
                default:
                    long size = TypeOps.resolveSize(spec.btf(), spec.rootTypeId());
                    if (size < 0) {
                        throw new ReloFailure(TypeOps.describe(spec.btf(), spec.rootTypeId()) + " has no size");
                    }
                    return Calc.of(size, true);
            }
        }
        if (kind == ReloKind.ENUMVAL_EXISTS) {
            return Calc.of(spec == null ? 0 : 1, true);
        }
        if (spec == null) {
            return Calc.POISON;
        }
        Accessor a = spec.accessor(0);
        return Calc.of(TypeOps.enumeratorValue(spec.btf(), a.typeId(), a.index()), true);
    }

    private static Calc field(ReloKind kind, CoreSpec spec, boolean bigEndian) {
        if (kind == ReloKind.FIELD_EXISTS) {
            return Calc.of(spec == null ? 0 : 1, true);
        }
        if (spec == null) {
            return Calc.POISON;
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
                return new Calc(spec.bitOffset() / 8, false, size, acc.typeId(), true);
            }
            if (kind == ReloKind.FIELD_BYTE_SIZE) {
                return Calc.of(size, true);
            }
            throw new ReloFailure(kind.label() + " can't be applied to array access");
        }
        int memberType = TypeOps.memberType(btf, acc.typeId(), acc.index());
        int mt = TypeOps.skipModsAndTypedefs(btf, memberType);
        if (mt < 0) {
            throw new ReloFailure("member type chain loops");
        }
        long bitOff = spec.bitOffset();
        long bitSize = TypeOps.memberBitfieldSize(btf, acc.typeId(), acc.index());
        boolean bitfield = bitSize > 0;
        long byteOff;
        long byteSize;
        if (bitfield) {
            // the smallest aligned load (of at least the field type's size) holding every bit
            byteSize = Integer.toUnsignedLong(btf.sizeOrType(mt));
            if (byteSize == 0) {
                throw new ReloFailure("bitfield of zero-sized " + TypeOps.describe(btf, mt));
            }
            byteOff = bitOff / 8 / byteSize * byteSize;
            while (bitOff + bitSize - byteOff * 8 > byteSize * 8) {
                if (byteSize >= 8) {
                    throw new ReloFailure("bitfield can't be satisfied: it cannot be read with one 64-bit load");
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
        // a bitfield's offset, size and left shift are the compiler's guess: not checked
        switch (kind) {
            case FIELD_BYTE_OFFSET:
                return bitfield ? Calc.of(byteOff, false) : new Calc(byteOff, false, byteSize, mt, true);
            case FIELD_BYTE_SIZE:
                return Calc.of(byteSize, !bitfield);
            case FIELD_SIGNED:
                int k = btf.kind(mt);
                boolean signed = (Kind.isEnum(k) && btf.kindFlag(mt))
                        || (k == Kind.INT && ((btf.extra(mt, 0) >>> 24) & Kind.INT_SIGNED) != 0);
                return Calc.of(signed ? 1 : 0, true);
            case FIELD_LSHIFT_U64:
                return Calc.of(bigEndian ? (8 - byteSize) * 8 + (bitOff - byteOff * 8) : 64 - (bitOff + bitSize - byteOff * 8),
                        !bitfield);
            default: // FIELD_RSHIFT_U64
                return Calc.of(64 - bitSize, true);
        }
    }

    /**
     * Whether a load or store may be resized from the local field to the target's (libbpf's rule
     * when the two sizes differ): both pointers, or both integers of which neither has exactly the
     * SIGNED encoding (a zero-extended unsigned value stays right; a sign-extended one would not).
     */
    static boolean memSizeAdjustable(Btf local, int localType, Btf target, int targetType) {
        if (localType == 0 || targetType == 0) {
            return false; // a bitfield on one side: void there, neither pointer nor integer
        }
        int lk = local.kind(localType);
        int tk = target.kind(targetType);
        if (lk == Kind.PTR && tk == Kind.PTR) {
            return true;
        }
        return lk == Kind.INT && tk == Kind.INT && intEncoding(local, localType) != Kind.INT_SIGNED
                && intEncoding(target, targetType) != Kind.INT_SIGNED;
    }

    private static int intEncoding(Btf btf, int id) {
        return (btf.extra(id, 0) >>> 24) & 0x0f;
    }
}
