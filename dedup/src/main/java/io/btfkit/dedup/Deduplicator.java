package io.btfkit.dedup;

import io.btfkit.core.Btf;
import io.btfkit.core.PhaseTimer;
import io.btfkit.core.ext.BtfExt;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * BTF deduplication and linking (libbpf {@code btf__add_btf} + {@code btf__dedup} semantics).
 *
 * <p>What it computes: the coarsest equivalence on types — equal shapes (kind, name, flags,
 * sizes, member names and offsets, values, linkage...) with equivalent referenced types,
 * position by position, cycles included — after resolving declarations only where it is
 * proven ({@link DeclarationChain}). One type per class is kept: the lowest id (a declaration is
 * never kept when its definition is), so the output keeps the input order; VAR and DATASEC
 * stay unique; split types equivalent to base types map to the base.
 *
 * <p>How: {@link Merger} concatenates the inputs with canonical strings; {@link Partitioner}
 * classifies every type once, leaves first; then, round by round, declarations proven to
 * declare a class are substituted by it on the (small) graph of classes, which is partitioned
 * again, until no declaration is newly resolved. {@link OutputBuilder} writes the kept types.
 *
 * <pre>
 * [1] STRUCT 's' size=8 vlen=1            [1] STRUCT 's' size=8 vlen=1
 *         'p' type_id=2 bits_offset=0         'p' type_id=2 bits_offset=0
 * [2] PTR '(anon)' type_id=1        -->   [2] PTR '(anon)' type_id=1
 * [3] STRUCT 's' size=8 vlen=1
 *         'p' type_id=4 bits_offset=0
 * [4] PTR '(anon)' type_id=3
 * </pre>
 */
public final class Deduplicator {
    private Deduplicator() {
    }

    /** Options of a dedup run. */
    public record Options(boolean unitDeclarations) {
        /** Each input is one compilation unit: resolve its declarations from other units' copies of their context. */
        public static final Options LINK = new Options(true);
        /** Inputs may hold many compilation units (modules, vmlinux): resolve by unique names only. */
        public static final Options WHOLE = new Options(false);
    }

    /**
     * Parts pay when the inputs repeat each other: the union step then classifies far fewer
     * classes than the parts had types. Inputs that share little (kernel modules: each own
     * string used by 3 of them on average, 941,534 types, 448,000 classes after the parts) pay
     * the union on nearly every type, and one part is faster in CPU and in time (4,023 modules:
     * partition 310 ms of CPU in one part, 510-590 ms in two); a unit split shares 23-29.
     */
    static final double PARTS_MIN_SHARING = 6;

    /**
     * Parts of a large link: two, on any machine. A declaration resolved to a definition that
     * has copies in several parts goes to its part's copy (its references then stay inside the
     * part, which the parts' threads classify on their own), and copies of one definition may
     * differ in what else they reference, so the output depends on where the parts are cut: they
     * are cut by the inputs alone, never by the machine's core count, so that a link gives the
     * same bytes everywhere (a random unit split linked as whole inputs, DedupPropertiesTest:
     * 104 types in one part, 105 in two).
     */
    static final int PARTS = 2;

    /**
     * Splits the merged inputs into {@link #PARTS} parts (whole inputs) of about equal size,
     * partitioned at once; small inputs, and inputs that share little
     * ({@link #PARTS_MIN_SHARING}), stay one part.
     */
    private static int[] parts(Merger.Merged m) {
        int n = m.starts.length - 1;
        int inputs = m.inputFirst.length - 1;
        // -Dbtfkit.dedup.parts=N forces N parts whatever the size (tests compare the results)
        Integer forced = Integer.getInteger("btfkit.dedup.parts");
        int p = Math.min(forced != null ? forced : PARTS, inputs);
        if (p < 2 || forced == null && (n < 100_000 || m.stringSharing < PARTS_MIN_SHARING)) {
            return new int[] {0, n};
        }
        int[] out = new int[p + 1];
        int k = 1;
        for (int u = 1; u < inputs && k < p; u++) {
            int at = m.inputFirst[u] - m.firstId;
            if (at >= (long) n * k / p) {
                out[k++] = at;
            }
        }
        out[k] = n;
        return Arrays.copyOf(out, k + 1);
    }

    /**
     * One standalone BTF holding {@code base} and every input (split on {@code base})
     * merged and deduplicated: base types are no longer fixed.
     */
    public static DedupResult linkStandalone(Btf base, List<Btf> splitInputs) {
        List<Btf> all = new java.util.ArrayList<>();
        all.add(base);
        all.addAll(splitInputs);
        return run(all, null, null, Options.WHOLE);
    }

    /**
     * One standalone BTF holding {@code base} and then every input (split on {@code base}), types
     * appended as they are: {@code link --standalone --no-dedup}.
     */
    public static DedupResult concatenateStandalone(Btf base, List<Btf> splitInputs) {
        List<Btf> all = new java.util.ArrayList<>();
        all.add(base);
        all.addAll(splitInputs);
        return concatenate(all, null);
    }

    /** Concatenates inputs without deduplicating types (libbpf {@code btf__add_btf} only). */
    public static DedupResult concatenate(List<Btf> inputs, BaseIndex base) {
        Merger.Merged m = Merger.merge(inputs, base == null ? null : base.base());
        int n = m.starts.length - 1;
        int[] cls = new int[n];
        for (int i = 0; i < n; i++) {
            cls[i] = i + 1;
        }
        // every type its own class: ids 1.. after the base's class ids are never compared here
        int lfirst = base == null ? 1 : base.classCount();
        for (int i = 0; i < n; i++) {
            cls[i] = lfirst + i;
        }
        return OutputBuilder.build(formatOf(inputs), m, base, cls, new Aliases(n), lfirst, 0);
    }

    /** Deduplicates one BTF (standalone, or split on its base). */
    public static DedupResult dedup(Btf input) {
        return run(List.of(input), null, input.base() == null ? null : BaseIndex.of(input.base()), Options.WHOLE);
    }

    /** Deduplicates a split BTF against a base that has been indexed once (batch use). */
    public static DedupResult dedup(Btf input, BaseIndex base) {
        return run(List.of(input), null, base, Options.WHOLE);
    }

    /**
     * Deduplicates one BTF together with its object's .BTF.ext (libbpf's
     * {@code btf_dedup_opts.btf_ext}): the .BTF.ext strings are kept in the output string section
     * and its type ids and string offsets are remapped ({@link DedupResult#ext()}), after
     * checking that each names a type or string of {@code input} ({@link BtfExt#checkAgainst}).
     *
     * @throws io.btfkit.core.BtfFormatException when a .BTF.ext record refers past the BTF
     */
    public static DedupResult dedup(Btf input, BtfExt ext, BaseIndex base) {
        if (ext != null) {
            ext.checkAgainst(input);
        }
        return run(List.of(input), ext, base, Options.WHOLE);
    }

    /**
     * Links inputs in order (each standalone, or split on {@code base}) into one deduplicated
     * BTF, split on {@code base} when it is given.
     */
    public static DedupResult link(List<Btf> inputs, BaseIndex base, Options options) {
        return run(inputs, null, base, options, false);
    }

    /**
     * {@link #link}, emptying {@code inputs} (a mutable list) as soon as they are merged: the
     * merge holds a copy of everything, so a caller that passes its only references to the
     * inputs lets their memory go while the link runs (thousands of units).
     */
    public static DedupResult linkAndRelease(List<Btf> inputs, BaseIndex base, Options options) {
        return run(inputs, null, base, options, true);
    }

    private static Btf.RawFormat formatOf(List<Btf> inputs) {
        return inputs.isEmpty() ? Btf.RawFormat.CLASSIC : inputs.get(0).format();
    }

    private static DedupResult run(List<Btf> inputs, BtfExt ext, BaseIndex baseIndex, Options options) {
        return run(inputs, ext, baseIndex, options, false);
    }

    /**
     * The units of a link, read on demand: {@link #link(UnitSource, BaseIndex, Options)} reads
     * each unit once, a round of units at a time in parallel, and copies it straight into the
     * merged graph, so thousands of units are never all held at once.
     */
    public interface UnitSource {
        /** Number of units. */
        int size();

        /**
         * Byte length of unit {@code k}'s type section, known before it is read (a header says
         * it); only an estimate when {@link #sizesExact()} is false.
         */
        int typeSectionBytes(int k);

        /**
         * Whether {@link #typeSectionBytes} is exact. A source that rewrites each unit as it reads
         * it (gcc 12's encodings normalised) knows the sizes as written only: the merge then sizes
         * its words from them and places each round's units once they are read.
         */
        default boolean sizesExact() {
            return true;
        }

        /**
         * Reads unit {@code k}: standalone, or split on the link's base. Called once per unit,
         * from any thread; exceptions propagate to the caller of the link.
         */
        Btf read(int k);
    }

    /** {@link #link(List, BaseIndex, Options)} of units read on demand. */
    public static DedupResult link(UnitSource units, BaseIndex base, Options options) {
        return link(units, base == null ? null : base.base(), () -> base, options);
    }

    /**
     * {@link #link(UnitSource, BaseIndex, Options)} on {@code base} (null: standalone), whose
     * index {@code index} gives only once the inputs are merged — the merge reads the base but
     * not its classes, so a caller can classify the base on a core the merge leaves idle.
     */
    public static DedupResult link(UnitSource units, Btf base, java.util.function.Supplier<BaseIndex> index,
                                   Options options) {
        PhaseTimer timer = new PhaseTimer();
        Merger.Merged m = Merger.merge(units, null, base, Merger.ROUND);
        timer.lap("merge");
        BaseIndex baseIndex = index.get();
        if (base != null && (baseIndex == null || baseIndex.base() != base)) {
            throw new IllegalArgumentException("the index is not of the base the inputs were merged on");
        }
        timer.lap("base index (rest)");
        return dedupMerged(m, baseIndex, options);
    }

    private static DedupResult run(List<Btf> inputs, BtfExt ext, BaseIndex baseIndex, Options options, boolean release) {
        Btf base = baseIndex == null ? null : baseIndex.base();
        PhaseTimer timer = new PhaseTimer();
        timer.lap("inputs");
        Merger.Merged m = Merger.merge(inputs, ext, base, release);
        if (release) {
            inputs.clear();
        }
        timer.lap("merge");
        return dedupMerged(m, baseIndex, options);
    }

    /**
     * The dedup of merged inputs: the declaration chain resolves what is proven
     * ({@link DeclarationChain}), the partition classifies every type, the output keeps one type
     * per class.
     */
    private static DedupResult dedupMerged(Merger.Merged m, BaseIndex baseIndex, Options options) {
        PhaseTimer timer = new PhaseTimer();
        int[] parts = parts(m);
        Aliases aliases = new Aliases(m.starts.length - 1);
        boolean units = options.unitDeclarations() && !m.anySplit;
        DeclarationEvidence evidence = new DeclarationEvidence(m, baseIndex, units, options.unitDeclarations(), parts,
                aliases, timer);
        long crossing = DeclarationChain.resolve(evidence, timer);
        // -Dbtfkit.dedup.seeds=false: no guesses (tests compare the bytes; DefinitionSeeds)
        DefinitionSeeds seeds = Boolean.parseBoolean(System.getProperty("btfkit.dedup.seeds", "true"))
                ? evidence.seeds() : null;
        evidence = null; // (the definitions pass's graphs and tables are garbage from here on)
        m.kinds = null;
        collectBetweenPasses(m);
        Classes classes = partition(m, baseIndex, finalRanges(parts, crossing), seeds);
        timer.lap("partition");
        DedupResult r = OutputBuilder.build(m.format, m, baseIndex, classes.of, aliases, classes.first, 0);
        timer.lap("output");
        return r;
    }

    /**
     * Redirected references that cross parts, per merged type, from which the final partition
     * runs as one range ({@link #finalRanges}).
     */
    static final double CROSSING_ONE_RANGE = 1.0 / 500;

    /**
     * The final partition's ranges: the parts, or one range when many redirected references cross
     * from a part to another. Each such reference blocks its part's search at the definition it
     * now names, and with it everything that reaches it, which is searched again once the parts
     * are done ({@link SharedPartition}); the classes are the same either way (one class table),
     * only the time differs. 362 gcc objects: 5,225 crossing references of 746,119 types blocked
     * 302,039 of them, and two ranges took 154-161 ms for 250-260 ms of CPU against one range's
     * 133-142 ms for 160-170 ms; units of one kernel (300: 1,304 of 1.5 M, 776 of 1.8 M) block a
     * few thousand, and two ranges are 100 ms faster than one.
     */
    static int[] finalRanges(int[] parts, long crossing) {
        int n = parts[parts.length - 1];
        // -Dbtfkit.dedup.finalRanges=parts or one forces the choice (tests compare the bytes)
        String forced = System.getProperty("btfkit.dedup.finalRanges", "");
        boolean one = forced.equals("one") || !forced.equals("parts") && crossing > n * CROSSING_ONE_RANGE;
        return parts.length > 2 && one ? new int[] {0, n} : parts;
    }

    /** Merged types from which a full collection is made between the two passes. */
    private static final int COLLECT_BETWEEN_PASSES = 1 << 20;

    /**
     * The definitions pass's graphs and tables (a few hundred MB for millions of types) are
     * garbage now, most of it old: collecting it before the partition allocates its own keeps the
     * heap — the process's peak memory — from growing by that much.
     */
    private static void collectBetweenPasses(Merger.Merged m) {
        if (m.starts.length - 1 >= COLLECT_BETWEEN_PASSES) {
            System.gc();
        }
    }

    /** The class of each merged type, and the lowest class id of the merged types' layer. */
    private record Classes(int[] of, int first) {
    }

    /**
     * Classifies every merged type, its parts at once, base classes fixed, trying first the
     * classes {@code seeds} guesses (null: none).
     */
    private static Classes partition(Merger.Merged m, BaseIndex baseIndex, int[] parts, DefinitionSeeds seeds) {
        int n = m.starts.length - 1;
        WorkGraph g = new WorkGraph(m.words, m.starts, m.firstId, baseIndex == null ? null : baseIndex.classOfId);
        ClassTable table = SharedPartition.partition(g, parts, null, baseIndex == null ? null : baseIndex.table,
                Math.max(64, n / 8), seeds);
        table.keepOnlyNodeClasses(); // (only classes are read from here on)
        return new Classes(table.nodeClass, table.first);
    }
}
