package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.core.relo.CoreRelocator;
import io.btfkit.core.relo.LocalRelo;
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
 * from one kernel BTF, as bpftool's {@code gen min_core_btf} writes them (byte for byte).
 */
@Command(name = "minimize", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Write the smallest BTF the CO-RE relocations of the BPF objects need from TARGET,"
            + " as bpftool gen min_core_btf (BTFGen) does: the types and members they use, what those types reference,"
            + " in TARGET's order. Exit 1 when a relocation is an error (candidates disagree)."},
        footer = {"", "Examples:",
            "  btfkit minimize vmlinux.btf -o min.btf prog.bpf.o",
            "  btfkit minimize /sys/kernel/btf/vmlinux -o min.btf a.bpf.o b.bpf.o"})
final class MinimizeCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TARGET", description = "the kernel's BTF: raw, ELF, compressed, or a link --standalone blob")
    Path targetFile;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "PROG", description = "BPF objects with .BTF and .BTF.ext")
    List<Path> programs;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT", description = "output file (raw BTF)")
    Path output;

    @Override
    public Integer call() {
        List<Path> inputs = new ArrayList<>(programs);
        inputs.add(0, targetFile);
        Outputs.check(inputs, List.of(), List.of(output), false);
        Btf target = Inputs.btf(Inputs.load(targetFile, null));
        if (target.isSplit()) {
            throw new FileException(targetFile, new BtfFormatException("split BTF: minimize takes standalone BTF"));
        }
        CoreRelocator relocator = new CoreRelocator(target);
        Minimizer minimizer = new Minimizer(target);
        for (Path program : programs) {
            LoadedInput prog = Inputs.load(program, null);
            if (prog.ext() == null) {
                throw new FileException(program, new BtfFormatException("no .BTF.ext section: not a BPF object built with -g"));
            }
            Btf local = Inputs.btf(prog);
            try {
                for (LocalRelo r : LocalRelo.parseAll(local, prog.ext())) {
                    minimizer.record(relocator.resolve(local, r));
                }
            } catch (BtfFormatException e) {
                throw new FileException(program, e);
            } catch (BtfException e) {
                Streams.err().println("btfkit: " + program + ": " + e.getMessage());
                Streams.err().flush();
                throw new CommandFailedException(ExitCodes.FAILED);
            }
        }
        Outputs.write(output, BtfWriter.write(minimizer.build()), inputs, false);
        return ExitCodes.OK;
    }
}
