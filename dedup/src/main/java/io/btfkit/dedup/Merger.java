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
        /** Own strings, each once; canonical offset = stringStart + pool offset. */
        final ConcurrentStrings pool;
        final int stringStart;
        /** Merged id of the first type of each input, plus the end. */
        final int[] inputFirst;
        /** The first input's .BTF.ext with canonical string offsets, or null. */
        BtfExt ext;

        Merged(Btf base, int firstId, int[] words, int[] starts, ConcurrentStrings pool, int stringStart, int[] inputFirst) {
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
        return merge(inputs, null, base);
    }

    /**
     * Merges {@code inputs}; {@code ext}, the .BTF.ext of a single input, has its strings made
     * canonical after all type strings (libbpf visits .BTF.ext strings last).
     */
    static Merged merge(List<Btf> inputs, BtfExt ext, Btf base) {
        return merge(inputs, ext, base, GUESS_BYTES, GUESS_STRINGS);
    }

    /** {@link #merge(List, BtfExt, Btf)} with the string pool's first bounds given (tests). */
    static Merged merge(List<Btf> inputs, BtfExt ext, Btf base, long guessBytes, long guessStrings) {
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
        int[] words = new int[(int) totalWords];
        int[] starts = new int[(int) totalTypes + 1];
        int[] inputFirst = new int[inputs.size() + 1];

        StringTable baseStrings = base == null ? null : base.strings();
        int stringStart = base == null ? 0 : baseStrings.end();
        int k0 = inputs.size();
        int[] wordAt = new int[k0 + 1];
        int[] typeAt = new int[k0 + 1];
        for (int k = 0; k < k0; k++) {
            wordAt[k + 1] = wordAt[k] + inputs.get(k).typeSectionBytes() / 4;
            typeAt[k + 1] = typeAt[k] + inputs.get(k).ownTypeCount();
            inputFirst[k] = firstId + typeAt[k];
        }
        inputFirst[k0] = firstId + typeAt[k0];
        starts[typeAt[k0]] = wordAt[k0];
        // 1. in parallel: copy each input, shift its ids, list its strings in first-reference order
        Timer timer = new Timer();
        UnitStrings[] unitStrings = new UnitStrings[k0];
        IntStream.range(0, k0).parallel().forEach(k ->
                unitStrings[k] = copy(inputs.get(k), words, starts, wordAt[k], typeAt[k], firstId + typeAt[k], baseStrings));
        timer.lap("merge copy");
        // the arena holds every distinct string once (names may point into the middle of others)
        long maxBytes = 16;
        long maxStrings = 16;
        for (UnitStrings us : unitStrings) {
            maxBytes += us.bytesNeeded;
            maxStrings += us.count();
        }
        if (ext != null) {
            StringTable st = inputs.get(0).strings();
            long[] extNeed = {0, 0};
            ext.forEachStringOffset(off -> {
                if (st.isValid(off)) {
                    extNeed[0] += st.lengthAt(off) + 1L;
                    extNeed[1]++;
                }
            });
            maxBytes += extNeed[0];
            maxStrings += extNeed[1];
        }
        timer.lap("merge pool");
        // 2. give each string its canonical offset (base first, then the shared pool). Linked
        // units share most strings, so the sums above overstate the distinct ones many times
        // over (3,000 units: 197 MB of strings, 5 MB distinct): try small bounds first.
        ConcurrentStrings pool = null;
        if (ext == null && (maxBytes > guessBytes || maxStrings > guessStrings)) {
            pool = intern(unitStrings, base, baseStrings, stringStart, Math.min(maxBytes, guessBytes),
                    Math.min(maxStrings, guessStrings));
        }
        if (pool == null) {
            pool = intern(unitStrings, base, baseStrings, stringStart, maxBytes, maxStrings);
            if (pool == null) {
                throw new IllegalStateException("string pool sized from upper bounds overflowed");
            }
        }
        timer.lap("merge intern");
        // 3. in parallel: rewrite the string offsets
        IntStream.range(0, k0).parallel().forEach(k -> unitStrings[k].rewrite(words, starts, typeAt[k], typeAt[k + 1]));
        timer.lap("merge rewrite");
        Merged merged = new Merged(base, firstId, words, starts, pool, stringStart, inputFirst);
        if (ext != null) {
            merged.ext = canonicalExt(ext, inputs.get(0), baseStrings, pool, stringStart);
        }
        return merged;
    }

    /** First bounds of the string pool when the inputs' sums are larger (see {@link #merge}). */
    private static final long GUESS_BYTES = 32L << 20;
    private static final long GUESS_STRINGS = 1L << 20;

    /**
     * Interns every input's strings into a new pool of the given bounds, in parallel; null when
     * the bounds were too small (each input's canonical offsets are then recomputed by the
     * next attempt).
     */
    private static ConcurrentStrings intern(UnitStrings[] unitStrings, Btf base, StringTable baseStrings,
                                            int stringStart, long maxBytes, long maxStrings) {
        ConcurrentStrings pool = new ConcurrentStrings(maxBytes, maxStrings);
        if (base == null && pool.add(new byte[0], 0, 0) != 0) {
            return null;
        }
        java.util.concurrent.atomic.AtomicBoolean full = new java.util.concurrent.atomic.AtomicBoolean();
        IntStream.range(0, unitStrings.length).parallel().forEach(k -> {
            if (!full.get() && !unitStrings[k].canonicalize(baseStrings, pool, stringStart)) {
                full.set(true);
            }
        });
        return full.get() ? null : pool;
    }

    /** Copies input types into the merged arrays, shifting type ids; returns its string list. */
    private static UnitStrings copy(Btf in, int[] words, int[] starts, int w, int t, int newFirst, StringTable baseStrings) {
        int shift = newFirst - in.firstId();
        int keepBelow = in.isSplit() ? in.firstId() : 1;
        int[] iw = in.words();
        int[] is = in.starts();
        int n = in.ownTypeCount();
        System.arraycopy(iw, 0, words, w, is[n]);
        UnitStrings us = new UnitStrings(in.strings(), baseStrings != null);
        int[] seen = us.scratch();
        for (int i = 0; i < n; i++) {
            int ds = w + is[i];
            starts[t + i] = ds;
            int count = TypeRefs.typeIdCount(words, ds);
            for (int k = 0; k < count; k++) {
                int slot = TypeRefs.typeIdSlot(words, ds, k);
                int id = words[slot];
                if (id >= keepBelow) {
                    words[slot] = id + shift;
                }
            }
            TypeRefs.forEachStringSlot(words, ds, slot -> words[slot] = us.see(words[slot], seen));
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

        void rewrite(int[] words, int[] starts, int from, int to) {
            for (int t = from; t < to; t++) {
                TypeRefs.forEachStringSlot(words, starts[t], slot -> {
                    int v = words[slot];
                    if (v < 0) {
                        words[slot] = canonical[~v];
                    }
                });
            }
        }
    }

    private static BtfExt canonicalExt(BtfExt ext, Btf in, StringTable baseStrings, ConcurrentStrings pool,
                                       int stringStart) {
        StringTable st = in.strings();
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
