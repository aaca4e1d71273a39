package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.validate.OutputCheck;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code btfkit asm}: assembles BTF written as bpftool raw text into binary BTF. */
@Command(name = "asm", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Assemble BTF text (bpftool 'format raw' spelling, '#' comments allowed) into raw BTF.",
            "Split text is read on --base; its first id must follow the base's last."},
        footer = {"", "Example:",
            "  btfkit dump vmlinux.btf > v.txt; btfkit asm v.txt -o v.btf"})
final class AsmCommand implements Callable<Integer> {
    @Parameters(paramLabel = "INPUT.txt", description = "BTF as text (- for stdin)")
    Path input;

    @Option(names = {"-B", "--base", "--base-btf", "--btf_base"}, paramLabel = "B", description = "base BTF of split text")
    Path base;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", required = true, description = "the BTF written (- for stdout)")
    Path output;

    @Mixin
    PlainOutputOptions out;

    @Override
    public Integer call() {
        Outputs.check(List.of(input), Outputs.given(base), List.of(output), false);
        LoadedInput li = Inputs.load(input, Inputs.base(base));
        Btf btf = Inputs.btf(li);
        try {
            out.verify(btf, List.of(OutputCheck.Source.unchanged(input.toString(), btf)));
        } catch (BtfException e) {
            throw new FileException(input, e);
        }
        Outputs.write(output, out.encode(btf, input), List.of(input), false);
        return ExitCodes.OK;
    }
}
