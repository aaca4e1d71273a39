package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.core.relo.CoreRelocator;
import io.btfkit.core.relo.LocalRelo;
import io.btfkit.core.relo.MinimalBtf;
import io.btfkit.core.relo.Minimizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code btfkit minimize}: the types and members a set of BPF objects' CO-RE relocations use
 * from one kernel BTF, as bpftool's {@code gen min_core_btf} writes them (byte for byte); for a
 * module's split BTF, a minimal base and split pair, or one standalone BTF.
 */
@Command(name = "minimize", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Write the smallest BTF the CO-RE relocations of the BPF objects need from TARGET,"
            + " as bpftool gen min_core_btf (BTFGen) does: the types and members they use, what those types reference,"
            + " in TARGET's order. Exit 1 when a relocation is an error (candidates disagree).",
            "A module's split BTF (TARGET with --base) gives a minimal base (--base-out) and a minimal split on it (-o),"
            + " or with --standalone one BTF of both."},
        footer = {"", "Examples:",
            "  btfkit minimize vmlinux.btf -o min.btf prog.bpf.o",
            "  btfkit minimize /sys/kernel/btf/vmlinux -o min.btf a.bpf.o b.bpf.o",
            "  btfkit minimize mod.ko -B vmlinux.btf -o m.btf --base-out m.base.btf p.bpf.o",
            "  btfkit minimize mod.ko -B vmlinux.btf --standalone -o m.btf p.bpf.o"})
final class MinimizeCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TARGET", description = "the kernel's BTF: raw, ELF, compressed, or a link --standalone blob;"
            + " or a module's split BTF (with --base)")
    Path targetFile;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "PROG", description = "BPF objects with .BTF and .BTF.ext")
    List<Path> programs;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT", description = "output file (raw BTF); the minimal split with --base-out")
    Path output;

    @Option(names = {"-B", "--base", "--base-btf"}, paramLabel = "B", description = "base BTF of a split TARGET (vmlinux for a module)")
    Path base;

    @Option(names = "--base-out", paramLabel = "OUT_BASE", description = "split TARGET: write the minimal base here, OUT is split on it")
    Path baseOut;

    @Option(names = "--standalone", description = "split TARGET: one standalone BTF of the base's and the module's types")
    boolean standalone;

    /** A BPF object's BTF and its CO-RE relocations, parsed once for any number of targets. */
    record Program(Path file, Btf local, List<LocalRelo> relos) {
    }

    @Override
    public Integer call() {
        if (baseOut != null && standalone) {
            throw new UsageException("give --base-out (a minimal base and split) or --standalone (one BTF), not both");
        }
        if (baseOut != null && base == null) {
            throw new UsageException("--base-out needs a split TARGET: give its base with --base");
        }
        List<Path> inputs = new ArrayList<>(programs);
        inputs.add(0, targetFile);
        Outputs.check(inputs, Outputs.given(base), Outputs.given(output, baseOut), false);
        List<Program> parsed = new ArrayList<>();
        for (Path program : programs) {
            parsed.add(parse(program));
        }
        minimizeOne(targetFile, Inputs.base(base), parsed, output, baseOut, inputs);
        return ExitCodes.OK;
    }

    static Program parse(Path program) {
        LoadedInput prog = Inputs.load(program, null);
        if (prog.ext() == null) {
            throw new FileException(program, new BtfFormatException("no .BTF.ext section: not a BPF object built with -g"));
        }
        Btf local = Inputs.btf(prog);
        try {
            return new Program(program, local, LocalRelo.parseAll(local, prog.ext()));
        } catch (BtfFormatException e) {
            throw new FileException(program, e);
        }
    }

    /**
     * One target: resolve every program's relocations against it (split: base first, then the
     * module, as libbpf searches), mark, and write OUT (and OUT_BASE for a split pair) together.
     */
    private void minimizeOne(Path file, Btf baseBtf, List<Program> progs, Path out, Path outBase, List<Path> inputs) {
        Btf target = Inputs.asLoaded(file, baseBtf);
        if (target.isSplit() && outBase == null && !standalone) {
            throw new UsageException(file + " is split BTF: give --base-out OUT_BASE (a minimal base and a minimal split on it)"
                    + " or --standalone (one BTF)");
        }
        if (!target.isSplit() && outBase != null) {
            throw new UsageException(file + " is not split BTF: --base-out needs a module's split BTF as TARGET");
        }
        CoreRelocator relocator = new CoreRelocator(target);
        Minimizer minimizer = new Minimizer(target);
        for (Program p : progs) {
            try {
                for (LocalRelo r : p.relos()) {
                    minimizer.record(relocator.resolve(p.local(), r));
                }
            } catch (BtfException e) {
                Streams.err().println("btfkit: " + p.file() + ": " + e.getMessage());
                Streams.err().flush();
                throw new CommandFailedException(ExitCodes.FAILED);
            }
        }
        if (outBase == null) {
            Outputs.write(out, BtfWriter.write(minimizer.build()), inputs, false);
            return;
        }
        MinimalBtf.Split pair = minimizer.buildSplit();
        // the split and its base land together or not at all
        try (Outputs.Transaction t = new Outputs.Transaction()) {
            t.add(outBase, BtfWriter.write(pair.base()));
            t.add(out, BtfWriter.write(pair.split()));
            t.commit();
        }
    }
}
