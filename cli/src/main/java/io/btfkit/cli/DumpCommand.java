package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.cheader.CHeaderOptions;
import io.btfkit.cheader.CHeaderPrinter;
import io.btfkit.cheader.RootTypes;
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
@Command(name = "dump", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Print the types of a BTF file.",
            "raw is byte-identical to 'bpftool btf dump file INPUT format raw'; split BTF prints only its own types"
                + " unless --with-base is given."},
        footer = {"", "Examples:",
            "  btfkit dump /sys/kernel/btf/vmlinux",
            "  btfkit dump mod.ko --base vmlinux.btf --format summary",
            "  btfkit dump /sys/kernel/btf/vmlinux --format c > vmlinux.h",
            "  btfkit dump /sys/kernel/btf/vmlinux --format c --root task_struct,struct:file",
            "  btfkit dump mod.ko -B vmlinux.btf -p"})
final class DumpCommand implements Callable<Integer> {
    enum Format { raw, json, c, summary }

    enum CStyle { current, bpftool71 }

    @Parameters(paramLabel = "INPUT", description = "raw BTF, ELF (.BTF), compressed, or BTF text")
    Path input;

    @Option(names = {"-B", "--base", "--base-btf", "--btf_base"}, paramLabel = "B", description = "base BTF of a split input")
    Path base;

    @Option(names = "--format", paramLabel = "FMT",
            description = "raw (bpftool), json (bpftool -j), c (C header, the vmlinux.h use), summary (one line per type);"
                + " default: raw (json with --pretty)")
    Format format;

    @Option(names = {"-j", "--json"}, description = "JSON output, as bpftool -j prints it (the same as --format json)")
    boolean json;

    @Option(names = {"-p", "--pretty"}, description = "JSON output, indented as bpftool -p indents it (implies --format json)")
    boolean pretty;

    @Option(names = "--c-style", paramLabel = "S", defaultValue = "current",
            description = "C output: current (libbpf >= 1.2: enums keep their size, so layouts are exact) or bpftool71 "
                + "(byte-identical to Debian's bpftool 7.1); default: ${DEFAULT-VALUE}")
    CStyle cStyle;

    @Option(names = {"--root", "-C"}, paramLabel = "TYPE", split = ",",
            description = "C output (implies --format c): only these types and what they need, in this order, as"
                + " pahole -C; a TYPE is an id, a name (task_struct; a struct before its own typedef) or KIND:NAME"
                + " (struct:task_struct) when several kinds share the name; a FUNC or VAR gives the types it uses")
    String[] roots;

    @Option(names = "--with-base", description = "also print the base types first")
    boolean withBase;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "write to OUT instead of stdout")
    Path output;

    @Override
    public Integer call() {
        if (format == null) {
            format = pretty || json ? Format.json : roots != null ? Format.c : Format.raw;
        } else if ((pretty || json) && format != Format.json) {
            throw new UsageException((pretty ? "--pretty" : "--json") + " is for JSON output, not --format " + format);
        }
        if (roots != null && (pretty || json)) {
            throw new UsageException("--root selects the types of C output, not of JSON");
        }
        if (roots != null && format != Format.c) {
            throw new UsageException("--root selects the types of C output (--format c)");
        }
        Outputs.check(List.of(input), Outputs.given(base), Outputs.given(output), false);
        LoadedInput in = Inputs.load(input, Inputs.base(base));
        Btf btf = Inputs.btf(in);
        int[] selected = null;
        if (roots != null) {
            RootTypes.Selection sel;
            try {
                sel = RootTypes.select(btf, List.of(roots));
            } catch (BtfException e) {
                throw new FileException(input, e);
            }
            selected = sel.ids();
            for (String note : sel.notes()) {
                Streams.err().println("btfkit: " + Names.quote(input) + ": " + io.btfkit.core.Printable.oneLine(note));
            }
            Streams.err().flush();
        }
        int[] rootIds = selected;
        int from = withBase ? 1 : btf.firstId();
        CHeaderOptions copts = (cStyle == CStyle.current ? CHeaderOptions.CURRENT_LIBBPF : CHeaderOptions.BPFTOOL_71)
                .withPointerSize(in.elf() == null ? 0 : in.elf().is64() ? 8 : 4);
        Outputs.Body body = os -> {
            try {
                print(btf, from, rootIds, copts, os);
            } catch (BtfException e) {
                throw new FileException(input, e);
            }
        };
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

    private void print(Btf btf, int from, int[] rootIds, CHeaderOptions copts, OutputStream os) throws IOException {
        switch (format) {
            case raw:
                RawTextPrinter.print(btf, from, btf.typeCount(), os);
                break;
            case json:
                JsonPrinter.print(btf, from, btf.typeCount(), os, pretty);
                break;
            case c:
                if (rootIds != null) {
                    CHeaderPrinter.print(btf, rootIds, os, copts);
                } else if (withBase) {
                    CHeaderPrinter.printWithBase(btf, os, copts);
                } else {
                    CHeaderPrinter.print(btf, os, copts);
                }
                break;
            case summary:
                SummaryPrinter.print(btf, from, os);
                break;
            default:
                throw new IllegalStateException(format.toString());
        }
    }
}
