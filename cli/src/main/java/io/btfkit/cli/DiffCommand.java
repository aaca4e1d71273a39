package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.diff.BtfDiff;
import io.btfkit.diff.DiffFilter;
import io.btfkit.diff.DiffJsonPrinter;
import io.btfkit.diff.DiffLimitException;
import io.btfkit.diff.DiffReport;
import io.btfkit.diff.DiffTextPrinter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code btfkit diff}: what changed between two BTFs, type by type, matched by name. */
@Command(name = "diff", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Structural diff by name: types added, removed and changed, with changed members, values and"
            + " parameters (e.g. what changed between two kernels' vmlinux BTF). Exit 1 when they differ."},
        footer = {"", "Examples:",
            "  btfkit diff vmlinux-6.1.0-47.btf vmlinux-6.1.0-56.btf",
            "  btfkit diff old.ko new.ko --base-a old-vmlinux.btf --base-b new-vmlinux.btf --json",
            "  btfkit diff vmlinux-6.1.0-47.btf vmlinux-6.1.0-56.btf --kind struct,union --name 'mlx4_*'",
            "  btfkit diff mod.btf mod.relocated.btf --base-a vmlinux.btf --base-b vmlinux.btf --with-base"})
final class DiffCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "A", description = "the old BTF")
    Path a;

    @Parameters(index = "1", paramLabel = "B", description = "the new BTF")
    Path b;

    @Option(names = "--base-a", paramLabel = "X", description = "base of A when A is split")
    Path baseA;

    @Option(names = "--base-b", paramLabel = "Y", description = "base of B when B is split")
    Path baseB;

    @Option(names = "--kind", paramLabel = "KIND", split = ",",
            description = "only types of these kinds (struct, union, enum, typedef, func, var, ...; comma-separated)")
    java.util.List<String> kinds;

    @Option(names = "--name", paramLabel = "GLOB",
            description = "only types whose name matches the shell pattern (*, ?, [abc]; quote it: 'mlx4_*')")
    String name;

    @Option(names = "--with-base", description = "split inputs: compare their base types too, not only their own"
            + " (a type that moved between base and split, as distill moves typedefs, is then no change)")
    boolean withBase;

    @Option(names = {"-j", "--json"}, description = "JSON report (fields documented in docs/DIFF.md)")
    boolean json;

    @Option(names = {"-p", "--pretty"}, description = "JSON with every object and array on lines of its own, indented as bpftool -p (implies --json)")
    boolean pretty;

    @Override
    public Integer call() {
        DiffFilter filter;
        try {
            filter = DiffFilter.of(kinds, name);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--kind " + e.getMessage());
        }
        Outputs.check(java.util.List.of(a, b), Outputs.given(baseA, baseB), java.util.List.of(), false);
        Btf left = Inputs.btf(Inputs.load(a, Inputs.base(baseA)));
        Btf right = Inputs.btf(Inputs.load(b, Inputs.base(baseB)));
        DiffReport report;
        try {
            report = filter.apply(BtfDiff.diff(left, right, new BtfDiff.Options(withBase)));
        } catch (DiffLimitException e) {
            // a bound of the diff: say which input asked for the work (the pair: a, against b)
            throw new FileException(e.side() == 1 ? b : a, e.side() < 0
                    ? new io.btfkit.core.OperationException("diff against " + Names.quote(b) + ": " + e.getMessage()) : e);
        }
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(Streams.out(), StandardCharsets.UTF_8));
        out.print(json || pretty ? DiffJsonPrinter.print(report, pretty) : DiffTextPrinter.print(report));
        out.flush();
        return report.isEmpty() ? ExitCodes.OK : ExitCodes.FAILED;
    }
}
