package io.btfkit.cheader;

import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import java.util.Arrays;

/**
 * Struct layout facts the C text must reproduce, computed from BTF alone as libbpf does:
 * natural alignment of a type, its size, whether a struct must be {@code packed}, and the
 * anonymous bitfields that pad a gap between two members.
 *
 * <p>Alignment: INT, ENUM, FLOAT align to their size capped at the pointer size, PTR to the
 * pointer size, arrays and qualifiers to their element; a struct or union to its most aligned
 * member, except that a member placed off its natural alignment, or a size that is not a
 * multiple of that alignment, proves the type was packed, and then it aligns to 1. A struct
 * is printed {@code __attribute__((packed))} on the same evidence. These are exactly the
 * conditions under which a C compiler could not have produced the offsets without packing,
 * so re-compiling the printed struct gives back the BTF offsets and size.
 *
 * <p>Padding: a gap before a member (or at the end of a struct) that natural alignment would
 * not produce is filled with unnamed bitfields of the widest fitting type among
 * {@code long}, {@code int}, {@code short}, {@code char}; {@code TYPE: 0} forces alignment to
 * a boundary the next member's own alignment would not reach.
 */
final class Layout {
    private static final int MAX_RESOLVE_DEPTH = 32;
    private static final String[] PAD_TYPES = {"long", "int", "short", "char"};

    private final Types types;
    final int pointerSize;
    private final int[] padBits;
    /** alignOf memo: 0 unknown, -1 being computed, else alignment + 1. */
    private final int[] alignMemo;
    private int[] stack = new int[64];

    Layout(Types types, int pointerSize) {
        this.types = types;
        this.pointerSize = pointerSize;
        this.padBits = new int[] {pointerSize * 8, 32, 16, 8};
        this.alignMemo = new int[types.count];
    }

    /**
     * The pointer size libbpf assumes for a BTF it did not get from an ELF file: the size of
     * the first INT named like C's {@code long}, else 8.
     */
    static int guessPointerSize(Types types) {
        for (int id = 1; id < types.count; id++) {
            if (types.kind(id) != Kind.INT || (types.size(id) != 4 && types.size(id) != 8)) {
                continue;
            }
            switch (types.name(id)) {
                case "long", "long int", "int long", "unsigned long", "long unsigned", "unsigned long int",
                        "unsigned int long", "long unsigned int", "long int unsigned", "int unsigned long",
                        "int long unsigned":
                    return types.size(id);
                default:
                    break;
            }
        }
        return 8;
    }

    /** Natural alignment of type {@code id} in bytes; 0 for kinds that have none (void, FWD, functions). */
    int alignOf(int id) {
        if (alignMemo[id] > 0) {
            return alignMemo[id] - 1;
        }
        // iterative depth-first evaluation; a frame is (type, next member, max alignment so far)
        int sp = push(0, id);
        while (sp > 0) {
            int t = stack[sp - 3];
            int kind = types.kind(t);
            int result;
            int child = -1;
            switch (kind) {
                case Kind.INT, Kind.ENUM, Kind.ENUM64, Kind.FLOAT -> result = (int) Math.min(pointerSize, types.size(t) & 0xffffffffL);
                case Kind.PTR -> result = pointerSize;
                case Kind.TYPEDEF, Kind.VOLATILE, Kind.CONST, Kind.RESTRICT, Kind.TYPE_TAG, Kind.ARRAY -> {
                    int c = kind == Kind.ARRAY ? types.arrayElem(t) : types.ref(t);
                    result = alignMemo[c] - 1;
                    if (result < 0) {
                        child = c;
                    }
                }
                case Kind.STRUCT, Kind.UNION -> {
                    result = compositeStep(t, sp);
                    if (result < 0) {
                        child = types.memberType(t, stack[sp - 2]);
                    }
                }
                default -> result = 0;
            }
            if (child < 0) {
                alignMemo[t] = result + 1;
                sp -= 3;
            } else {
                if (alignMemo[child] < 0) {
                    throw new OperationException("type [" + child + "] contains itself");
                }
                alignMemo[t] = -1;
                sp = push(sp, child);
            }
        }
        return alignMemo[id] - 1;
    }

    /**
     * Advances the struct frame ending at {@code sp} over members whose alignment is known;
     * returns the struct's alignment, or -1 when the frame's next member must be computed first.
     */
    private int compositeStep(int id, int sp) {
        int vlen = types.vlen(id);
        int i = stack[sp - 2];
        int maxAlign = stack[sp - 1];
        for (; i < vlen; i++) {
            int memo = alignMemo[types.memberType(id, i)];
            if (memo <= 0) {
                stack[sp - 2] = i;
                stack[sp - 1] = maxAlign;
                return -1;
            }
            int align = memo - 1;
            if (align == 0) {
                return 0;
            }
            maxAlign = Math.max(maxAlign, align);
            if (types.memberBitfieldSize(id, i) == 0
                    && Integer.remainderUnsigned(types.memberOffsetWord(id, i), 8 * align) != 0) {
                return 1;
            }
        }
        return Integer.remainderUnsigned(types.size(id), maxAlign) != 0 ? 1 : maxAlign;
    }

    private int push(int sp, int id) {
        if (sp + 3 > stack.length) {
            stack = Arrays.copyOf(stack, stack.length * 2);
        }
        stack[sp] = id;
        stack[sp + 1] = 0;
        stack[sp + 2] = 1;
        return sp + 3;
    }

    /** Size of type {@code id} in bytes as libbpf resolves it, or -1 when it has none. */
    long resolveSize(int id) {
        long nelems = 1;
        for (int depth = 0; depth < MAX_RESOLVE_DEPTH && id != 0; depth++) {
            switch (types.kind(id)) {
                case Kind.INT, Kind.STRUCT, Kind.UNION, Kind.ENUM, Kind.ENUM64, Kind.DATASEC, Kind.FLOAT -> {
                    return scaled(nelems, types.size(id) & 0xffffffffL);
                }
                case Kind.PTR -> {
                    return scaled(nelems, pointerSize);
                }
                case Kind.TYPEDEF, Kind.VOLATILE, Kind.CONST, Kind.RESTRICT, Kind.VAR, Kind.DECL_TAG, Kind.TYPE_TAG ->
                        id = types.ref(id);
                case Kind.ARRAY -> {
                    long n = types.arrayLen(id) & 0xffffffffL;
                    if (nelems != 0 && n > 0xffffffffL / nelems) {
                        return -1;
                    }
                    nelems *= n;
                    id = types.arrayElem(id);
                }
                default -> {
                    return -1;
                }
            }
        }
        return -1;
    }

    private static long scaled(long nelems, long size) {
        if (nelems != 0 && size > 0xffffffffL / nelems) {
            return -1;
        }
        return nelems * size;
    }

    /** Whether struct {@code id} has a member off its natural alignment or a size no natural layout gives. */
    boolean isPacked(int id) {
        int vlen = types.vlen(id);
        int maxAlign = 1;
        for (int i = 0; i < vlen; i++) {
            int align = alignOf(types.memberType(id, i));
            if (align != 0 && types.memberBitfieldSize(id, i) == 0
                    && Integer.remainderUnsigned(types.memberOffsetWord(id, i), 8 * align) != 0) {
                return true;
            }
            maxAlign = Math.max(maxAlign, align);
        }
        return Integer.remainderUnsigned(types.size(id), maxAlign) != 0;
    }

    /**
     * Prints the unnamed bitfields that move a member from bit {@code cur} to bit {@code next},
     * each on its own line at indent {@code lvl}. {@code nextAlign} is the next member's
     * alignment in bytes; {@code inBitfield} says a bitfield follows a bitfield (then the first
     * pad states its width, so the compiler cannot merge it into the previous unit).
     *
     * <p>Offsets are C {@code int}s that wrap, as in libbpf: a bit offset of 2^31 or more (a
     * struct of 256 MiB or more, a member past that) reads as negative, and a gap that ends there
     * gets no padding at all. bpftool's output for such structs is exactly that, and it keeps
     * one gap to at most 2^32 bits; {@link CHeaderPrinter}'s output limit bounds the rest.
     */
    void padding(CText out, int cur, int next, int nextAlign, boolean inBitfield, int lvl) {
        if (cur >= next) {
            return;
        }
        int i = 0;
        int newOff = 0;
        for (; i < PAD_TYPES.length; i++) {
            newOff = roundUp(cur, padBits[i]);
            if (newOff <= next) {
                break;
            }
        }
        if (i == PAD_TYPES.length) {
            i--;
        }
        String padType = PAD_TYPES[i];
        int bits = padBits[i];
        if (newOff > cur && newOff <= next) {
            if (inBitfield
                    || (newOff == next && roundUp(cur, nextAlign * 8) != newOff)
                    || (newOff != next && next - newOff <= newOff - cur)) {
                pad(out, padType, inBitfield ? newOff - cur : 0, lvl);
            }
            cur = newOff;
        }
        while (cur != next) {
            int gap = Math.min(next - cur, bits);
            if (gap == bits) {
                pad(out, padType, bits, lvl);
                cur += gap;
                continue;
            }
            for (int j = PAD_TYPES.length - 1; j >= 0; j--) {
                if (padBits[j] < gap) {
                    continue;
                }
                padType = PAD_TYPES[j];
                bits = padBits[j];
                pad(out, padType, gap, lvl);
                cur += gap;
                break;
            }
        }
    }

    private static void pad(CText out, String type, int bits, int lvl) {
        out.ch('\n').indent(lvl).str(type).str(": ").dec(bits).ch(';');
    }

    /**
     * {@code x} rounded up to a multiple of {@code y} in wrapping int arithmetic, as libbpf's
     * {@code roundup}; a zero alignment (unknown), on which libbpf would divide by zero, leaves it.
     */
    private static int roundUp(int x, int y) {
        return y == 0 ? x : (x + y - 1) / y * y;
    }
}
