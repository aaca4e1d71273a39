package io.btfkit.diff;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;

/**
 * The byte size of a type, as {@code sizeof} would give it: sized kinds carry it, pointers take
 * the target's pointer size (the size of its {@code long}, 8 when the BTF has none), typedefs,
 * qualifiers, type tags and VARs take their target's, arrays multiply. Functions, prototypes,
 * forward declarations and void have none (-1).
 *
 * <p>Iterative: an array of arrays of typedefs is walked in a loop, with a step limit so a
 * reference cycle (which only malformed BTF has) ends in -1 instead of hanging. Each id's size
 * is remembered, so a struct of 65,535 members typed by the top of a long chain walks it once.
 */
final class TypeSizes {
    private static final int STEP_LIMIT = 4096;

    /** Sizes already computed, stored plus 2 (0: not yet; 1: none). */
    private final long[] memo;
    private final Btf btf;
    private final int pointerSize;

    TypeSizes(Btf btf) {
        this.btf = btf;
        this.pointerSize = pointerSize(btf);
        this.memo = new long[btf.typeCount()];
    }

    long of(int id) {
        if (Integer.compareUnsigned(id, memo.length) >= 0) {
            return -1;
        }
        long m = memo[id];
        if (m == 0) {
            m = walk(id) + 2;
            memo[id] = m;
        }
        return m - 2;
    }

    private long walk(int id) {
        long multiplier = 1;
        for (int step = 0; step < STEP_LIMIT; step++) {
            if (id == 0 || !btf.isValidId(id)) {
                return -1;
            }
            int kind = btf.kind(id);
            switch (kind) {
                case Kind.INT:
                case Kind.STRUCT:
                case Kind.UNION:
                case Kind.ENUM:
                case Kind.ENUM64:
                case Kind.FLOAT:
                case Kind.DATASEC:
                    return multiplier * Integer.toUnsignedLong(btf.sizeOrType(id));
                case Kind.PTR:
                    return multiplier * pointerSize;
                case Kind.TYPEDEF:
                case Kind.CONST:
                case Kind.VOLATILE:
                case Kind.RESTRICT:
                case Kind.TYPE_TAG:
                case Kind.VAR:
                    id = btf.sizeOrType(id);
                    break;
                case Kind.ARRAY: {
                    long n = Integer.toUnsignedLong(btf.extra(id, 2));
                    if (n != 0 && multiplier > Long.MAX_VALUE / (n * 8)) {
                        return -1;
                    }
                    multiplier *= n;
                    id = btf.extra(id, 0);
                    break;
                }
                default:
                    return -1;
            }
        }
        return -1;
    }

    /** The size of {@code long} in this BTF (libbpf's heuristic), 8 when there is none. */
    private static int pointerSize(Btf btf) {
        for (int id = 1; id < btf.typeCount(); id++) {
            if (btf.kind(id) == Kind.INT) {
                int size = btf.sizeOrType(id);
                if (size == 4 || size == 8) {
                    String n = btf.name(id);
                    if ("long int".equals(n) || "long unsigned int".equals(n) || "long".equals(n)
                            || "unsigned long".equals(n)) {
                        return size;
                    }
                }
            }
        }
        return 8;
    }
}
