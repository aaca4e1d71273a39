package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.gcc.BpfObjectFixup;
import io.btfkit.gcc.GccNormalizer;
import io.btfkit.validate.OutputCheck;
import io.btfkit.dedup.BaseIndex;
import io.btfkit.dedup.DedupResult;
import io.btfkit.dedup.Deduplicator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code btfkit link}: merges inputs in command-line order (libbpf btf__add_btf) and
 * deduplicates the result — the BTF linker for build systems.
 *
 * <p>Each input is one compilation unit, except an object whose {@code .BTF} holds several
 * blobs ({@code ld -r}): each blob is a unit. gcc 12's encodings are read for what they mean
 * ({@link GccNormalizer}, one summary line, a line per input with {@code -v}); {@code --fix} also makes
 * them kernel-acceptable where that is unambiguous.
 */
@Command(name = "link", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Merge BTF inputs in order and deduplicate them into one BTF.",
            "Standalone inputs (e.g. gcc -gbtf objects) are treated as compilation units: a declaration is"
                + " resolved from its own unit's definitions, from the same definition elsewhere, or by a unique name.",
            "An object whose .BTF holds several blobs (ld -r) gives one unit per blob. gcc 12 encodings with one"
                + " meaning (FWD type word, enum declarations written as struct FWDs, arrays indexed by void) are"
                + " normalised, with one summary line (a line per input with -v; docs/GCC.md)."},
        footer = {"", "Examples:",
            "  btfkit link a.o b.o c.o -o prog.btf",
            "  btfkit link --fix kernel/*.o -o kernel.btf",
            "  btfkit link --base vmlinux.btf mod1.ko mod2.ko -o mods.btf",
            "  btfkit link --base vmlinux.btf --standalone modules/*.ko -o all.btf"})
final class LinkCommand implements Callable<Integer> {
    @Parameters(paramLabel = "INPUT", arity = "1..*", description = "raw BTF, ELF, compressed or text; in link order")
    List<Path> inputs;

    @Option(names = {"-B", "--base", "--base-btf", "--btf_base"}, paramLabel = "B", description = "base BTF: inputs may be split on it; the output is split on it")
    Path base;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", required = true, description = "the linked BTF (- for stdout)")
    Path output;

    @Option(names = "--standalone", description = "with --base: one self-contained BTF holding the base and every input (with --no-dedup: end to end, nothing merged)")
    boolean standalone;

    @Option(names = "--no-dedup", description = "only concatenate (btf__add_btf), do not deduplicate")
    boolean noDedup;

    @Option(names = "--fix", description = "also rewrite gcc 12 encodings the kernel rejects where the meaning is"
            + " unambiguous (SIGNED|CHAR, anonymous FUNCs, duplicate VARs; DATASEC layout and FUNC linkage from the"
            + " object's symbol table), and fill in the DATASECs of BPF objects from their ELF tables as libbpf's"
            + " object open does")
    boolean fix;

    @Option(names = "--as-written", description = "do not normalise gcc 12 encodings (the output may fail verification)")
    boolean asWritten;

    @Option(names = {"-q", "--quiet"}, description = "no line about gcc 12 encodings")
    boolean quiet;

    @Option(names = {"-v", "--verbose"}, description = "a line per input about its gcc 12 encodings, not just the summary")
    boolean verbose;

    @Option(names = "--map", paramLabel = "FILE",
            description = "write the id mapping: input file, input id, output id (tab-separated), one line per input type")
    Path mapFile;

    @Mixin
    PlainOutputOptions out;

    /** What the link says about gcc 12's encodings and BPF objects, once the output is known (null: not read so). */
    private GccNotes gccNotes;
    private BpfObjectNotes bpfNotes;

    @Override
    public Integer call() {
        if (standalone && base == null) {
            throw new UsageException("--standalone needs --base");
        }
        OutOfMemory.during("linking " + inputs.size() + " inputs");
        if (fix && asWritten) {
            throw new UsageException("--fix and --as-written exclude each other");
        }
        Outputs.check(inputs, Outputs.given(base), Outputs.given(output, mapFile), false);
        io.btfkit.core.PhaseTimer timer = new io.btfkit.core.PhaseTimer();
        if (!standalone && !noDedup) {
            planMeanwhile();
        }
        Btf baseBtf = Inputs.base(base);
        Units units = new Units();
        DedupResult r;
        // the output and the map land together or not at all
        try (Outputs.Transaction t = new Outputs.Transaction()) {
            StagedOutput staged;
            try {
                r = standalone || noDedup ? null : linkStreaming(baseBtf, units);
                lastStreamed = r != null;
                if (r != null) {
                    timer.lap("read inputs + link");
                } else {
                    r = linkRead(baseBtf, units, timer);
                }
                // encoded and written on another core while it is verified
                Btf result = r.btf();
                staged = new StagedOutput(t, output, () -> out.encode(result, output));
                try {
                    out.verify(result, units.sources(r));
                } finally {
                    staged.settle();
                }
                timer.lap("verify");
                if (gccNotes != null) {
                    gccNotes.printSummary(r.btf(), fix);
                    bpfNotes.printSummary();
                }
            } catch (BtfException e) {
                throw new FileException(output, e);
            }
            staged.done();
            if (mapFile != null) {
                t.add(mapFile, mapBody(units, r));
            }
            t.commit();
        }
        timer.lap("write");
        return ExitCodes.OK;
    }

    /** Reads every input, then links them. */
    private DedupResult linkRead(Btf baseBtf, Units units, io.btfkit.core.PhaseTimer timer) {
        List<Btf> btfs = readUnits(baseBtf, units);
        timer.lap("read inputs");
        DedupResult r;
        if (standalone) {
            r = noDedup ? Deduplicator.concatenateStandalone(baseBtf, btfs) : Deduplicator.linkStandalone(baseBtf, btfs);
            units.addFirst(base, baseBtf);
        } else {
            BaseIndex index = baseBtf == null ? null : baseIndex != null ? baseIndex.join() : BaseIndex.of(baseBtf);
            // the units are only referenced by btfs, which the link empties once it has merged them
            r = noDedup ? Deduplicator.concatenate(btfs, index) : Deduplicator.linkAndRelease(btfs, index, Deduplicator.Options.LINK);
        }
        timer.lap("link");
        return r;
    }

    /** The base's index, once a streamed link started making it (a fallback to reading all inputs reuses it). */
    private java.util.concurrent.ForkJoinTask<BaseIndex> baseIndex;

    /** Whether the last link in this process streamed its inputs (for tests). */
    static volatile boolean lastStreamed;

    /** Signals that an input cannot be streamed; the link reads all inputs first instead. */
    private static final class NotStreamable extends RuntimeException {
        NotStreamable() {
            super(null, null, false, false);
        }
    }

    /**
     * Links while reading: when every input is uncompressed raw BTF (each header gives the size
     * of its types), the merge sizes its graph from the headers and reads the inputs a round at
     * a time, each copied in and let go — a link of thousands of units never holds them all.
     * Returns null (nothing done) when some input is another format or holds several blobs, or
     * when a later input holds gcc 12's encodings and the first does not (normalising looks at all
     * units together: a link whose first input holds them is streamed by {@link #linkStreamingGcc}).
     */
    private DedupResult linkStreaming(Btf baseBtf, Units units) {
        int n = inputs.size();
        if (!asWritten && n > 0 && firstIsGccEncoded(baseBtf)) {
            return linkStreamingGcc(baseBtf, units);
        }
        io.btfkit.core.PhaseTimer timer = new io.btfkit.core.PhaseTimer();
        StreamedInputs.Plan[] plans = plans();
        timer.lap("plan");
        if (plans == null) {
            return null;
        }
        int[][] read = new int[n][];
        java.util.Queue<byte[]> buffers = new java.util.concurrent.ConcurrentLinkedQueue<>();
        // the merge copies each unit's words before the thread reads its next one
        ThreadLocal<io.btfkit.core.BtfReader.Scratch> scratch = ThreadLocal.withInitial(io.btfkit.core.BtfReader.Scratch::new);
        DedupResult r = linkPlanned(baseBtf, plans, true, k -> {
            Btf u = StreamedInputs.read(inputs.get(k), plans[k], baseBtf, buffers, scratch.get());
            if (u != null) {
                Inputs.refuseStandalone(inputs.get(k), u, baseBtf, true);
            } else {
                LoadedInput li = Inputs.load(inputs.get(k), baseBtf, true);
                if (li.units().size() != 1 || li.distilledBase() != null || li.ext() != null) {
                    throw new NotStreamable();
                }
                u = li.units().get(0);
            }
            if (u.typeSectionBytes() != plans[k].typeSectionBytes() || (!asWritten && GccNormalizer.isGccEncoded(u))) {
                throw new NotStreamable();
            }
            read[k] = new int[] {u.firstId(), u.typeCount()};
            return u;
        });
        if (r == null) {
            return null;
        }
        for (int k = 0; k < n; k++) {
            units.addStreamed(inputs.get(k), read[k], null, baseBtf);
        }
        return r;
    }

    /**
     * {@link #linkStreaming} of gcc objects: a first pass reads each input's {@code .BTF} through
     * a reused buffer for what normalising gcc 12's encodings needs from all the units, keeping
     * none; the merge then reads each input again, normalises it and copies it in. Neither the
     * units as written nor the normalised ones are ever all held (362 kernel objects: 45 MB of
     * BTF, held twice over while normalising when read first: peak RSS 135 -> 107 MB). The
     * normalised sizes are not known before the merge reads each unit: the merge
     * sizes its words from the sizes as written. Null (nothing done) when an input is not one
     * uncompressed blob, or is a BPF object (whose fixup reads its ELF tables).
     */
    private DedupResult linkStreamingGcc(Btf baseBtf, Units units) {
        io.btfkit.core.PhaseTimer timer = new io.btfkit.core.PhaseTimer();
        int n = inputs.size();
        StreamedInputs.Plan[] plans = plans();
        if (plans == null) {
            return null;
        }
        java.util.Queue<byte[]> buffers = new java.util.concurrent.ConcurrentLinkedQueue<>();
        ThreadLocal<io.btfkit.core.BtfReader.Scratch> scratch = ThreadLocal.withInitial(io.btfkit.core.BtfReader.Scratch::new);
        GccNormalizer.Survey survey = new GccNormalizer.Survey();
        java.util.concurrent.atomic.AtomicBoolean unstreamable = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.stream.IntStream.range(0, n).parallel().forEach(i -> {
            Btf u = unstreamable.get() ? null : StreamedInputs.read(inputs.get(i), plans[i], baseBtf, buffers, scratch.get());
            if (u == null) {
                unstreamable.set(true);
                return;
            }
            Inputs.refuseStandalone(inputs.get(i), u, baseBtf, true);
            survey.add(u);
        });
        if (unstreamable.get()) {
            return null;
        }
        GccNormalizer.Plan plan = survey.plan();
        timer.lap("read: survey");
        GccNormalizer.Level level = fix ? GccNormalizer.Level.FIX : GccNormalizer.Level.LINK;
        int[][] read = new int[n][];
        int[][] idMaps = new int[n][];
        io.btfkit.gcc.QuirkCounts[][] counts = new io.btfkit.gcc.QuirkCounts[n][];
        DedupResult r = linkPlanned(baseBtf, plans, false, k -> {
            LoadedInput li = StreamedInputs.readObject(inputs.get(k), plans[k], baseBtf, buffers, scratch.get());
            li = li != null ? li : Inputs.load(inputs.get(k), baseBtf, true);
            checkedBase(li, baseBtf);
            if (li.units().size() != 1 || li.distilledBase() != null || li.ext() != null
                    || BpfObjectFixup.isBpfObject(li)) {
                throw new NotStreamable();
            }
            GccNormalizer.FileResult f = GccNormalizer.normalize(li, plan, level);
            Btf u = li.units().get(0);
            read[k] = new int[] {u.firstId(), u.typeCount()};
            GccNormalizer.UnitResult normalized = f.units().get(0);
            idMaps[k] = normalized.idMap();
            counts[k] = new io.btfkit.gcc.QuirkCounts[] {f.applied(), f.kept()};
            // (the merge holds a round of units, and this thread reads its next one into the same scratch)
            return ownArrays(normalized.btf(), u);
        });
        if (r == null) {
            return null;
        }
        gccNotes = new GccNotes("link", verbose, quiet);
        bpfNotes = new BpfObjectNotes("link", fix, quiet);
        for (int k = 0; k < n; k++) {
            gccNotes.add(inputs.get(k), counts[k][0], counts[k][1]);
            units.addStreamed(inputs.get(k), read[k], idMaps[k], baseBtf);
        }
        return r;
    }

    /**
     * {@code btf}, its words copied when they are those of {@code read}, a unit read into a
     * reused scratch (whose starts are the reader's own copy).
     */
    private static Btf ownArrays(Btf btf, Btf read) {
        if (btf.words() != read.words()) {
            return btf;
        }
        return new Btf(btf.base(), Arrays.copyOf(btf.words(), btf.typeSectionBytes() / 4), btf.starts(), btf.strings(),
                btf.format());
    }

    /** The plans {@link #planMeanwhile} started, or null. */
    private java.util.function.Supplier<StreamedInputs.Plan[]> earlyPlans;

    /**
     * Starts planning the inputs on a thread of its own while this one reads the base, which the
     * plans do not need: the base is one thread's work (a vmlinux: 40-85 ms), the plan of 4,023
     * modules 80-180 ms over both cores.
     */
    private void planMeanwhile() {
        earlyPlans = io.btfkit.core.Background.start("btfkit-plan", this::planAll);
    }

    /** Each input's {@link StreamedInputs.Plan} (in parallel), or null when one cannot be streamed. */
    private StreamedInputs.Plan[] plans() {
        return earlyPlans != null ? earlyPlans.get() : planAll();
    }

    private StreamedInputs.Plan[] planAll() {
        StreamedInputs.Plan[] plans = new StreamedInputs.Plan[inputs.size()];
        java.util.stream.IntStream.range(0, plans.length).parallel().forEach(i -> plans[i] = StreamedInputs.plan(inputs.get(i)));
        return Arrays.stream(plans).anyMatch(java.util.Objects::isNull) ? null : plans;
    }

    /**
     * The link of the planned inputs, unit {@code k} read by {@code read} (which throws
     * {@link NotStreamable} for an input it cannot read so); null when one could not be.
     * {@code sizesExact}: whether the units are the plans' sizes ({@link Deduplicator.UnitSource#sizesExact}).
     */
    private DedupResult linkPlanned(Btf baseBtf, StreamedInputs.Plan[] plans, boolean sizesExact,
                                    java.util.function.IntFunction<Btf> read) {
        Deduplicator.UnitSource source = new Deduplicator.UnitSource() {
            @Override
            public int size() {
                return plans.length;
            }

            @Override
            public int typeSectionBytes(int k) {
                return plans[k].typeSectionBytes();
            }

            @Override
            public boolean sizesExact() {
                return sizesExact;
            }

            @Override
            public Btf read(int k) {
                return read.apply(k);
            }
        };
        try {
            // the base is classified beside the merge, which leaves part of a core idle
            baseIndex = baseBtf == null ? null : java.util.concurrent.ForkJoinTask.adapt(() -> BaseIndex.of(baseBtf)).fork();
            return Deduplicator.link(source, baseBtf, () -> baseIndex == null ? null : baseIndex.join(),
                    Deduplicator.Options.LINK);
        } catch (NotStreamable e) {
            return null;
        }
    }

    /**
     * Whether the first input holds gcc 12's encodings: a link's inputs are mostly of one kind,
     * and a link of gcc objects had found it out only from the first round of the streamed merge
     * — after planning every input and sizing the merge for all of them — before reading them
     * all the ordinary way (a later gcc input still falls back from the merge).
     */
    private boolean firstIsGccEncoded(Btf baseBtf) {
        Path first = inputs.get(0);
        return !Inputs.isStdin(first)
                && Inputs.load(first, baseBtf, true).units().stream().anyMatch(GccNormalizer::isGccEncoded);
    }

    /**
     * Reads the inputs (in parallel: thousands of objects in a kernel build), normalises gcc's
     * units unless asked not to, and returns the units to link in order. The files' bytes are
     * referenced only here, so they are garbage by the time the link runs.
     */
    private List<Btf> readUnits(Btf baseBtf, Units units) {
        io.btfkit.core.PhaseTimer timer = new io.btfkit.core.PhaseTimer();
        int n = inputs.size();
        LoadedInput[] read = new LoadedInput[n];
        List<Btf> btfs = new ArrayList<>();
        if (asWritten) {
            java.util.stream.IntStream.range(0, n).parallel()
                    .forEach(i -> read[i] = lean(checkedBase(Inputs.load(inputs.get(i), baseBtf, true), baseBtf)));
            for (LoadedInput li : read) {
                units.add(li, null, btfs);
            }
            return btfs;
        }
        // 1. what normalising gcc 12's units needs from all the link's units; the units are kept
        // with their symbol tables only, and a BPF object, whose sections the fixup reads, is let
        // go and read again in 2, so the objects are never all held with their file bytes
        GccNormalizer.Survey survey = new GccNormalizer.Survey();
        java.util.stream.IntStream.range(0, n).parallel().forEach(i -> {
            LoadedInput li = checkedBase(Inputs.load(inputs.get(i), baseBtf, true), baseBtf);
            survey.add(li);
            LoadedInput kept = lean(li);
            // (standard input cannot be read twice)
            read[i] = !BpfObjectFixup.isBpfObject(kept) || Inputs.isStdin(inputs.get(i)) ? kept : null;
        });
        GccNormalizer.Plan plan = survey.plan();
        timer.lap("read: survey");
        GccNormalizer.Level level = fix ? GccNormalizer.Level.FIX : GccNormalizer.Level.LINK;
        // 2. each input normalised, keeping its units (and the ELF of a BPF object only)
        GccNormalizer.FileResult[] norm = new GccNormalizer.FileResult[n];
        java.util.stream.IntStream.range(0, n).parallel().forEach(i -> {
            LoadedInput li = read[i] != null ? read[i] : Inputs.load(inputs.get(i), baseBtf, true);
            read[i] = null;
            GccNormalizer.FileResult f = GccNormalizer.normalize(li, plan, level);
            norm[i] = BpfObjectFixup.isBpfObject(li) ? f
                    : new GccNormalizer.FileResult(withoutElf(li), f.units(), f.applied(), f.kept());
        });
        timer.lap("read: normalise");
        gccNotes = new GccNotes("link", verbose, quiet);
        bpfNotes = new BpfObjectNotes("link", fix, quiet);
        for (int i = 0; i < n; i++) {
            GccNormalizer.FileResult f = norm[i];
            norm[i] = null;
            gccNotes.add(f.input().path(), f.applied(), f.kept());
            units.add(f.input(), bpfNotes.fill(f), btfs);
        }
        timer.lap("read: notes");
        return btfs;
    }

    /** {@code li}, refused when its BTF is split on its own .BTF.base rather than on the link's base. */
    private static LoadedInput checkedBase(LoadedInput li, Btf baseBtf) {
        for (Btf u : li.units()) {
            if (u.isSplit() && u.base() != baseBtf) {
                throw new FileException(li.path(), new io.btfkit.core.BtfFormatException(
                        "its BTF is split on its own .BTF.base; relocate it onto the base first"));
            }
        }
        return li;
    }

    private static LoadedInput withoutElf(LoadedInput li) {
        return new LoadedInput(li.path(), li.source(), li.compression(), li.units(), null, null, li.distilledBase());
    }

    /**
     * The input without its file bytes when nothing later needs them — the link reads only the
     * units, an object's symbol tables for gcc's units, and a BPF object's sections — so
     * thousands of files' bytes are not all held at once beside their parsed types (350 gcc
     * objects: 60 MB of files, 2 MB of symbol tables).
     */
    private static LoadedInput lean(LoadedInput li) {
        if (li.elf() == null) {
            return li;
        }
        if (BpfObjectFixup.isBpfObject(li)) {
            return li;
        }
        if (li.units().stream().anyMatch(GccNormalizer::isGccEncoded)) {
            return new LoadedInput(li.path(), li.source(), li.compression(), li.units(),
                    li.elf().keepingSymbolTables(), li.ext(), li.distilledBase());
        }
        return withoutElf(li);
    }

    /** Per linked unit, in link order: its name in the map, its type ids as read, and its normalisation's renumbering. */
    private static final class Units {
        final List<String> names = new ArrayList<>();
        /** First id and type count of each unit as read (not the unit: the link may let it go). */
        final List<int[]> read = new ArrayList<>();
        final List<int[]> idMaps = new ArrayList<>();
        /** Reads the unit again as it was read (the link lets the units go; only a failed check needs them). */
        final List<java.util.function.Supplier<Btf>> loaders = new ArrayList<>();

        /** The units of one input; one of a several-blob input is named {@code FILE#K} (1-based). */
        void add(LoadedInput li, List<GccNormalizer.UnitResult> results, List<Btf> linked) {
            List<Btf> us = li.units();
            for (int k = 0; k < us.size(); k++) {
                names.add(us.size() == 1 ? li.path().toString() : li.path() + "#" + (k + 1));
                read.add(new int[] {us.get(k).firstId(), us.get(k).typeCount()});
                idMaps.add(results == null ? null : results.get(k).idMap());
                linked.add(results == null ? us.get(k) : results.get(k).btf());
                Path p = li.path();
                Btf b = us.get(k).base();
                int blob = k;
                loaders.add(() -> Inputs.load(p, b, true).units().get(blob));
            }
        }

        /** The one unit of {@code file}, linked as streamed: its first id and count as read, its renumbering or null. */
        void addStreamed(Path file, int[] readAs, int[] idMap, Btf base) {
            names.add(file.toString());
            read.add(readAs);
            idMaps.add(idMap);
            loaders.add(() -> Inputs.load(file, base, true).units().get(0));
        }

        void addFirst(Path file, Btf btf) {
            names.add(0, file.toString());
            read.add(0, new int[] {btf.firstId(), btf.typeCount()});
            idMaps.add(0, null);
            loaders.add(0, () -> btf);
        }

        /**
         * Each unit as an input of the output check: its types as read, mapped through the
         * normalisation's renumbering and the link's id map (as the --map file says).
         */
        List<OutputCheck.Source> sources(DedupResult r) {
            List<OutputCheck.Source> out = new ArrayList<>(names.size());
            for (int k = 0; k < names.size(); k++) {
                int unit = k;
                int firstId = read.get(k)[0];
                int[] m = idMaps.get(k);
                out.add(new OutputCheck.Source(names.get(k), loaders.get(k), id -> {
                    int now = m == null ? id : m[id];
                    return now < firstId ? now : r.outputId(unit, now, firstId);
                }));
            }
            return out;
        }
    }

    /**
     * One line per type as read (input, input id, output id), through the normalisation's
     * renumbering: a type --fix removed maps to where its references went (0: void).
     */
    private static Outputs.Body mapBody(Units units, DedupResult r) {
        return os -> {
            StringBuilder sb = new StringBuilder(1 << 16);
            for (int k = 0; k < units.read.size(); k++) {
                int[] in = units.read.get(k);
                int[] m = units.idMaps.get(k);
                int firstId = in[0];
                for (int id = firstId; id < in[1]; id++) {
                    int now = m == null ? id : m[id];
                    int outId = now < firstId ? now : r.outputId(k, now, firstId);
                    sb.append(units.names.get(k)).append('\t').append(id).append('\t').append(outId).append('\n');
                    if (sb.length() > (1 << 15)) {
                        os.write(sb.toString().getBytes(StandardCharsets.UTF_8));
                        sb.setLength(0);
                    }
                }
            }
            os.write(sb.toString().getBytes(StandardCharsets.UTF_8));
        };
    }
}
