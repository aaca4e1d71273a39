package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.io.Decompressor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code btfkit minimize}: the types and members a set of BPF objects' CO-RE relocations use
 * from one kernel BTF, as bpftool's {@code gen min_core_btf} writes them (byte for byte); for a
 * module's split BTF, a minimal base and split pair, or one standalone BTF; with
 * {@code --out-dir}, from many kernel BTFs in one run, the objects parsed once.
 */
@Command(name = "minimize", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Write the smallest BTF the CO-RE relocations of the BPF objects need from TARGET,"
            + " as bpftool gen min_core_btf (BTFGen) does: the types and members they use, what those types reference,"
            + " in TARGET's order. Exit 1 when a relocation is an error (candidates disagree).",
            "A module's split BTF (TARGET with --base) gives a minimal base (--base-out) and a minimal split on it (-o),"
            + " or with --standalone one BTF of both.",
            "With --out-dir, many targets in one run (in parallel, the objects read once): targets and objects in any"
            + " order, an object told by its content (an ELF file for machine BPF); D/STEM.btf for each target"
            + " (split targets without --standalone: D/STEM.split.btf and D/STEM.base.btf)."},
        footer = {"", "Examples:",
            "  btfkit minimize vmlinux.btf -o min.btf prog.bpf.o",
            "  btfkit minimize /sys/kernel/btf/vmlinux -o min.btf a.bpf.o b.bpf.o",
            "  btfkit minimize mod.ko -B vmlinux.btf -o m.btf --base-out m.base.btf p.bpf.o",
            "  btfkit minimize mod.ko -B vmlinux.btf --standalone -o m.btf p.bpf.o",
            "  btfkit minimize --out-dir min/ kernels/*.btf.xz a.bpf.o b.bpf.o"})
final class MinimizeCommand implements Callable<Integer> {
    /** ELF {@code e_machine} of BPF objects. */
    private static final int EM_BPF = io.btfkit.core.elf.ElfConstants.EM_BPF;

    @Parameters(index = "0", paramLabel = "TARGET", description = "the kernel's BTF: raw, ELF, compressed, or a link --standalone blob;"
            + " or a module's split BTF (with --base); with --out-dir: any input")
    Path targetFile;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "PROG",
            description = "BPF objects with .BTF and .BTF.ext (with --out-dir: more targets and objects, in any order)")
    List<Path> programs;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "output file (raw BTF; one target); the minimal split with --base-out")
    Path output;

    @Option(names = "--out-dir", paramLabel = "D", description = "batch mode: write D/STEM.btf for each target")
    Path outDir;

    @Option(names = {"-B", "--base", "--base-btf", "--btf_base"}, paramLabel = "B", description = "base BTF of split TARGETs (vmlinux for modules)")
    Path base;

    @Option(names = "--base-out", paramLabel = "OUT_BASE", description = "split TARGET: write the minimal base here, OUT is split on it")
    Path baseOut;

    @Option(names = "--standalone", description = "split TARGET: one standalone BTF of the base's and the module's types")
    boolean standalone;

    @Mixin
    BatchOptions batch;

    @Override
    public Integer call() {
        if (baseOut != null && standalone) {
            throw new UsageException("give --base-out (a minimal base and split) or --standalone (one BTF), not both");
        }
        if (baseOut != null && base == null) {
            throw new UsageException("--base-out needs a split TARGET: give its base with --base");
        }
        if (baseOut != null && outDir != null) {
            throw new UsageException("--base-out is for one target; with --out-dir a split target gives D/STEM.split.btf and D/STEM.base.btf");
        }
        BatchOptions.checkOneOrMany(output, outDir, 1);
        List<Path> all = new ArrayList<>(programs);
        all.add(0, targetFile);
        if (output != null) {
            Outputs.check(all, Outputs.given(base), Outputs.given(output, baseOut), false);
            TargetMinimizer minimizer = TargetMinimizer.forPrograms(programs, false);
            Btf baseBtf = Inputs.base(base);
            minimizer.minimize(targetFile, baseBtf, output, baseOut, standalone);
            return ExitCodes.OK;
        }
        List<Path> targets = new ArrayList<>();
        List<Path> objects = new ArrayList<>();
        for (Path p : all) {
            (isBpfObject(p) ? objects : targets).add(p);
        }
        if (objects.isEmpty()) {
            throw new UsageException("no BPF object among the inputs (an ELF file for machine BPF, e.g. clang -target bpf output)");
        }
        if (targets.isEmpty()) {
            throw new UsageException("no target among the inputs: every one is a BPF object");
        }
        Outputs.checkBatch(all, Outputs.given(base), in -> objects.contains(in) ? List.of() : outputs(in), false);
        TargetMinimizer minimizer = TargetMinimizer.forPrograms(objects, true);
        Btf baseBtf = Inputs.base(base);
        Outputs.ensureDirectory(outDir);
        if (targets.size() >= TargetMinimizer.ROOMY_BATCH) {
            TargetMinimizer.roomForGarbage();
        }
        return Batch.run("minimize", targets, in -> {
            List<Path> o = outputs(in);
            minimizer.minimize(in, baseBtf, o.get(0), o.size() > 1 ? o.get(1) : null, standalone);
        }, batch.quiet, batch.json);
    }

    /**
     * Batch mode: D/STEM.btf; with --base and without --standalone, D/STEM.split.btf and
     * D/STEM.base.btf (the pair, named as distill names its pair; a target that turns out not to
     * be split fails on its own).
     */
    private List<Path> outputs(Path in) {
        String stem = Stems.stem(in);
        if (base == null || standalone) {
            return List.of(outDir.resolve(stem + ".btf"));
        }
        return List.of(outDir.resolve(stem + ".split.btf"), outDir.resolve(stem + ".base.btf"));
    }

    /**
     * Whether {@code file} is a BPF object: an ELF file whose {@code e_machine} is EM_BPF (read
     * from its first 20 bytes), once unwrapped when it is compressed (xz, zstd, gzip: only those
     * bytes are decompressed), as the object loader reads it — a compressed object taken for a
     * target made a wrong minimal BTF with exit 0. Anything else, standard input and a file that
     * cannot be read included, is a target (its load reports what is wrong).
     */
    static boolean isBpfObject(Path file) {
        if (Inputs.isStdin(file)) {
            return false;
        }
        byte[] h;
        try (InputStream in = new java.io.BufferedInputStream(Files.newInputStream(file))) {
            in.mark(8);
            byte[] magic = in.readNBytes(8);
            in.reset();
            Decompressor.Format f = Decompressor.detect(magic);
            h = f == null ? in.readNBytes(20) : Decompressor.head(in, f, 20);
        } catch (IOException | RuntimeException e) {
            return false;
        }
        if (h == null || h.length != 20 || h[0] != 0x7f || h[1] != 'E' || h[2] != 'L' || h[3] != 'F') {
            return false;
        }
        int machine = h[5] == 2 ? (h[18] & 0xff) << 8 | (h[19] & 0xff) : (h[19] & 0xff) << 8 | (h[18] & 0xff);
        return machine == EM_BPF;
    }
}
