package io.btfkit.dedup;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.Kind;
import io.btfkit.core.ext.BtfExt;
import io.btfkit.core.StringTable;
import io.btfkit.core.TypeRefs;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Concatenates inputs into one type graph, as libbpf's {@code btf__add_btf} appends each input
 * to an empty (split) BTF: types keep their order, type ids are shifted, and every string is
 * made canonical — a string already in the base keeps its base offset, any other string gets
 * one offset in a shared pool — so equal strings compare as equal ints from here on.
 *
 * <p>Inputs come from a {@link Deduplicator.UnitSource} that tells each one's size up front, so
 * the merged words are allocated once; the inputs are read a round at a time, copied straight
 * in and let go, and their strings interned in parallel tasks (an input, or a slice of a large
 * one). Only the merged graph and one round of inputs are ever held. A source that knows only
 * estimates (units rewritten as they are read) has each round placed once it is read, the words
 * grown if the round needs more than estimated.
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
        /** The merged types' words and where each starts; null once {@link #releaseTypes} let them go. */
        int[] words;
        int[] starts;
        /**
         * Each merged type's {@link TypeKinds} byte; null once the declaration rules are done
         * (the final partition and the output do not read it, and on a large link the
         * partition's peak is the run's).
         */
        byte[] kinds;
        /**
         * Own strings, NUL-terminated, each once (the interning table is let go after the
         * merge); canonical offset = stringStart + offset in this array.
         */
        final byte[] pool;
        final int stringStart;
        /** The numbering of {@link #pool}'s strings, for the output ({@link StringOrdinals#meanwhile}). */
        final java.util.function.Supplier<StringOrdinals> ordinals;
        /** Merged id of the first type of each input, plus the end. */
        final int[] inputFirst;
        /** The first input's .BTF.ext with canonical string offsets, or null. */
        BtfExt ext;
        /** The first input's raw format (the output's). */
        Btf.RawFormat format = Btf.RawFormat.CLASSIC;
        /** Whether any input was split. */
        boolean anySplit;
        /**
         * How many inputs use each own string, on average: the distinct strings of every input,
         * summed, over the distinct strings of them all — how much the inputs repeat each other
         * (a unit split of one vmlinux: 23; kernel modules: 3).
         */
        double stringSharing = 1;

        Merged(Btf base, int firstId, int[] words, int[] starts, byte[] kinds, byte[] pool, int stringStart,
               int[] inputFirst) {
            this.base = base;
            this.firstId = firstId;
            this.words = words;
            this.starts = starts;
            this.kinds = kinds;
            this.pool = pool;
            this.ordinals = StringOrdinals.meanwhile(pool);
            this.stringStart = stringStart;
            this.inputFirst = inputFirst;
        }

        int typeCount() {
            return firstId + starts.length - 1;
        }

        /**
         * Lets the merged types go once the output holds its copy of the kept ones: the caller's
         * frames still hold this object, and on a module link the types are 40 MB of the 120 MB
         * alive while the output's strings are laid out (the run's peak before this).
         */
        void releaseTypes() {
            words = null;
            starts = null;
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

    /**
     * Inputs whose strings are interned per round; the pool grows between rounds. A round's
     * inputs are alive until it ends, and what is alive at a young collection is copied into the
     * old generation: 16 inputs (about 3 MB of a per-CU link) rather than 64 halved link300's
     * young-collection time (38 -> 22 ms), at no cost on 3,000 units.
     */
    static final int ROUND = 16;

    /**
     * Merges {@code inputs}; {@code ext}, the .BTF.ext of a single input, has its strings made
     * canonical after all type strings (libbpf visits .BTF.ext strings last).
     *
     * @param release the caller gives the inputs up (a mutable list): each list entry is set to
     *                null as soon as the input is copied and its strings interned
     */
    static Merged merge(List<Btf> inputs, BtfExt ext, Btf base, boolean release) {
        return merge(inputs, ext, base, release, ROUND);
    }

    /** {@link #merge(List, BtfExt, Btf, boolean)} interning {@code round} inputs at a time (tests). */
    static Merged merge(List<Btf> inputs, BtfExt ext, Btf base, boolean release, int round) {
        return merge(inputs, ext, base, release, round, SLICE);
    }

    /** ... and cutting inputs into interning slices of {@code slice} types (tests). */
    static Merged merge(List<Btf> inputs, BtfExt ext, Btf base, boolean release, int round, int slice) {
        return merge(inputs, ext, base, release, round, slice, SCRATCH_LIMIT);
    }

    /**
     * ... and interning whole units in one pass ({@link WholeUnitStrings}) when their own string
     * section is at most {@code wholeLimit} bytes (tests: -1 numbers every unit first).
     */
    static Merged merge(List<Btf> inputs, BtfExt ext, Btf base, boolean release, int round, int slice, int wholeLimit) {
        for (Btf in : inputs) {
            // a split input is on the base, or (standalone merge) on the first input
            if (in.isSplit() && in.base() != base && (base != null || in.base() != inputs.get(0))) {
                throw new IllegalArgumentException("split input is not on the given base");
            }
        }
        return merge(new Deduplicator.UnitSource() {
            @Override
            public int size() {
                return inputs.size();
            }

            @Override
            public int typeSectionBytes(int k) {
                return inputs.get(k).typeSectionBytes();
            }

            @Override
            public Btf read(int k) {
                Btf in = inputs.get(k);
                if (release) {
                    inputs.set(k, null);
                }
                return in;
            }
        }, ext, base, round, slice, wholeLimit);
    }

    /**
     * Merges the units of {@code source}, each read once (in parallel, in rounds) and copied
     * straight into the merged words, whose size the source tells up front: no more than a
     * round of units is held at once besides the merged graph.
     */
    static Merged merge(Deduplicator.UnitSource source, BtfExt ext, Btf base, int round) {
        return merge(source, ext, base, round, SLICE, SCRATCH_LIMIT);
    }

    private static Merged merge(Deduplicator.UnitSource source, BtfExt ext, Btf base, int round, int slice,
                                int wholeLimit) {
        Rounds rounds = new Rounds(source, base, ext != null, slice, wholeLimit);
        io.btfkit.core.PhaseTimer timer = new io.btfkit.core.PhaseTimer();
        // 1. round by round, in parallel: each unit's words copied with canonical string offsets
        // (base first, then the shared pool, which grows when full)
        for (int r = 0; r < rounds.k0; r += round) {
            rounds.merge(r, Math.min(rounds.k0, r + round));
        }
        ConcurrentStrings pool = rounds.pool;
        if (pool == null) {
            pool = firstPool(1, 1, 0, rounds.baseStrings, true, false); // no inputs
        }
        timer.lap("merge intern (" + pool.describe() + ", " + rounds.perInputStrings + " per input)");
        double sharing = (double) rounds.perInputStrings / Math.max(1, pool.count());
        BtfExt canonicalExt = null;
        if (ext != null) {
            StringTable st = rounds.extStrings;
            long[] need = {0, 0};
            ext.forEachStringOffset(off -> {
                if (st.isValid(off)) {
                    need[0] += st.lengthAt(off) + 1L;
                    need[1]++;
                }
            });
            pool = pool.withRoom(need[0], need[1]);
            canonicalExt = canonicalExt(ext, st, pool);
        }
        // 2. in parallel: type ids shifted, where each type starts
        Merged m = rounds.shifted(pool);
        timer.lap("merge shift");
        m.ext = canonicalExt;
        m.stringSharing = sharing;
        return m;
    }

    /**
     * The merge's state from round to round. Each step is a method of its own: the JIT compiles
     * what runs long in a method that has not returned (a loop) on the stack, and as one method
     * of 1,500 bytes with five loops the merge was compiled five times over, 130 ms of the
     * compiler's time beside the merge's threads on a module link.
     */
    private static final class Rounds {
        final Deduplicator.UnitSource source;
        final int firstId;
        final int k0;
        /** Where each unit's words start in {@link #words}, plus the end. */
        final int[] wordAt;
        final Btf base;
        final StringTable baseStrings;
        final boolean exact;
        final int slice;
        final int wholeLimit;
        /** The merged words (an estimate when the sizes are not exact: grown when a round needs more, the rest unused). */
        int[] words;
        final Unit[] units;
        final StringTable[] unitTables;
        /** Whether the first input's .BTF.ext is merged: its strings are then kept. */
        final boolean withExt;
        /** The strings of the first input, when {@link #withExt}. */
        StringTable extStrings;
        ConcurrentStrings pool;
        long perInputStrings;

        Rounds(Deduplicator.UnitSource source, Btf base, boolean withExt, int slice, int wholeLimit) {
            this.source = source;
            this.withExt = withExt;
            this.base = base;
            this.firstId = base == null ? 1 : base.typeCount();
            this.k0 = source.size();
            this.wordAt = new int[k0 + 1];
            for (int k = 0; k < k0; k++) {
                long w = wordAt[k] + (long) (source.typeSectionBytes(k) / 4);
                if (w > Integer.MAX_VALUE - 16) {
                    throw new io.btfkit.core.BtfException("inputs too large to merge: " + 4 * w + " bytes of types");
                }
                wordAt[k + 1] = (int) w;
            }
            this.baseStrings = base == null ? null : base.strings();
            this.exact = source.sizesExact();
            this.slice = slice;
            this.wholeLimit = wholeLimit;
            this.words = new int[wordAt[k0]];
            this.units = new Unit[k0];
            this.unitTables = new StringTable[k0];
        }

        /** Units {@code [r, to)}: read, copied in, their strings interned. */
        void merge(int r, int to) {
            int from = r;
            // the strings of each input, or of each slice of a large one (a vmlinux is one
            // input), are numbered and interned as one task; an input of one slice is numbered
            // as soon as it is read (one pass fewer over the round, fewer waits between them)
            UnitStrings[] numbered = new UnitStrings[to - r];
            boolean[] whole = new boolean[to - r];
            // sizes known only as read: this round's units placed after the words so far
            Btf[] held = exact ? null : readRound(source, r, to);
            if (!exact) {
                place(held, r, to);
            }
            int[] into = words;
            // a whole unit's strings interned as soon as it is copied, in the pool as it stands
            // (-1: not yet, or the pool was full)
            long[] early = new long[to - r];
            Arrays.fill(early, -1);
            ConcurrentStrings current = pool;
            largestFirst(r, to, k -> wordAt[k + 1] - wordAt[k], k -> {
                Btf in = exact ? source.read(k) : held[k - from];
                if (in.typeSectionBytes() != 4 * (wordAt[k + 1] - wordAt[k])) {
                    throw new io.btfkit.core.BtfException("input " + k + " has " + in.typeSectionBytes()
                            + " bytes of types, not the " + 4 * (wordAt[k + 1] - wordAt[k]) + " announced");
                }
                if (k == 0 && withExt) {
                    extStrings = in.strings();
                }
                units[k] = new Unit(in);
                unitTables[k] = in.strings();
                System.arraycopy(in.words(), 0, into, wordAt[k], wordAt[k + 1] - wordAt[k]);
                if (units[k].count() <= slice) {
                    if (WholeUnitStrings.applies(in.strings(), baseStrings != null, wholeLimit)) {
                        whole[k - from] = true;
                        if (current != null) {
                            early[k - from] = WholeUnitStrings.intern(into, wordAt[k], units[k].starts, in.strings(),
                                    current);
                        }
                    } else {
                        numbered[k - from] = number(into, wordAt[k], units[k].starts, 0, units[k].count(), in.strings(),
                                baseStrings != null);
                    }
                }
            });
            int[][] tasks = slices(units, r, to, slice);
            UnitStrings[] unitStrings = new UnitStrings[tasks.length];
            boolean[] wholeTask = new boolean[tasks.length];
            // the slices of inputs too large to number whole, numbered in parallel; a round
            // without any (the common case: units and modules, every round) starts no tasks
            IntArrayList toNumber = new IntArrayList();
            for (int t = 0; t < tasks.length; t++) {
                int[] task = tasks[t];
                wholeTask[t] = whole[task[0] - from];
                unitStrings[t] = numbered[task[0] - from];
                if (!wholeTask[t] && unitStrings[t] == null) {
                    toNumber.add(t);
                }
            }
            IntStream.range(0, toNumber.size()).parallel().forEach(i -> {
                int[] task = tasks[toNumber.getInt(i)];
                unitStrings[toNumber.getInt(i)] = number(into, wordAt[task[0]], units[task[0]].starts, task[1], task[2],
                        unitTables[task[0]], baseStrings != null);
            });
            if (pool == null) {
                pool = firstPool(tasks, wholeTask, unitStrings, to == k0);
            }
            for (UnitStrings us : unitStrings) {
                perInputStrings += us == null ? 0 : us.count();
            }
            long[] distinct = new long[tasks.length];
            for (int t = 0; t < tasks.length; t++) {
                distinct[t] = wholeTask[t] ? early[tasks[t][0] - from] : 0;
            }
            intern(tasks, wholeTask, unitStrings, distinct, into, to);
            for (long d : distinct) {
                perInputStrings += d;
            }
            Arrays.fill(unitTables, r, to, null);
        }

        /** Places units {@code [r, to)}, read as {@code held}, after the words so far, growing the words if need be. */
        private void place(Btf[] held, int r, int to) {
            for (int k = r; k < to; k++) {
                long w = wordAt[k] + (long) (held[k - r].typeSectionBytes() / 4);
                if (w > Integer.MAX_VALUE - 16) {
                    throw new io.btfkit.core.BtfException("inputs too large to merge: " + 4 * w + " bytes of types");
                }
                wordAt[k + 1] = (int) w;
            }
            if (wordAt[to] > words.length) {
                words = Arrays.copyOf(words, (int) Math.min(Integer.MAX_VALUE - 16,
                        Math.max(wordAt[to], words.length + (long) words.length / 4)));
            }
        }

        /** The pool sized for the first round's {@code tasks} ({@link Merger#firstPool}). */
        private ConcurrentStrings firstPool(int[][] tasks, boolean[] wholeTask, UnitStrings[] unitStrings,
                                            boolean lastRound) {
            long[] need = {1, 1};
            for (int t = 0; t < tasks.length; t++) {
                if (wholeTask[t]) {
                    WholeUnitStrings.addBounds(unitTables[tasks[t][0]], lastRound, need);
                } else {
                    need[0] += unitStrings[t].bytesNeeded;
                    need[1] += unitStrings[t].count();
                }
            }
            return Merger.firstPool(need[0], need[1], wordAt[k0], baseStrings, lastRound,
                    seedsBase(baseStrings, wordAt[k0]));
        }

        /**
         * Interns and rewrites the strings of the round's tasks not yet done (a whole unit's
         * {@code distinct} is -1 until interned); a task that finds the pool full is done again
         * once it has grown.
         */
        private void intern(int[][] tasks, boolean[] wholeTask, UnitStrings[] unitStrings, long[] distinct, int[] into,
                            int to) {
            int[] pending = IntStream.range(0, tasks.length).filter(t -> !wholeTask[t] || distinct[t] < 0).toArray();
            while (pending.length > 0) {
                ConcurrentStrings p = pool;
                boolean[] full = new boolean[pending.length];
                int[] todo = pending;
                IntStream.range(0, todo.length).parallel().forEach(i -> {
                    int t = todo[i];
                    if (wholeTask[t]) {
                        int k = tasks[t][0];
                        distinct[t] = WholeUnitStrings.intern(into, wordAt[k], units[k].starts, unitTables[k], p);
                        full[i] = distinct[t] < 0;
                    } else if (unitStrings[t].canonicalize(p)) {
                        int[] task = tasks[t];
                        unitStrings[t].rewrite(into, wordAt[task[0]], units[task[0]].starts, task[1], task[2]);
                        unitStrings[t] = null;
                    } else {
                        full[i] = true;
                    }
                });
                pending = IntStream.range(0, todo.length).filter(i -> full[i]).map(i -> todo[i]).toArray();
                if (pending.length > 0) {
                    pool = pool.grownFor(wordAt[to], wordAt[k0]);
                }
            }
        }

        /** The merged graph: in parallel, each unit's type ids shifted and where each type starts; {@code pool} its strings. */
        Merged shifted(ConcurrentStrings pool) {
            int[] typeAt = new int[k0 + 1];
            int[] inputFirst = new int[k0 + 1];
            for (int k = 0; k < k0; k++) {
                long t = typeAt[k] + (long) units[k].count();
                if (t + firstId > Integer.MAX_VALUE - 16) {
                    throw new io.btfkit.core.BtfException("inputs too large to merge: " + t + " types");
                }
                typeAt[k + 1] = (int) t;
                inputFirst[k] = firstId + typeAt[k];
            }
            inputFirst[k0] = firstId + typeAt[k0];
            int[] starts = new int[typeAt[k0] + 1];
            starts[typeAt[k0]] = wordAt[k0];
            byte[] kinds = new byte[typeAt[k0]];
            int[] merged = words;
            IntStream.range(0, k0).parallel().forEach(k -> {
                units[k].shift(merged, starts, kinds, wordAt[k], typeAt[k], firstId + typeAt[k]);
                units[k].starts = null;
            });
            Merged m = new Merged(base, firstId, words, starts, kinds, Arrays.copyOf(pool.bytes(), pool.size()),
                    base == null ? 0 : baseStrings.end(), inputFirst);
            m.format = k0 == 0 ? Btf.RawFormat.CLASSIC : units[0].format;
            m.anySplit = Arrays.stream(units).anyMatch(u -> u.split);
            return m;
        }
    }

    /**
     * Runs {@code body} on each of {@code [from, to)} on every core, each thread taking the
     * largest ({@code size}) of those left next ({@link #largestFirstOrder}): a round's inputs
     * differ in size by up to a thousand times (kernel modules), and a round waits for its last
     * input, so the large ones go first and the small ones fill in. (4,023 modules in rounds cut
     * in halves, one per core: both cores busy 1.37 of the rounds' wall time.)
     */
    static void largestFirst(int from, int to, java.util.function.IntUnaryOperator size,
                             java.util.function.IntConsumer body) {
        int[] order = largestFirstOrder(from, to, size);
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        int threads = Math.min(order.length, java.util.concurrent.ForkJoinPool.getCommonPoolParallelism() + 1);
        IntStream.range(0, threads).parallel().forEach(t -> {
            for (int i = next.getAndIncrement(); i < order.length; i = next.getAndIncrement()) {
                body.accept(order[i]);
            }
        });
    }

    /** {@code [from, to)} by {@code size} descending, equal sizes in order. */
    static int[] largestFirstOrder(int from, int to, java.util.function.IntUnaryOperator size) {
        int n = to - from;
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            // (the complement of the size in the high half sorts the largest first)
            keys[i] = ((long) ~size.applyAsInt(from + i) << 32) | i;
        }
        Arrays.sort(keys);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = from + (int) keys[i];
        }
        return order;
    }

    /** Units {@code [from, to)} of {@code source}, read in parallel. */
    private static Btf[] readRound(Deduplicator.UnitSource source, int from, int to) {
        Btf[] read = new Btf[to - from];
        IntStream.range(from, to).parallel().forEach(k -> read[k - from] = source.read(k));
        return read;
    }

    /**
     * The pool sized for the first round: {@code bytes} and {@code strings}, its tasks' needs —
     * upper bounds, exact for one input of one slice numbered first. When more rounds follow it
     * is held to 1 MiB and 64 Ki strings (linked units share most strings, and the pool grows
     * when full, {@link ConcurrentStrings#grownFor}), from above and, while the inputs' type
     * bytes ({@code 4 * typeWords}) are more, from below: a first round of small modules needed
     * 38 KB, and the pool then grew 8 times; when this round is the only one (a vmlinux, a
     * module) it is what the round needs, so that no task has to intern its strings twice. On a
     * base ({@code baseStrings} not null) it holds the base's strings first when {@code seed}.
     */
    private static ConcurrentStrings firstPool(long bytes, long strings, long typeWords, StringTable baseStrings,
                                               boolean lastRound, boolean seed) {
        // (below: about as many bytes of strings as of types, a string per 16 bytes of types)
        long b = lastRound ? bytes : Math.min(1 << 20, Math.max(bytes, 4 * typeWords));
        long n = lastRound ? strings : Math.min(1 << 16, Math.max(strings, typeWords / 4));
        if (baseStrings != null) {
            return seed ? ConcurrentStrings.seeded(b, n, baseStrings) : ConcurrentStrings.onBase(b, n, baseStrings);
        }
        ConcurrentStrings pool = new ConcurrentStrings(b, n);
        if (pool.add(new byte[0], 0, 0) != 0) {
            throw new IllegalStateException("the empty string must come first");
        }
        return pool;
    }

    /**
     * Type words per base string from which the pool is seeded with the base's strings: a
     * string is looked up for about 6 words of types, and seeding costs about a lookup per base
     * string, so this waits for about 3 lookups per base string.
     */
    static final int SEED_WORDS_PER_BASE_STRING = 16;

    /**
     * Whether the pool holds the base's strings from the start ({@link ConcurrentStrings#seeded}):
     * when the inputs' {@code typeWords} promise many more lookups than the base has strings
     * (estimated as one per 16 bytes). The link of 4,023 modules: 9.0 M words on a base of
     * 1.8 MB of strings, 80 per estimated string (1.47 M lookups, 102 K strings); the largest
     * module alone 0.28 M words, 2.5. {@code -Dbtfkit.dedup.seedBase=always} or {@code never}
     * forces the choice (tests compare the bytes).
     */
    static boolean seedsBase(StringTable baseStrings, long typeWords) {
        if (baseStrings == null) {
            return false;
        }
        String forced = System.getProperty("btfkit.dedup.seedBase", "");
        if (!forced.isEmpty()) {
            return forced.equals("always");
        }
        long strings = 0;
        for (StringTable t = baseStrings; t != null; t = t.base()) {
            strings += t.length() / 16 + 1; // (an estimate: counting them is the cost being weighed)
        }
        return typeWords >= SEED_WORDS_PER_BASE_STRING * strings;
    }

    /** Types per interning task: a larger input is cut in slices interned in parallel. */
    private static final int SLICE = 16384;

    /** Interning tasks {input, first type, end type} of inputs [from, to). */
    private static int[][] slices(Unit[] units, int from, int to, int slice) {
        java.util.List<int[]> tasks = new java.util.ArrayList<>();
        for (int k = from; k < to; k++) {
            int n = units[k].count();
            for (int a = 0; a < n || a == 0; a += slice) {
                tasks.add(new int[] {k, a, (int) Math.min(n, (long) a + slice)});
            }
        }
        return tasks.toArray(new int[0][]);
    }

    /** What the merge keeps of a unit once read: where its types start, how to shift its ids. */
    private static final class Unit {
        final int firstId;
        final int keepBelow;
        final boolean split;
        final Btf.RawFormat format;
        int[] starts;

        Unit(Btf in) {
            firstId = in.firstId();
            split = in.isSplit();
            keepBelow = split ? firstId : 1;
            format = in.format();
            starts = in.starts();
        }

        int count() {
            return starts.length - 1;
        }

        /**
         * Shifts the ids of the unit's types at {@code words[w..]} to merged ids from {@code newFirst},
         * and sets their starts and {@link TypeKinds} bytes from index {@code t}.
         */
        void shift(int[] words, int[] outStarts, byte[] kinds, int w, int t, int newFirst) {
            int shift = newFirst - firstId;
            int n = starts.length - 1;
            for (int i = 0; i < n; i++) {
                int ds = w + starts[i];
                outStarts[t + i] = ds;
                kinds[t + i] = TypeKinds.of(words, ds);
                int count = TypeRefs.typeIdCount(words, ds);
                for (int k = 0; k < count; k++) {
                    int slot = TypeRefs.typeIdSlot(words, ds, k);
                    int id = words[slot];
                    if (id >= keepBelow) {
                        words[slot] = id + shift;
                    }
                }
            }
        }
    }

    /**
     * Sets each string slot of the unit's types {@code [from, to)} (its type starts {@code is},
     * copied to {@code words[w..]}) to the string's ordinal, and returns their string list.
     */
    private static UnitStrings number(int[] words, int w, int[] is, int from, int to, StringTable strings,
                                      boolean keepBase) {
        // about one string per 16 bytes of the string section, at most two per type
        int expected = (int) Math.min(strings.length() / 16L, 2L * (to - from)) + 16;
        UnitStrings us = new UnitStrings(strings, keepBase, expected);
        us.beginNumbering(expected);
        for (int i = from; i < to; i++) {
            int s = w + is[i];
            words[s] = us.see(words[s]);
            int stride = TypeRefs.memberNameStride(words, s);
            for (int m = s + 3, end = stride == 0 ? m : m + stride * Kind.vlenOf(words[s + 1]); m < end; m += stride) {
                words[m] = us.see(words[m]);
            }
        }
        us.endNumbering();
        us.bytesNeeded = us.bytesNeeded();
        return us;
    }

    /** String sections above this many bytes are numbered through a map rather than the per-thread array. */
    private static final int SCRATCH_LIMIT = 1 << 20;

    /**
     * One input's strings: the offsets its types use, each once in first-reference order, and
     * (after {@link #canonicalize}) their canonical offsets. While the input is copied, each
     * string slot is set to the string's ordinal in that order, stored as {@code ~ordinal}
     * (negative; string offsets are below 2^31), so that no per-byte map of the string section
     * needs to outlive the copy: {@link #rewrite} turns ordinals into canonical offsets.
     */
    private static final class UnitStrings {
        /** Per-thread scratch array, own offset - ownStart to ordinal + 1; all zero between uses. */
        private static final ThreadLocal<int[]> SCRATCH = ThreadLocal.withInitial(() -> new int[0]);

        private final StringTable st;
        private final boolean keepBase;
        private final int ownStart;
        private final it.unimi.dsi.fastutil.ints.IntArrayList order;
        /** Strings of the first input that a split input of a standalone merge uses: offset to ordinal. */
        private it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap baseOrdinal;
        private int[] canonical;
        /** Per string in order: its length and hash ({@link io.btfkit.core.StringPool#lengthAndHash}). */
        private long[] lengthAndHash;
        /** {@link #bytesNeeded()}, computed by the (parallel) copy. */
        long bytesNeeded;
        /** While numbering: own offset - ownStart to ordinal + 1 (small sections), or offset to ordinal. */
        private int[] seenArray;
        private it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap seenMap;

        /** {@code expected}: about how many strings (sized once rather than grown from ten). */
        UnitStrings(StringTable st, boolean keepBase, int expected) {
            this.order = new it.unimi.dsi.fastutil.ints.IntArrayList(expected);
            this.st = st;
            this.keepBase = keepBase;
            this.ownStart = st.start();
        }

        /**
         * Prepares the offset-to-ordinal map: the per-thread array (one int per byte of the
         * string section, all zero between uses) for a small section; for a large one (a
         * vmlinux, cut in slices) a hash map of just the offsets this task uses — the array
         * would be 9 MB for a vmlinux, and kept by every pool thread.
         */
        void beginNumbering(int expected) {
            if (st.length() > SCRATCH_LIMIT) {
                seenMap = new it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap(expected);
                seenMap.defaultReturnValue(-1);
                return;
            }
            int[] m = SCRATCH.get();
            if (m.length < st.length()) {
                m = new int[st.length()];
                SCRATCH.set(m);
            }
            seenArray = m;
        }

        /** Clears the scratch entries this input set, leaving it all zero for the next input. */
        void endNumbering() {
            if (seenArray != null) {
                for (int i = 0; i < order.size(); i++) {
                    int off = order.getInt(i);
                    if (off >= ownStart) {
                        seenArray[off - ownStart] = 0;
                    }
                }
            }
            seenArray = null;
            seenMap = null;
        }

        /** The slot value for string offset {@code off}: itself when kept as is, else ~ordinal. */
        int see(int off) {
            if (off == 0 || (keepBase && off < ownStart)) {
                return off; // the empty string, or a string of the base: kept as is
            }
            if (off < ownStart) {
                return seeFirstInput(off);
            }
            int o;
            if (seenArray != null) {
                o = seenArray[off - ownStart] - 1;
                if (o < 0) {
                    o = order.size();
                    seenArray[off - ownStart] = o + 1;
                    order.add(off);
                }
            } else {
                o = seenMap.get(off);
                if (o < 0) {
                    o = order.size();
                    seenMap.put(off, o);
                    order.add(off);
                }
            }
            return ~o;
        }

        /** A string of the first input that a split input of a standalone merge uses. */
        private int seeFirstInput(int off) {
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

        /** Bytes the distinct strings of this input need in the pool (NULs included). */
        long bytesNeeded() {
            long n = 0;
            int count = order.size();
            lengthAndHash = new long[count];
            for (int i = 0; i < count; i++) {
                int off = order.getInt(i);
                StringTable t = st.tableOf(off);
                long lh = io.btfkit.core.StringPool.lengthAndHash(t.bytes(), off - t.start());
                lengthAndHash[i] = lh;
                n += (lh >>> 32) + 1L;
            }
            return n;
        }

        int count() {
            return order.size();
        }

        /** Sets each string's canonical offset; false when the pool's bounds ran out. */
        boolean canonicalize(ConcurrentStrings pool) {
            canonical = new int[order.size()];
            for (int i = 0; i < order.size(); i++) {
                int off = order.getInt(i);
                long lh = lengthAndHash[i];
                int c = canonical(st, off, (int) (lh >>> 32), (int) lh, pool);
                if (c < 0) {
                    return false;
                }
                canonical[i] = c;
            }
            lengthAndHash = null;
            return true;
        }

        void rewrite(int[] words, int w, int[] starts, int from, int to) {
            for (int t = from; t < to; t++) {
                int s = w + starts[t];
                words[s] = canonicalOf(words[s]);
                int stride = TypeRefs.memberNameStride(words, s);
                for (int m = s + 3, end = stride == 0 ? m : m + stride * Kind.vlenOf(words[s + 1]); m < end; m += stride) {
                    words[m] = canonicalOf(words[m]);
                }
            }
        }

        /** A slot's final value: ordinals ({@code ~ordinal}) become canonical offsets. */
        private int canonicalOf(int v) {
            return v < 0 ? canonical[~v] : v;
        }
    }

    /**
     * The strings of a whole unit whose own string section is small, interned in one pass over
     * its string slots and rewritten in a second, through a per-thread array indexed by own
     * offset (canonical offset + 1; all zero between uses, the entries set cleared one by one). It does what {@link #number},
     * {@link UnitStrings#canonicalize} and {@link UnitStrings#rewrite} do in four passes with
     * three arrays per string (an ordinal list, lengths and hashes, canonical offsets): the
     * strings of 300 units are 2.8 M of them.
     */
    private static final class WholeUnitStrings {
        /** Per-thread: the own offsets - ownStart set in the array, so that only they are cleared. */
        private static final ThreadLocal<int[]> TOUCHED = ThreadLocal.withInitial(() -> new int[256]);

        private WholeUnitStrings() {
        }

        /**
         * Whether a unit with strings {@code st} is interned so: its own section fits the
         * per-thread array ({@code limit} bytes, at most {@link #SCRATCH_LIMIT}), and every offset
         * below it is the base's, kept as is (not a split input of a standalone merge, whose
         * first input's strings are numbered apart).
         */
        static boolean applies(StringTable st, boolean keepBase, int limit) {
            return st.length() <= Math.min(limit, SCRATCH_LIMIT) && (keepBase || st.start() == 0);
        }

        /**
         * Adds to {@code need} ({bytes, strings}) what the unit's strings can need of the pool:
         * its section's bytes, and (when {@code exact}) its strings counted, else estimated as
         * one per 16 bytes (a later round's pool only grows, by doubling, when full).
         */
        static void addBounds(StringTable st, boolean exact, long[] need) {
            byte[] b = st.bytes();
            need[0] += b.length + 1L;
            if (!exact) {
                need[1] += b.length / 16 + 16;
                return;
            }
            // (an offset inside a string is one more string: rare, and a task found full is redone)
            need[1] += 16L + st.count();
        }

        /** The end of type {@code s}'s string slots: its name, then a member's every {@code stride} words. */
        private static int slotsEnd(int[] words, int s, int stride) {
            return stride == 0 ? s + 3 : s + 3 + stride * Kind.vlenOf(words[s + 1]);
        }

        /**
         * Interns the strings the unit's types (copied to {@code words[w..]}, starting at
         * {@code starts}) use and rewrites their slots to canonical offsets; returns how many own
         * offsets they use, or -1 (nothing rewritten) when the pool's bounds ran out.
         */
        static long intern(int[] words, int w, int[] starts, StringTable st, ConcurrentStrings pool) {
            int ownStart = st.start();
            byte[] bytes = st.bytes();
            int[] canon = UnitStrings.SCRATCH.get();
            if (canon.length < bytes.length) {
                canon = new int[bytes.length];
                UnitStrings.SCRATCH.set(canon);
            }
            int[] touched = TOUCHED.get();
            long distinct = 0;
            int n = starts.length - 1;
            try {
                for (int t = 0; t < n; t++) {
                    int s = w + starts[t];
                    int stride = TypeRefs.memberNameStride(words, s);
                    for (int m = s, end = slotsEnd(words, s, stride); m < end; m = m == s ? s + 3 : m + stride) {
                        int i = words[m] - ownStart;
                        if (words[m] == 0 || i < 0 || canon[i] != 0) {
                            continue; // the empty string, a base string, or one seen
                        }
                        long lh = io.btfkit.core.StringPool.lengthAndHash(bytes, i);
                        int c = canonical(st, words[m], (int) (lh >>> 32), (int) lh, pool);
                        if (c < 0) {
                            return -1;
                        }
                        canon[i] = c + 1;
                        if (distinct == touched.length) {
                            touched = Arrays.copyOf(touched, Math.max(256, 2 * touched.length));
                            TOUCHED.set(touched);
                        }
                        touched[(int) distinct++] = i;
                    }
                }
                for (int t = 0; t < n; t++) {
                    int s = w + starts[t];
                    int stride = TypeRefs.memberNameStride(words, s);
                    for (int m = s, end = slotsEnd(words, s, stride); m < end; m = m == s ? s + 3 : m + stride) {
                        int i = words[m] - ownStart;
                        if (words[m] != 0 && i >= 0) {
                            words[m] = canon[i] - 1;
                        }
                    }
                }
                return distinct;
            } finally {
                for (int k = 0; k < distinct; k++) {
                    canon[touched[k]] = 0;
                }
            }
        }
    }

    private static BtfExt canonicalExt(BtfExt ext, StringTable st, ConcurrentStrings pool) {
        int ownStart = st.start();
        return ext.remap(id -> id, off -> {
            if (off == 0 || (off >= 0 && off < ownStart)) {
                return off;
            }
            if (!st.isValid(off)) {
                throw new BtfFormatException(".BTF.ext refers to string offset " + Integer.toUnsignedString(off)
                        + ", past the end of the .BTF string section (" + st.end() + " bytes)");
            }
            StringTable t = st.tableOf(off);
            long lh = io.btfkit.core.StringPool.lengthAndHash(t.bytes(), off - t.start());
            int c = canonical(st, off, (int) (lh >>> 32), (int) lh, pool);
            if (c < 0) {
                throw new IllegalStateException("string pool sized from upper bounds overflowed");
            }
            return c;
        });
    }

    /** Canonical offset of the string at {@code off} of {@code st} (in the base, else in the pool); -1: the pool is full. */
    private static int canonical(StringTable st, int off, int len, int hash, ConcurrentStrings pool) {
        StringTable t = st.tableOf(off);
        return pool.add(t.bytes(), off - t.start(), len, hash);
    }
}
