package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.io.LoadedInput;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code btfkit convert}: re-encodes BTF without changing its types — raw ↔ text ↔ ELF section,
 * byte order, header form. Raw to raw with no option is byte-identical.
 */
@Command(name = "convert", sortOptions = false, mixinStandardHelpOptions = true,
        description = "Re-encode BTF (raw, text, byte order, header form) without changing its types.",
        footer = {"", "Examples:",
            "  btfkit convert vmlinux.btf --endian big -o vmlinux.be.btf",
            "  btfkit convert mod.ko --base vmlinux.btf --out-format text -o mod.txt"})
final class ConvertCommand implements Callable<Integer> {
    @Parameters(paramLabel = "INPUT", arity = "1..*")
    List<Path> inputs;

    @Option(names = "--base", paramLabel = "B", description = "base BTF of split inputs")
    Path base;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "output (one input)")
    Path output;

    @Option(names = "--out-dir", paramLabel = "D", description = "batch mode: D/STEM.btf (.txt for text) per input")
    Path outDir;

    @Option(names = "--in-place", description = "allow OUT to be INPUT")
    boolean inPlace;

    @Mixin
    OutputOptions out;

    @Mixin
    BatchOptions batch;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        BatchOptions.checkOneOrMany(spec, output, outDir, inputs.size());
        Btf baseBtf = Inputs.base(base);
        if (output != null) {
            convertOne(inputs.get(0), baseBtf, output);
            return ExitCodes.OK;
        }
        Outputs.ensureDirectory(outDir);
        return Batch.run("convert", inputs, in -> convertOne(in, baseBtf, outDir.resolve(
                out.format == OutputOptions.Format.elf ? Stems.uncompressedName(in)
                        : Stems.stem(in) + (out.format == OutputOptions.Format.text ? ".txt" : ".btf"))),
                batch.quiet, batch.json);
    }

    private void convertOne(Path input, Btf baseBtf, Path target) {
        LoadedInput in = Inputs.load(input, baseBtf);
        Btf btf = in.btf();
        byte[] bytes = out.format == OutputOptions.Format.elf
                ? ElfOutput.replace(in, out, btf, in.ext(), in.distilledBase())
                : out.encode(btf);
        Outputs.write(target, bytes, List.of(input), inPlace);
    }
}
