package io.btfkit.cli;

import io.btfkit.core.io.LoadedInput;
import io.btfkit.core.stats.Stats;
import io.btfkit.core.stats.StatsJsonPrinter;
import io.btfkit.core.stats.StatsTextPrinter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code btfkit stats}: where a BTF's bytes go — types per kind, section sizes, format. */
@Command(name = "stats", sortOptions = false, mixinStandardHelpOptions = true,
        description = "Print type counts per kind and the sizes of the type and string sections.",
        footer = {"", "Examples:", "  btfkit stats mod.ko --base vmlinux.btf", "  btfkit stats vmlinux.btf --json"})
final class StatsCommand implements Callable<Integer> {
    @Parameters(paramLabel = "INPUT", description = "raw BTF, ELF, compressed or text")
    Path input;

    @Option(names = {"-B", "--base", "--base-btf", "--btf_base"}, paramLabel = "B", description = "base BTF of a split input")
    Path base;

    @Option(names = {"-j", "--json"}, description = "JSON (field names documented in docs/JSON.md)")
    boolean json;

    @Option(names = {"-p", "--pretty"}, description = "JSON with every object and array on lines of its own, indented as bpftool -p (implies --json)")
    boolean pretty;

    @Override
    public Integer call() {
        Outputs.check(java.util.List.of(input), Outputs.given(base), java.util.List.of(), false);
        LoadedInput in = Inputs.load(input, Inputs.base(base));
        Stats stats = Stats.of(Inputs.btf(in));
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(Streams.out(), StandardCharsets.UTF_8));
        if (json || pretty) {
            out.print(StatsJsonPrinter.print(stats, pretty));
        } else {
            out.printf("file:            %s (%s%s)%n", Names.quote(input), in.source().name().toLowerCase(java.util.Locale.ROOT),
                    in.compression() == null ? "" : ", " + in.compression().label());
            out.print(StatsTextPrinter.print(stats));
        }
        out.flush();
        return ExitCodes.OK;
    }
}
