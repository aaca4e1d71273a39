package io.btfkit.relocate;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.StringPool;
import io.btfkit.core.StringTable;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import java.util.Arrays;
import java.util.Objects;

/**
 * An index of a (new) base BTF for relocation: the base types a distilled type can map to —
 * named INT, FLOAT, ENUM, ENUM64, FWD, STRUCT and UNION — grouped by name, each group in
 * ascending id order, with libbpf's per-type "match the size too" flag precomputed.
 *
 * <p>That flag is set for INT, FLOAT, ENUM and ENUM64, never for FWD, and for a STRUCT or UNION
 * when more than one STRUCT/UNION of the base has the same name offset (libbpf counts by name
 * offset; in a deduplicated base equal names share one offset).
 *
 * <p>Build it once per base and share it: it is immutable after construction and safe to read
 * from many threads, so a batch relocating thousands of modules onto one kernel indexes that
 * kernel once. Lookup by name is one hash probe; relocating a module costs its own size plus
 * the candidates of its distilled types' names, independent of the base's size.
 */
public final class NewBaseIndex {
    /** libbpf keeps sizes in a 31-bit field when comparing them. */
    static final int SIZE_MASK = 0x7fffffff;

    private final Btf base;
    /** Open-addressing table of group + 1 (0 = empty), keyed by name bytes. */
    private final int[] table;
    /** Name offset (in the base) of each group's first type. */
    private final int[] groupName;
    /** Group g's candidates are {@code ids[groupStart[g] .. groupStart[g+1])}. */
    private final int[] groupStart;
    private final int[] ids;
    private final boolean[] needsSize;

    private NewBaseIndex(Btf base) {
        this.base = base;
        int count = base.typeCount();
        Int2IntOpenHashMap compositeNames = new Int2IntOpenHashMap();
        int candidates = 0;
        for (int id = 1; id < count; id++) {
            int kind = base.kind(id);
            int nameOff = base.nameOff(id);
            if (nameOff != 0 && isCandidateKind(kind)) {
                candidates++;
                if (Kind.isComposite(kind)) {
                    compositeNames.addTo(nameOff, 1);
                }
            }
        }
        int[] cand = new int[candidates];
        int[] groupOf = new int[candidates];
        int[] tab = new int[Integer.highestOneBit(Math.max(4, candidates * 2)) << 1];
        int[] names = new int[Math.max(4, candidates)];
        int groups = 0;
        StringTable strings = base.strings();
        int c = 0;
        for (int id = 1; id < count; id++) {
            int nameOff = base.nameOff(id);
            if (nameOff == 0 || !isCandidateKind(base.kind(id))) {
                continue;
            }
            StringTable t = strings.tableOf(nameOff);
            int from = nameOff - t.start();
            int len = strings.lengthAt(nameOff);
            int slot = probe(tab, names, strings, t.bytes(), from, len);
            if (tab[slot] == 0) {
                names[groups] = nameOff;
                tab[slot] = ++groups;
            }
            cand[c] = id;
            groupOf[c] = tab[slot] - 1;
            c++;
        }
        int[] start = new int[groups + 1];
        for (int i = 0; i < candidates; i++) {
            start[groupOf[i] + 1]++;
        }
        for (int g = 0; g < groups; g++) {
            start[g + 1] += start[g];
        }
        int[] fill = Arrays.copyOf(start, groups);
        int[] sorted = new int[candidates];
        boolean[] sized = new boolean[candidates];
        for (int i = 0; i < candidates; i++) {
            int id = cand[i];
            int at = fill[groupOf[i]]++;
            sorted[at] = id;
            int kind = base.kind(id);
            sized[at] = kind != Kind.FWD && (!Kind.isComposite(kind) || compositeNames.get(base.nameOff(id)) > 1);
        }
        this.table = tab;
        this.groupName = Arrays.copyOf(names, groups);
        this.groupStart = start;
        this.ids = sorted;
        this.needsSize = sized;
    }

    /** Indexes {@code base} (standalone or itself split; all its ids, base's included, are candidates). */
    public static NewBaseIndex of(Btf base) {
        return new NewBaseIndex(Objects.requireNonNull(base));
    }

    /** The indexed base. */
    public Btf base() {
        return base;
    }

    /** Number of distinct candidate names. */
    public int nameCount() {
        return groupName.length;
    }

    static boolean isCandidateKind(int kind) {
        switch (kind) {
            case Kind.INT:
            case Kind.FLOAT:
            case Kind.ENUM:
            case Kind.ENUM64:
            case Kind.FWD:
            case Kind.STRUCT:
            case Kind.UNION:
                return true;
            default:
                return false;
        }
    }

    /** Group of base candidates named {@code s[from, from+len)}, or -1. */
    int group(byte[] s, int from, int len) {
        int slot = probe(table, groupName, base.strings(), s, from, len);
        return table[slot] - 1;
    }

    int groupStart(int group) {
        return groupStart[group];
    }

    int groupEnd(int group) {
        return groupStart[group + 1];
    }

    /** Base id of candidate entry {@code e}. */
    int id(int e) {
        return ids[e];
    }

    /** Whether libbpf compares sizes when matching candidate entry {@code e}. */
    boolean needsSize(int e) {
        return needsSize[e];
    }

    private static int probe(int[] tab, int[] names, StringTable strings, byte[] s, int from, int len) {
        int mask = tab.length - 1;
        int h = StringPool.hash(s, from, len) & mask;
        while (tab[h] != 0) {
            int off = names[tab[h] - 1];
            if (strings.lengthAt(off) == len) {
                StringTable t = strings.tableOf(off);
                int i = off - t.start();
                if (Arrays.equals(t.bytes(), i, i + len, s, from, from + len)) {
                    return h;
                }
            }
            h = (h + 1) & mask;
        }
        return h;
    }
}
