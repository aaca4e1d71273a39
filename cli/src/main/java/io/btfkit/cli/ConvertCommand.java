package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.io.LoadedInput;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code btfkit convert}: re-encodes BTF without changing its types — raw ↔ text ↔ ELF section,
 * byte order, header form. Raw to raw with no option is byte-identical.
 */
@Command(name = "convert", sortOptions = false,
        description = "Re-encode BTF (raw, text, byte order, header form) without changing its types.",
        footer = {"", "Examples:",
            "  btfkit convert vmlinux.btf --endian big -o vmlinux.be.btf",
            "  btfkit convert mod.ko --base vmlinux.btf --out-format text -o mod.txt"})
final class ConvertCommand implements Callable<Integer> {
    @Parameters(paramLabel = "INPUT")
    Path input;

    @Option(names = "--base", paramLabel = "B", description = "base BTF of a split input")
    Path base;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", required = true)
    Path output;

    @Option(names = "--in-place", description = "allow OUT to be INPUT")
    boolean inPlace;

    @Mixin
    OutputOptions out;

    @Override
    public Integer call() {
        LoadedInput in = Inputs.load(input, Inputs.base(base));
        Btf btf = in.btf();
        byte[] bytes = out.format == OutputOptions.Format.elf
                ? ElfOutput.replace(in, out, btf, in.ext(), in.distilledBase())
                : out.encode(btf);
        Outputs.write(output, bytes, List.of(input), inPlace);
        return ExitCodes.OK;
    }
}
