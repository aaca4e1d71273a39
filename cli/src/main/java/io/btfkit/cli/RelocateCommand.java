package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.validate.OutputCheck;
import io.btfkit.relocate.NewBaseIndex;
import io.btfkit.relocate.Problem;
import io.btfkit.relocate.RelocationException;
import io.btfkit.relocate.Relocator;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code btfkit relocate}: re-bases split BTF whose base is a distilled base onto a new full
 * base (libbpf btf__relocate, the kernel's module loader). On failure every distilled type
 * that cannot be mapped is reported, libbpf's complaint first.
 */
@Command(name = "relocate", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Relocate split BTF built on a distilled base onto a new base (libbpf btf__relocate).",
            "The distilled base comes from --dist-base, from the ELF's .BTF.base, or (X.split.btf) from X.base.btf beside it.",
            "If types cannot be mapped, each is reported with the reason and the exit status is 1."},
        footer = {"", "Examples:",
            "  btfkit relocate mod.split.btf --base new-vmlinux.btf -o mod.btf",
            "  btfkit relocate mod.distilled.ko --base new-vmlinux.btf -o mod.btf",
            "  btfkit relocate --base new-vmlinux.btf --out-dir out/ dist/*.split.btf"})
final class RelocateCommand implements Callable<Integer> {
    @Parameters(paramLabel = "INPUT", arity = "1..*", description = "split BTF on a distilled base (several with --out-dir)")
    List<Path> inputs;

    @Option(names = {"-B", "--base", "--base-btf", "--btf_base"}, paramLabel = "NEW_BASE", required = true, description = "the base to relocate onto")
    Path base;

    @Option(names = "--dist-base", paramLabel = "D", description = "the distilled base the input is split on")
    Path distBase;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "output (one input)")
    Path output;

    @Option(names = "--out-dir", paramLabel = "DIR", description = "batch mode: DIR/X.btf for each X.split.btf or X")
    Path outDir;

    @Mixin
    BatchOptions batch;

    @Mixin
    OutputOptions out;

    @Override
    public Integer call() {
        BatchOptions.checkOneOrMany(output, outDir, inputs.size());
        List<Path> bases = new java.util.ArrayList<>(Outputs.given(base, distBase));
        if (distBase == null) {
            inputs.stream().map(RelocateCommand::besidePath).filter(java.util.Objects::nonNull).forEach(bases::add);
        }
        if (output != null) {
            Outputs.check(inputs, bases, List.of(output), false);
        } else {
            Outputs.checkBatch(inputs, bases, in -> List.of(outDir.resolve(outName(in))), false);
        }
        Btf newBase = Inputs.base(base);
        NewBaseIndex index;
        try {
            index = NewBaseIndex.of(newBase);
        } catch (BtfException e) {
            throw new FileException(base, e);
        }
        Btf shared = distBase == null ? null : Inputs.base(distBase);
        if (shared != null && Relocator.notDistilled(shared) != null) {
            throw new FileException(distBase, new BtfFormatException(Relocator.notDistilled(shared)));
        }
        if (output != null) {
            relocateOne(inputs.get(0), shared, index, output);
            return ExitCodes.OK;
        }
        Outputs.ensureDirectory(outDir);
        return Batch.run("relocate", inputs, in -> relocateOne(in, shared, index, outDir.resolve(outName(in))), batch.quiet, batch.json);
    }

    private static String outName(Path in) {
        String stem = Stems.stem(in);
        return (stem.endsWith(".split") ? stem.substring(0, stem.length() - ".split".length()) : stem) + ".btf";
    }

    private void relocateOne(Path in, Btf sharedDistBase, NewBaseIndex index, Path target) {
        Btf dist = sharedDistBase != null ? sharedDistBase : besideBase(in);
        LoadedInput li = loadOnDistilled(in, dist);
        Btf split = Inputs.btf(li);
        if (!split.isSplit()) {
            throw new FileException(in, new BtfFormatException(
                    "not split BTF on a distilled base (give --dist-base, or use an ELF with .BTF.base)"));
        }
        String notDistilled = sharedDistBase == null ? Relocator.notDistilled(split.base()) : null;
        if (notDistilled != null) {
            boolean elf = li.distilledBase() != null;
            throw new FileException(elf ? in : besidePath(in), new BtfFormatException((elf ? "its .BTF.base section is " : "is ")
                    + notDistilled));
        }
        Btf result;
        try {
            result = Relocator.relocate(split, index);
            Btf relocated = result;
            out.verify(result, List.of(new OutputCheck.Source(in.toString(), () -> split,
                    id -> id - split.firstId() + relocated.firstId())));
        } catch (RelocationException e) {
            reportProblems(in, e.problems());
            throw new CommandFailedException(ExitCodes.FAILED);
        } catch (BtfException e) {
            throw new FileException(in, e);
        }
        if (out.format == OutputOptions.Format.elf && li.ext() != null) {
            throw new FileException(in, new BtfFormatException(
                    "has a .BTF.ext, whose type ids relocation would renumber; not supported for ELF output"));
        }
        byte[] bytes = out.format == OutputOptions.Format.elf ? ElfOutput.replace(li, out, result, null, null)
                : out.encode(result, in);
        Outputs.write(target, bytes, List.of(in), false);
    }

    /**
     * The input on its distilled base; without one (no --dist-base, no X.base.btf beside it, no
     * .BTF.base in it), split BTF is told what is missing rather than to give --base, which the
     * command line did give: here the new base.
     */
    private static LoadedInput loadOnDistilled(Path in, Btf dist) {
        try {
            return Inputs.load(in, dist);
        } catch (FileException e) {
            if (dist != null || !(e.getCause() instanceof BtfException be) || !needsBase(be)) {
                throw e;
            }
            Path beside = besidePath(in);
            String stem = Stems.stem(in).replaceAll("\\.split$", "");
            throw new FileException(in, new BtfFormatException("is split BTF, and its distilled base is missing: "
                    + (beside != null ? Names.quote(beside.getFileName()) + " is not beside it; give it with --dist-base D"
                        : "give it with --dist-base D (or name the pair " + stem + ".split.btf and " + stem + ".base.btf)")
                    + "; split BTF on a full vmlinux (a module's .BTF) is distilled first: btfkit distill " + Names.quote(in)
                    + " --base VMLINUX -o " + stem + ".split.btf --base-out " + stem + ".base.btf"));
        }
    }

    private static boolean needsBase(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof io.btfkit.core.io.SplitNeedsBaseException) {
                return true;
            }
        }
        return false;
    }

    /** X.split.btf → X.base.btf beside it, when present; else the input must carry .BTF.base. */
    private static Btf besideBase(Path in) {
        Path candidate = besidePath(in);
        return candidate != null && Files.exists(candidate) ? Inputs.base(candidate) : null;
    }

    /** X.base.btf for X.split.btf (whether or not it exists), else null. */
    private static Path besidePath(Path in) {
        Path name = in.getFileName();
        int i = name == null ? -1 : name.toString().lastIndexOf(".split.");
        if (i < 0) {
            return null;
        }
        String n = name.toString();
        return in.resolveSibling(n.substring(0, i) + ".base." + n.substring(i + ".split.".length()));
    }

    /** Problem lines printed per input; the rest are counted in one more line. */
    static final int MAX_PROBLEM_LINES = 100;

    private static void reportProblems(Path in, List<Problem> problems) {
        PrintWriter err = Streams.err();
        synchronized (err) {
            err.println("btfkit: " + Names.quote(in) + ": cannot relocate: " + problems.size()
                    + (problems.size() == 1 ? " type has" : " types have") + " no match in the new base");
            for (int i = 0; i < problems.size() && i < MAX_PROBLEM_LINES; i++) {
                err.println("btfkit: " + Names.quote(in) + ":   " + io.btfkit.core.Printable.oneLine(problems.get(i).message()));
            }
            if (problems.size() > MAX_PROBLEM_LINES) {
                err.println("btfkit: " + Names.quote(in) + ":   and " + (problems.size() - MAX_PROBLEM_LINES) + " more");
            }
            err.flush();
        }
    }
}
