package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.validate.OutputCheck;
import io.btfkit.distill.Distiller;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code btfkit distill}: split BTF + its base → a distilled base ({@code .BTF.base}) and new
 * split BTF on it, byte-identical to libbpf's btf__distill_base.
 */
@Command(name = "distill", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Distill split BTF: a small base holding only what the split references (named ints, floats,"
            + " fwds; sized memberless structs, unions and enums) plus a new split BTF on it (libbpf btf__distill_base).",
            "With --out-format elf on an ELF input, writes .BTF and .BTF.base into a copy (pahole's layout)."},
        footer = {"", "Examples:",
            "  btfkit distill mod.btf --base vmlinux.btf -o mod.split.btf --base-out mod.base.btf",
            "  btfkit distill mod.ko --base vmlinux.btf --out-format elf -o mod.distilled.ko",
            "  btfkit distill --base vmlinux.btf --out-dir out/ modules/*.ko.xz"})
final class DistillCommand implements Callable<Integer> {
    @Parameters(paramLabel = "INPUT", arity = "1..*", description = "split BTF on --base, e.g. a module (several with --out-dir)")
    List<Path> inputs;

    @Option(names = {"-B", "--base", "--base-btf", "--btf_base"}, paramLabel = "B", required = true, description = "the full base the input is split on")
    Path base;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT_SPLIT", description = "new split BTF (one input)")
    Path output;

    @Option(names = "--base-out", paramLabel = "OUT_BASE", description = "distilled base (raw output)")
    Path baseOut;

    @Option(names = "--out-dir", paramLabel = "D", description = "batch mode: D/STEM.split.btf and D/STEM.base.btf")
    Path outDir;

    @Mixin
    BatchOptions batch;

    @Mixin
    OutputOptions out;

    @Override
    public Integer call() {
        BatchOptions.checkOneOrMany(output, outDir, inputs.size());
        if (output != null && baseOut == null && out.format != OutputOptions.Format.elf) {
            throw new UsageException("give --base-out for the distilled base (or --out-format elf)");
        }
        if (output != null) {
            Outputs.check(inputs, List.of(base), Outputs.given(output, baseOut), false);
        } else {
            Outputs.checkBatch(inputs, List.of(base), this::targets, false);
        }
        Btf full = Inputs.base(base);
        if (output != null) {
            distillOne(inputs.get(0), full, output, baseOut);
            return ExitCodes.OK;
        }
        Outputs.ensureDirectory(outDir);
        return Batch.run("distill", inputs, in -> {
            List<Path> t = targets(in);
            distillOne(in, full, t.get(0), t.size() > 1 ? t.get(1) : null);
        }, batch.quiet, batch.json);
    }

    /** Batch mode: D/NAME for ELF output, else D/STEM.split.btf and D/STEM.base.btf. */
    private List<Path> targets(Path in) {
        if (out.format == OutputOptions.Format.elf) {
            return List.of(outDir.resolve(Stems.uncompressedName(in)));
        }
        String stem = Stems.stem(in);
        return List.of(outDir.resolve(stem + ".split.btf"), outDir.resolve(stem + ".base.btf"));
    }

    private void distillOne(Path in, Btf full, Path splitOut, Path distBaseOut) {
        LoadedInput li = Inputs.load(in, full);
        if (li.distilledBase() != null) {
            throw new FileException(in, new BtfFormatException("already carries a .BTF.base (distilled)"));
        }
        Distiller.Result r;
        try {
            r = Distiller.distill(Inputs.btf(li));
            // the outputs are made of the split's types and the base types it references: each
            // may carry what those had (the base is an input here, not a trusted reference)
            Btf split = Inputs.btf(li);
            List<OutputCheck.Source> sources = List.of(
                    new OutputCheck.Source(Names.quote(in), () -> split, r.newId()),
                    new OutputCheck.Source(Names.quote(base), split::base, r.newId()));
            out.verify(r.distilledBase(), sources);
            out.verify(r.newSplit(), sources);
        } catch (BtfException e) {
            throw new FileException(in, e);
        }
        // the split and its base land together or not at all
        try (Outputs.Transaction t = new Outputs.Transaction()) {
            if (out.format == OutputOptions.Format.elf) {
                if (li.ext() != null) {
                    throw new FileException(in, new BtfFormatException(
                            "has a .BTF.ext, whose type ids distilling would renumber; not supported for ELF output"));
                }
                t.add(splitOut, ElfOutput.replace(li, out, r.newSplit(), null, r.distilledBase()));
                if (distBaseOut != null) {
                    t.add(distBaseOut, io.btfkit.core.BtfWriter.write(r.distilledBase(), out.rawFormat(r.distilledBase())));
                }
            } else {
                t.add(splitOut, out.encode(r.newSplit()));
                t.add(distBaseOut, out.encode(r.distilledBase()));
            }
            t.commit();
        }
    }
}
