package io.btfkit.validate;

import io.btfkit.core.Kind;

/**
 * The kernel's per-member checks of a STRUCT/UNION ({@code check_member} and
 * {@code check_kflag_member} of each member kind), run by the {@link Resolver} once the
 * member's type is resolved: alignment, the member fitting inside the composite, and the
 * bitfield rules of both encodings.
 *
 * <p>Without kind_flag a bitfield is an INT whose own offset/bits describe it; with kind_flag
 * the member word carries the bitfield size (high 8 bits) and the bit offset (low 24), and
 * only a regular INT or an ENUM may then be a bitfield. Modifiers are looked through to the
 * sized type, exactly as the kernel does. Arithmetic is in {@code long}, so no unsigned
 * wrap-around can hide an overflow.
 */
final class MemberRules {
    private final Types t;
    private final Resolver r;
    private final ResolvedSizes sizes;

    MemberRules(Types t, Resolver r, ResolvedSizes sizes) {
        this.t = t;
        this.r = r;
        this.sizes = sizes;
    }

    /** Checks member {@code i} (of type {@code type}) of own STRUCT/UNION {@code sid}. */
    int check(int sid, int i, int type) {
        int s = t.start(sid);
        int[] w = t.w;
        int m = s + 3 + 3 * i;
        long size = Types.u32(w[s + 2]);
        int word = w[m + 2];
        boolean kflag = w[s + 1] < 0;
        int k = t.kind(type);
        if (Types.isModifier(k)) {
            if (sizes.idSize(type) < 0) {
                return fail(sid, i, Rule.MEMBER_TYPE, "type " + r.describe(type) + " resolves to a type without size");
            }
            type = sizes.sizeId;
            k = t.kind(type);
        }
        if (!kflag) {
            return plain(sid, i, k, type, Types.u32(word), size);
        }
        long bitOffset = word & 0xffffff;
        int bits = word >>> 24;
        switch (k) {
            case Kind.INT:
                return kflagInt(sid, i, type, bitOffset, bits, size);
            case Kind.ENUM:
            case Kind.ENUM64:
                return kflagEnum(sid, i, bitOffset, bits, size);
            default:
                if (bits != 0) {
                    return fail(sid, i, Rule.BITFIELD, "bitfield_size " + bits + " on a member of type " + r.describe(type)
                            + ", which cannot be a bitfield");
                }
                return plain(sid, i, k, type, bitOffset, size);
        }
    }

    private int fail(int sid, int i, Rule rule, String detail) {
        int m = t.start(sid) + 3 + 3 * i;
        return r.err(sid, rule, "member " + i + " '" + r.string(t.w[m]) + "' " + detail);
    }

    /** Non-kind_flag member at bit offset {@code off} whose (resolved) type is {@code type}. */
    private int plain(int sid, int i, int k, int type, long off, long size) {
        long bytes = off >>> 3;
        switch (k) {
            case Kind.INT: {
                int data = t.extra(type, 0);
                int intOffset = (data >>> 16) & 0xff;
                int intBits = data & 0xff;
                if (0xffffffffL - off < intOffset) {
                    return fail(sid, i, Rule.BITFIELD, "bit offset " + off + " plus INT offset " + intOffset + " exceeds 32 bits");
                }
                long start = off + intOffset;
                long copy = intBits + (start & 7);
                if (copy > 128) {
                    return fail(sid, i, Rule.BITFIELD, "spans " + copy + " bits, more than 128");
                }
                return fits(sid, i, start >>> 3, (copy + 7) >>> 3, size);
            }
            case Kind.ENUM:
            case Kind.ENUM64:
            case Kind.STRUCT:
            case Kind.UNION:
                if ((off & 7) != 0) {
                    return misaligned(sid, i, off);
                }
                return fits(sid, i, bytes, Types.u32(t.word2(type)), size);
            case Kind.PTR:
                if ((off & 7) != 0) {
                    return misaligned(sid, i, off);
                }
                return fits(sid, i, bytes, ResolvedSizes.POINTER_SIZE, size);
            case Kind.ARRAY:
                if ((off & 7) != 0) {
                    return misaligned(sid, i, off);
                }
                return fits(sid, i, bytes, Math.max(0, sizes.idSize(type)), size);
            case Kind.FLOAT: {
                long fsize = Types.u32(t.word2(type));
                long align = Math.min(ResolvedSizes.POINTER_SIZE, fsize) * 8;
                if (align != 0 && off % align != 0) {
                    int m = t.start(sid) + 3 + 3 * i;
                    r.policy(sid, Rule.FLOAT_ALIGNMENT, "member " + i + " '" + r.string(t.w[m]) + "' FLOAT of " + fsize
                            + " bytes at bit offset " + off + " is not aligned to " + align + " bits");
                }
                return fits(sid, i, bytes, fsize, size);
            }
            default:
                return r.err(sid, Rule.MEMBER_TYPE, "member " + i + " has type " + r.describe(type) + ", which cannot be a member");
        }
    }

    private int kflagInt(int sid, int i, int type, long bitOffset, int bits, long size) {
        if (!sizes.isRegularInt(type)) {
            return fail(sid, i, Rule.BITFIELD, "type " + r.describe(type)
                    + " is not a regular INT, which a kind_flag STRUCT/UNION member must have");
        }
        int intBits = t.extra(type, 0) & 0xff;
        int nr = bits;
        if (nr == 0) {
            if ((bitOffset & 7) != 0) {
                return misaligned(sid, i, bitOffset);
            }
            nr = intBits;
        } else if (nr > intBits) {
            return fail(sid, i, Rule.BITFIELD, "bitfield_size " + nr + " exceeds the " + intBits + " bits of " + r.describe(type));
        }
        long copy = nr + (bitOffset & 7);
        if (copy > 128) {
            return fail(sid, i, Rule.BITFIELD, "spans " + copy + " bits, more than 128");
        }
        return fits(sid, i, bitOffset >>> 3, (copy + 7) >>> 3, size);
    }

    private int kflagEnum(int sid, int i, long bitOffset, int bits, long size) {
        int nr = bits;
        if (nr == 0) {
            if ((bitOffset & 7) != 0) {
                return misaligned(sid, i, bitOffset);
            }
            nr = 32;
        } else if (nr > 32) {
            return fail(sid, i, Rule.BITFIELD, "bitfield_size " + nr + " on an enum exceeds 32 bits");
        }
        long end = (bitOffset + nr + 7) >>> 3;
        if (end > size) {
            return fail(sid, i, Rule.MEMBER_SIZE, "ends at byte " + end + ", past the size " + size);
        }
        return Resolver.OK;
    }

    private int misaligned(int sid, int i, long off) {
        return fail(sid, i, Rule.MEMBER_ALIGNMENT, "at bit offset " + off + " is not byte aligned");
    }

    private int fits(int sid, int i, long startByte, long memberSize, long size) {
        if (startByte > size || size - startByte < memberSize) {
            return fail(sid, i, Rule.MEMBER_SIZE, "of " + memberSize + " bytes at byte " + startByte + " ends past the size " + size);
        }
        return Resolver.OK;
    }
}
