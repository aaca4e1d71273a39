package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.core.text.RawTextPrinter;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
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
    enum OutFormat { raw, text }

    enum Endian { little, big }

    enum Header { classic, layout }

    @Parameters(paramLabel = "INPUT")
    Path input;

    @Option(names = "--base", paramLabel = "B", description = "base BTF of a split input")
    Path base;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", required = true)
    Path output;

    @Option(names = "--out-format", paramLabel = "FMT", defaultValue = "raw",
            description = "raw or text (bpftool raw dump); default: ${DEFAULT-VALUE}")
    OutFormat outFormat;

    @Option(names = "--endian", paramLabel = "little|big", description = "byte order of raw output (default: the input's)")
    Endian endian;

    @Option(names = "--header", paramLabel = "classic|layout",
            description = "classic 24-byte header, or 32-byte header with a layout section (default: the input's)")
    Header header;

    @Option(names = "--in-place", description = "allow OUT to be INPUT")
    boolean inPlace;

    @Override
    public Integer call() {
        LoadedInput in = Inputs.load(input, Inputs.base(base));
        Btf btf = in.btf();
        Btf.RawFormat f = btf.format();
        if (endian != null) {
            f = f.withOrder(endian == Endian.big ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        }
        if (header != null) {
            f = header == Header.layout ? f.withLayout() : f.classic();
        }
        if (outFormat == OutFormat.text) {
            Outputs.write(output, os -> RawTextPrinter.print(btf, os), List.of(input), inPlace);
        } else {
            Outputs.write(output, BtfWriter.write(btf, f), List.of(input), inPlace);
        }
        return ExitCodes.OK;
    }
}
