package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.NameProbe;
import io.btfkit.core.OperationException;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.minimize.CoreProgram;
import io.btfkit.minimize.CoreRelocator;
import io.btfkit.minimize.MinimalBtf;
import io.btfkit.minimize.Minimizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The work of {@code minimize} for one target: load it, resolve the BPF objects' relocations
 * against it, build the minimal BTF, write it. The objects are read and their relocations
 * parsed once, when this is made; {@link #minimize} may then run for many targets at once
 * (batch mode), sharing them read-only.
 */
final class TargetMinimizer {
    private final List<Path> programFiles;
    private final List<CoreProgram> programs;
    /** Batch mode: a relocation error is the target's failure and names the target first. */
    private final boolean batch;
    /** Read buffers for raw targets, reused from target to target (a vmlinux BTF is 5 MB). */
    private final Queue<byte[]> buffers = new ConcurrentLinkedQueue<>();
    /**
     * The reader's arrays for raw standalone targets, reused likewise (a vmlinux's 3 MB of type
     * words): each target is written and dropped before its scratch goes back to the queue.
     */
    private final Queue<BtfReader.Scratch> scratches = new ConcurrentLinkedQueue<>();

    /**
     * The candidate index's quick test (kind, first name bytes), applied by the reader of a raw
     * standalone target in its pass over the words: the index then looks at the few types it
     * listed instead of walking all 126,000 of a vmlinux again (0.4 ms a kernel).
     */
    private final NameProbe probe;

    private TargetMinimizer(List<Path> programFiles, List<CoreProgram> programs, boolean batch) {
        this.programFiles = programFiles;
        this.programs = programs;
        this.batch = batch;
        this.probe = CoreRelocator.candidateProbe(programs);
    }

    /**
     * Reads each BPF object and parses its relocation records.
     *
     * @throws FileException naming the object when it is malformed or has no {@code .BTF.ext}
     */
    static TargetMinimizer forPrograms(List<Path> programFiles, boolean batch) {
        List<CoreProgram> parsed = new ArrayList<>(programFiles.size());
        for (Path file : programFiles) {
            LoadedInput prog = Inputs.load(file, null);
            if (prog.ext() == null) {
                throw new FileException(file, new BtfFormatException("no .BTF.ext section: not a BPF object built with -g"));
            }
            try {
                parsed.add(CoreProgram.parse(file.toString(), Inputs.btf(prog), prog.ext(), prog.elf()));
            } catch (BtfFormatException e) {
                throw new FileException(file, e);
            }
        }
        return new TargetMinimizer(List.copyOf(programFiles), List.copyOf(parsed), batch);
    }

    /**
     * The number of targets from which {@link #roomForGarbage} pays: setting the flags loads
     * the JVM's management classes (about 25 ms); the collections saved are about 0.6 ms a
     * kernel (416 kernels: 90 full collections, 0.40 s, down to 32, 0.17 s).
     */
    static final int ROOMY_BATCH = 40;

    /**
     * Batch mode: lets the heap keep three times its live data free. Each target leaves some
     * 6 MB of arrays behind (its types and strings, read whole); with the launcher's heap
     * ratios (10-30% free, tuned for one large input) the serial collector then runs a full
     * collection every five targets or so, a fifth of a large batch's wall time. The ratios are
     * manageable flags; a JVM that refuses them keeps its sizing. (Peak memory of 416 kernels:
     * 99 → 165 MB.)
     */
    static void roomForGarbage() {
        try {
            var vm = java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            vm.setVMOption("MaxHeapFreeRatio", "90"); // first: the minimum may not exceed it
            vm.setVMOption("MinHeapFreeRatio", "75");
        } catch (RuntimeException | LinkageError e) {
            // not HotSpot, or the flags are not manageable here: the default sizing
        }
    }

    /** The parsed objects, in command-line order. */
    List<CoreProgram> programs() {
        return programs;
    }

    /** Minimizes the standalone {@code targetFile} for the objects and writes the result to {@code out}. */
    void minimize(Path targetFile, Path out) {
        minimize(targetFile, null, out, null, true);
    }

    /**
     * Minimizes {@code targetFile} for the objects and writes OUT; for a split target given
     * {@code outBase}, the minimal base there and the minimal split on it in OUT (both land
     * together), or with {@code standalone} one BTF of both.
     *
     * @param base the base of a split target (vmlinux for a module), or null
     * @throws UsageException a split target with neither, or {@code outBase} for a target that is
     *     not split (batch mode: a {@link FileException} for that target)
     */
    void minimize(Path targetFile, Btf base, Path out, Path outBase, boolean standalone) {
        if (base != null) {
            minimize(targetFile, base, out, outBase, standalone, null);
            return;
        }
        BtfReader.Scratch scratch = scratches.poll();
        if (scratch == null) {
            scratch = new BtfReader.Scratch();
            scratch.probe(probe);
        }
        try {
            minimize(targetFile, null, out, outBase, standalone, scratch);
        } finally {
            scratches.offer(scratch);
        }
    }

    private void minimize(Path targetFile, Btf base, Path out, Path outBase, boolean standalone, BtfReader.Scratch scratch) {
        Btf target = base == null ? Inputs.readRawReusing(targetFile, null, buffers, scratch) : null;
        // read through the scratch, so probed (unless the reader fell back to its general passes)
        CoreRelocator probed = target != null && scratch.probedCount() >= 0
                ? new CoreRelocator(target, programs, scratch.probedIds(), scratch.probedCount()) : null;
        if (target == null) {
            // another form, or an error, which this reports; a module on its base
            target = Inputs.asLoaded(targetFile, base);
        }
        if (target.isSplit() && outBase == null && !standalone) {
            throw new UsageException(targetFile + " is split BTF: give --base-out OUT_BASE (a minimal base and a minimal split on it)"
                    + " or --standalone (one BTF)");
        }
        if (!target.isSplit() && outBase != null) {
            if (batch) {
                throw new FileException(targetFile, new BtfFormatException(
                        "not split BTF: a minimal base and split need a module's BTF (give standalone targets without --base,"
                        + " or with --standalone)"));
            }
            throw new UsageException(targetFile + " is not split BTF: --base-out needs a module's split BTF as TARGET");
        }
        Minimizer minimizer = marked(targetFile, target, probed != null ? probed : new CoreRelocator(target, programs));
        byte[] outBytes;
        byte[] baseBytes = null;
        try {
            if (outBase != null) {
                MinimalBtf.Split pair = minimizer.buildSplit();
                baseBytes = BtfWriter.write(pair.base());
                outBytes = BtfWriter.write(pair.split());
            } else {
                outBytes = BtfWriter.write(minimizer.build());
            }
        } catch (BtfException e) {
            throw new FileException(targetFile, new OperationException(e.getMessage()));
        }
        if (!minimizer.widened().isEmpty()) {
            noteWidened(targetFile, minimizer);
        }
        try (Outputs.Transaction t = new Outputs.Transaction()) {
            if (baseBytes != null) {
                t.add(outBase, baseBytes);
            }
            t.add(out, outBytes);
            t.commit();
        }
    }

    /**
     * Says on stderr that the output is not bpftool's: bpftool's would have made libbpf resolve
     * some relocation otherwise than the full target does ({@link Minimizer#widened}).
     */
    private static void noteWidened(Path targetFile, Minimizer minimizer) {
        Minimizer.Widened first = minimizer.widened().get(0);
        int more = minimizer.widened().size() - 1;
        java.io.PrintWriter err = Streams.err();
        synchronized (err) {
            err.println("btfkit: " + Names.quote(targetFile) + ": note: libbpf would resolve " + Names.quote(Path.of(first.object())) + " "
                    + first.relocation().relo().section() + " relo #" + first.relocation().relo().index()
                    + (more > 0 ? " (and " + more + " more)" : "") + " otherwise on bpftool gen min_core_btf's output than here:"
                    + " kept every matching candidate's members, the output differs from bpftool's (docs/MINIMIZE.md)");
            err.flush();
        }
    }

    /**
     * A minimizer of {@code target} that has marked what the objects' relocations use (split
     * targets: candidates in the base first, then the module, as libbpf searches).
     *
     * @throws FileException exit 1, when a relocation is an error (as bpftool fails on it): it
     *     names the object (in batch mode the target, then the object)
     */
    Minimizer marked(Path targetFile, Btf target) {
        return marked(targetFile, target, new CoreRelocator(target, programs));
    }

    private Minimizer marked(Path targetFile, Btf target, CoreRelocator relocator) {
        Minimizer minimizer = new Minimizer(target);
        for (int i = 0; i < programs.size(); i++) {
            try {
                minimizer.recordAll(relocator, programs.get(i));
            } catch (BtfException e) {
                Path program = programFiles.get(i);
                throw batch ? new FileException(targetFile, new OperationException(Names.quote(program) + ": " + e.getMessage()))
                        : new FileException(program, new OperationException(e.getMessage()));
            }
        }
        return minimizer;
    }
}
