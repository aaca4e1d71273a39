package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.core.text.JsonPrinter;
import io.btfkit.core.text.RawTextPrinter;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code btfkit dump}: prints types as bpftool does (raw), as JSON, or one line per type. */
@Command(name = "dump", sortOptions = false,
        description = {"Print the types of a BTF file.",
            "raw is byte-identical to 'bpftool btf dump file INPUT format raw'; split BTF prints only its own types"
                + " unless --with-base is given."},
        footer = {"", "Examples:",
            "  btfkit dump /sys/kernel/btf/vmlinux",
            "  btfkit dump mod.ko --base vmlinux.btf --format summary"})
final class DumpCommand implements Callable<Integer> {
    enum Format { raw, json, summary }

    @Parameters(paramLabel = "INPUT", description = "raw BTF, ELF (.BTF), compressed, or BTF text")
    Path input;

    @Option(names = "--base", paramLabel = "B", description = "base BTF of a split input")
    Path base;

    @Option(names = "--format", paramLabel = "FMT", defaultValue = "raw",
            description = "raw (bpftool), json (bpftool -j), summary (one line per type); default: ${DEFAULT-VALUE}")
    Format format;

    @Option(names = "--with-base", description = "also print the base types first")
    boolean withBase;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "write to OUT instead of stdout")
    Path output;

    @Override
    public Integer call() {
        LoadedInput in = Inputs.load(input, Inputs.base(base));
        Btf btf = in.btf();
        int from = withBase ? 1 : btf.firstId();
        Outputs.Body body = os -> print(btf, from, os);
        if (output != null) {
            Outputs.write(output, body, List.of(input), false);
        } else {
            try {
                OutputStream os = new BufferedOutputStream(Streams.out(), 1 << 16);
                body.writeTo(os);
                os.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return ExitCodes.OK;
    }

    private void print(Btf btf, int from, OutputStream os) throws IOException {
        switch (format) {
            case raw:
                RawTextPrinter.print(btf, from, btf.typeCount(), os);
                break;
            case json:
                JsonPrinter.print(btf, from, btf.typeCount(), os);
                break;
            case summary:
                SummaryPrinter.print(btf, from, os);
                break;
            default:
                throw new IllegalStateException(format.toString());
        }
    }
}
