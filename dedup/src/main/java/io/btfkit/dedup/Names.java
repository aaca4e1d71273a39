package io.btfkit.dedup;

import io.btfkit.core.Kind;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;

/**
 * Full definitions by name, at class level: for each name, the one STRUCT/UNION class and the
 * one full ENUM/ENUM64 class carrying it, or {@link #AMBIGUOUS} when several distinct classes
 * do. Struct and union tags share one namespace (as in C, and as libbpf keys them). Used to
 * resolve declarations whose name has exactly one definition.
 */
final class Names {
    static final int AMBIGUOUS = -2;
    static final int ABSENT = -1;

    final Int2IntOpenHashMap composites = new Int2IntOpenHashMap();
    final Int2IntOpenHashMap enums = new Int2IntOpenHashMap();

    private Names() {
        composites.defaultReturnValue(ABSENT);
        enums.defaultReturnValue(ABSENT);
    }

    /** Names of the classes {@code [from, to)} of {@code table} (whose layer must own them). */
    static Names of(ClassTable table, int from, int to) {
        Names n = new Names();
        n.addAll(table, from, to);
        return n;
    }

    void addAll(ClassTable table, int from, int to) {
        for (int c = from; c < to; c++) {
            int[] w = table.repWords(c);
            int s = table.repStart(c);
            int info = w[s + 1];
            int kind = Kind.kindOf(info);
            if (Kind.isComposite(kind)) {
                add(composites, w[s], c);
            } else if (Kind.isEnum(kind) && Kind.vlenOf(info) > 0) {
                add(enums, w[s], c);
            }
        }
    }

    private static void add(Int2IntOpenHashMap map, int name, int c) {
        int old = map.get(name);
        if (old == ABSENT) {
            map.put(name, c);
        } else if (old != c) {
            map.put(name, AMBIGUOUS);
        }
    }

    /** Merges two lookups: a name defined in both (by different classes) is ambiguous. */
    static int combine(int a, int b) {
        if (a == ABSENT) {
            return b;
        }
        if (b == ABSENT || a == b) {
            return a;
        }
        return AMBIGUOUS;
    }
}
