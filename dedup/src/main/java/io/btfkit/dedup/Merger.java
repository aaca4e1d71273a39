package io.btfkit.dedup;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.ext.BtfExt;
import io.btfkit.core.StringTable;
import io.btfkit.core.TypeRefs;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Concatenates inputs into one type graph, as libbpf's {@code btf__add_btf} appends each input
 * to an empty (split) BTF: types keep their order, type ids are shifted, and every string is
 * made canonical — a string already in the base keeps its base offset, any other string gets
 * one offset in a shared pool — so equal strings compare as equal ints from here on. Inputs
 * are copied and their strings interned in parallel.
 *
 * <p>Inputs are either standalone (all their types are appended) or split on the same base as
 * the result (only their own types are appended; references into the base stay).
 */
final class Merger {
    private Merger() {
    }

    /** The merged graph and where each merged type came from. */
    static final class Merged {
        final Btf base;
        final int firstId;
        final int[] words;
        final int[] starts;
        /**
         * Own strings, NUL-terminated, each once (the interning table is let go after the
         * merge); canonical offset = stringStart + offset in this array.
         */
        final byte[] pool;
        final int stringStart;
        /** Merged id of the first type of each input, plus the end. */
        final int[] inputFirst;
        /** The first input's .BTF.ext with canonical string offsets, or null. */
        BtfExt ext;

        Merged(Btf base, int firstId, int[] words, int[] starts, byte[] pool, int stringStart, int[] inputFirst) {
            this.base = base;
            this.firstId = firstId;
            this.words = words;
            this.starts = starts;
            this.pool = pool;
            this.stringStart = stringStart;
            this.inputFirst = inputFirst;
        }

        int typeCount() {
            return firstId + starts.length - 1;
        }

        /** Input index of a merged own node. */
        int unitOf(int id) {
            int i = Arrays.binarySearch(inputFirst, id);
            return i >= 0 ? i : -i - 2;
        }
    }

    static Merged merge(List<Btf> inputs, Btf base) {
        return merge(inputs, null, base, false);
    }

    /** Inputs whose strings are interned per round; the pool grows between rounds. */
    private static final int ROUND = 64;

    /**
     * Merges {@code inputs}; {@code ext}, the .BTF.ext of a single input, has its strings made
     * canonical after all type strings (libbpf visits .BTF.ext strings last).
     *
     * @param release the caller gives the inputs up (a mutable list): each input's type words
     *                are rewritten in place and its list entry set to null as soon as its
     *                strings are interned, so its string section is garbage before the merged
     *                arrays exist (3,000 units hold 197 MB of strings, 5 MB of them distinct)
     */
    static Merged merge(List<Btf> inputs, BtfExt ext, Btf base, boolean release) {
        return merge(inputs, ext, base, release, ROUND);
    }

    /** {@link #merge(List, BtfExt, Btf, boolean)} interning {@code round} inputs at a time (tests). */
    static Merged merge(List<Btf> inputs, BtfExt ext, Btf base, boolean release, int round) {
        int firstId = base == null ? 1 : base.typeCount();
        long totalWords = 0;
        long totalTypes = 0;
        for (Btf in : inputs) {
            // a split input is on the base, or (standalone merge) on the first input
            if (in.isSplit() && in.base() != base && (base != null || in.base() != inputs.get(0))) {
                throw new IllegalArgumentException("split input is not on the given base");
            }
            totalWords += in.words().length;
            totalTypes += in.ownTypeCount();
        }
        if (totalWords > Integer.MAX_VALUE - 16 || totalTypes + firstId > Integer.MAX_VALUE - 16) {
            throw new io.btfkit.core.BtfException("inputs too large to merge: " + totalTypes + " types");
        }
        StringTable baseStrings = base == null ? null : base.strings();
        int stringStart = base == null ? 0 : baseStrings.end();
        int k0 = inputs.size();
        int[] wordAt = new int[k0 + 1];
        int[] typeAt = new int[k0 + 1];
        int[] inputFirst = new int[k0 + 1];
        Canonical[] canon = new Canonical[k0];
        boolean[] inPlace = release ? listedOnce(inputs) : new boolean[k0];
        for (int k = 0; k < k0; k++) {
            Btf in = inputs.get(k);
            wordAt[k + 1] = wordAt[k] + in.typeSectionBytes() / 4;
            typeAt[k + 1] = typeAt[k] + in.ownTypeCount();
            inputFirst[k] = firstId + typeAt[k];
            canon[k] = new Canonical(in.firstId(), in.isSplit() ? in.firstId() : 1);
        }
        inputFirst[k0] = firstId + typeAt[k0];
        StringTable extStrings = ext == null ? null : inputs.get(0).strings();
        Timer timer = new Timer();
        // 1. round by round, in parallel: each input's type words with canonical string offsets
        // (base first, then the shared pool); the pool grows between rounds to the round's bounds
        ConcurrentStrings pool = new ConcurrentStrings(16, 16);
        if (base == null && pool.add(new byte[0], 0, 0) != 0) {
            throw new IllegalStateException("the empty string must come first");
        }
        UnitStrings[] unitStrings = new UnitStrings[k0];
        for (int r = 0; r < k0; r += round) {
            int to = Math.min(k0, r + round);
            IntStream.range(r, to).parallel().forEach(k ->
                    unitStrings[k] = number(inputs.get(k), canon[k], inPlace[k], baseStrings != null));
            long bytes = 0;
            long strings = 0;
            for (int k = r; k < to; k++) {
                bytes += unitStrings[k].bytesNeeded;
                strings += unitStrings[k].count();
            }
            ConcurrentStrings p = pool.withRoom(bytes, strings);
            IntStream.range(r, to).parallel().forEach(k -> {
                if (!unitStrings[k].canonicalize(baseStrings, p, stringStart)) {
                    throw new IllegalStateException("string pool bounds passed");
                }
                unitStrings[k].rewrite(canon[k]);
                unitStrings[k] = null;
                if (release) {
                    inputs.set(k, null);
                }
            });
            pool = p;
        }
        timer.lap("merge intern");
        BtfExt canonicalExt = null;
        if (ext != null) {
            long[] need = {0, 0};
            ext.forEachStringOffset(off -> {
                if (extStrings.isValid(off)) {
                    need[0] += extStrings.lengthAt(off) + 1L;
                    need[1]++;
                }
            });
            pool = pool.withRoom(need[0], need[1]);
            canonicalExt = canonicalExt(ext, extStrings, baseStrings, pool, stringStart);
        }
        // 2. in parallel: the merged arrays, type ids shifted
        int[] words = new int[(int) totalWords];
        int[] starts = new int[(int) totalTypes + 1];
        starts[typeAt[k0]] = wordAt[k0];
        IntStream.range(0, k0).parallel().forEach(k -> {
            canon[k].copyTo(words, starts, wordAt[k], typeAt[k], firstId + typeAt[k]);
            canon[k] = null;
        });
        timer.lap("merge copy");
        Merged merged = new Merged(base, firstId, words, starts, Arrays.copyOf(pool.bytes(), pool.size()), stringStart,
                inputFirst);
        merged.ext = canonicalExt;
        return merged;
    }

    /**
     * Which entries hold an input listed only once: only those are rewritten in place (another
     * listing of the same input, read in parallel, must see its words as they were).
     */
    private static boolean[] listedOnce(List<Btf> inputs) {
        java.util.Map<Btf, Integer> count = new java.util.IdentityHashMap<>();
        inputs.forEach(in -> count.merge(in, 1, Integer::sum));
        boolean[] once = new boolean[inputs.size()];
        for (int k = 0; k < once.length; k++) {
            once[k] = count.get(inputs.get(k)) == 1;
        }
        return once;
    }

    /**
     * One input's own type words with canonical string offsets, type ids not yet shifted (its
     * own words rewritten in place when the input is released, else a copy).
     */
    private static final class Canonical {
        final int firstId;
        final int keepBelow;
        int[] words;
        int[] starts;

        Canonical(int firstId, int keepBelow) {
            this.firstId = firstId;
            this.keepBelow = keepBelow;
        }

        /** Copies the types to {@code words[w..]} as merged ids from {@code newFirst}, shifting ids. */
        void copyTo(int[] out, int[] outStarts, int w, int t, int newFirst) {
            int shift = newFirst - firstId;
            int n = starts.length - 1;
            System.arraycopy(words, 0, out, w, starts[n]);
            for (int i = 0; i < n; i++) {
                int ds = w + starts[i];
                outStarts[t + i] = ds;
                int count = TypeRefs.typeIdCount(out, ds);
                for (int k = 0; k < count; k++) {
                    int slot = TypeRefs.typeIdSlot(out, ds, k);
                    int id = out[slot];
                    if (id >= keepBelow) {
                        out[slot] = id + shift;
                    }
                }
            }
        }
    }

    /**
     * Takes an input's type words (its own array when {@code inPlace}, else a copy) into {@code c}
     * with each string slot set to the string's ordinal, and returns its string list.
     */
    private static UnitStrings number(Btf in, Canonical c, boolean inPlace, boolean keepBase) {
        int[] is = in.starts();
        int n = in.ownTypeCount();
        int[] w = inPlace ? in.words() : Arrays.copyOf(in.words(), is[n]);
        c.words = w;
        c.starts = is;
        UnitStrings us = new UnitStrings(in.strings(), keepBase);
        int[] seen = us.scratch();
        for (int i = 0; i < n; i++) {
            TypeRefs.forEachStringSlot(w, is[i], slot -> w[slot] = us.see(w[slot], seen));
        }
        us.release(seen);
        us.bytesNeeded = us.bytesNeeded();
        return us;
    }

    /**
     * One input's strings: the offsets its types use, each once in first-reference order, and
     * (after {@link #canonicalize}) their canonical offsets. While the input is copied, each
     * string slot is set to the string's ordinal in that order, stored as {@code ~ordinal}
     * (negative; string offsets are below 2^31), so that no per-byte map of the string section
     * needs to outlive the copy: {@link #rewrite} turns ordinals into canonical offsets.
     */
    private static final class UnitStrings {
        /** Per-thread scratch map, own offset - ownStart to ordinal + 1; all zero between uses. */
        private static final ThreadLocal<int[]> SCRATCH = ThreadLocal.withInitial(() -> new int[0]);

        private final StringTable st;
        private final boolean keepBase;
        private final int ownStart;
        private final it.unimi.dsi.fastutil.ints.IntArrayList order = new it.unimi.dsi.fastutil.ints.IntArrayList();
        /** Strings of the first input that a split input of a standalone merge uses: offset to ordinal. */
        private it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap baseOrdinal;
        private int[] canonical;
        /** {@link #bytesNeeded()}, computed by the (parallel) copy. */
        long bytesNeeded;

        UnitStrings(StringTable st, boolean keepBase) {
            this.st = st;
            this.keepBase = keepBase;
            this.ownStart = st.start();
        }

        int[] scratch() {
            int[] m = SCRATCH.get();
            if (m.length < st.length()) {
                m = new int[st.length()];
                SCRATCH.set(m);
            }
            return m;
        }

        /** Clears the scratch entries this input set, leaving it all zero for the next input. */
        void release(int[] seen) {
            for (int i = 0; i < order.size(); i++) {
                int off = order.getInt(i);
                if (off >= ownStart) {
                    seen[off - ownStart] = 0;
                }
            }
        }

        /** The slot value for string offset {@code off}: itself when kept as is, else ~ordinal. */
        int see(int off, int[] seen) {
            if (off == 0 || (keepBase && off < ownStart)) {
                return off; // the empty string, or a string of the base: kept as is
            }
            if (off < ownStart) {
                if (baseOrdinal == null) {
                    baseOrdinal = new it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap();
                    baseOrdinal.defaultReturnValue(-1);
                }
                int o = baseOrdinal.get(off);
                if (o < 0) {
                    o = order.size();
                    baseOrdinal.put(off, o);
                    order.add(off);
                }
                return ~o;
            }
            int o = seen[off - ownStart] - 1;
            if (o < 0) {
                o = order.size();
                seen[off - ownStart] = o + 1;
                order.add(off);
            }
            return ~o;
        }

        /** Bytes the distinct strings of this input need in the pool (NULs included). */
        long bytesNeeded() {
            long n = 0;
            for (int i = 0; i < order.size(); i++) {
                n += st.lengthAt(order.getInt(i)) + 1L;
            }
            return n;
        }

        int count() {
            return order.size();
        }

        /** Sets each string's canonical offset; false when the pool's bounds ran out. */
        boolean canonicalize(StringTable baseStrings, ConcurrentStrings pool, int stringStart) {
            canonical = new int[order.size()];
            for (int i = 0; i < order.size(); i++) {
                int off = order.getInt(i);
                int c = canonical(st, off, off < ownStart ? null : baseStrings, pool, stringStart);
                if (c < 0) {
                    return false;
                }
                canonical[i] = c;
            }
            return true;
        }

        void rewrite(Canonical c) {
            int[] w = c.words;
            int n = c.starts.length - 1;
            for (int t = 0; t < n; t++) {
                TypeRefs.forEachStringSlot(w, c.starts[t], slot -> {
                    int v = w[slot];
                    if (v < 0) {
                        w[slot] = canonical[~v];
                    }
                });
            }
        }
    }

    private static BtfExt canonicalExt(BtfExt ext, StringTable st, StringTable baseStrings, ConcurrentStrings pool,
                                       int stringStart) {
        int ownStart = st.start();
        return ext.remap(id -> id, off -> {
            if (off == 0 || (off >= 0 && off < ownStart)) {
                return off;
            }
            if (!st.isValid(off)) {
                throw new BtfFormatException(".BTF.ext refers to string offset " + Integer.toUnsignedString(off)
                        + ", past the end of the .BTF string section (" + st.end() + " bytes)");
            }
            int c = canonical(st, off, baseStrings, pool, stringStart);
            if (c < 0) {
                throw new IllegalStateException("string pool sized from upper bounds overflowed");
            }
            return c;
        });
    }

    private static int canonical(StringTable st, int off, StringTable baseStrings, ConcurrentStrings pool,
                                 int stringStart) {
        StringTable t = st.tableOf(off);
        int i = off - t.start();
        int len = st.lengthAt(off);
        byte[] bytes = t.bytes();
        if (baseStrings != null) {
            int b = baseStrings.find(Arrays.copyOfRange(bytes, i, i + len));
            if (b >= 0) {
                return b;
            }
        }
        int p = pool.add(bytes, i, len);
        return p < 0 ? -1 : stringStart + p;
    }
}
