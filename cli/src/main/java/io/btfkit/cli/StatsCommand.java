package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.io.LoadedInput;
import java.io.PrintWriter;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code btfkit stats}: where a BTF's bytes go — types per kind, section sizes, format. */
@Command(name = "stats", sortOptions = false,
        description = "Print type counts per kind and the sizes of the type and string sections.",
        footer = {"", "Example:", "  btfkit stats mod.ko --base vmlinux.btf"})
final class StatsCommand implements Callable<Integer> {
    @Parameters(paramLabel = "INPUT")
    Path input;

    @Option(names = "--base", paramLabel = "B", description = "base BTF of a split input")
    Path base;

    @Override
    public Integer call() {
        LoadedInput in = Inputs.load(input, Inputs.base(base));
        Btf btf = in.btf();
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(Streams.out(), java.nio.charset.StandardCharsets.UTF_8));
        long[] perKind = new long[128];
        long[] bytesPerKind = new long[128];
        for (int id = btf.firstId(); id < btf.typeCount(); id++) {
            int k = btf.kind(id);
            perKind[k]++;
            bytesPerKind[k] += 4L * btf.wordCount(id);
        }
        out.printf("file:          %s (%s%s)%n", input, in.source().name().toLowerCase(java.util.Locale.ROOT),
                in.compression() == null ? "" : ", " + in.compression().label());
        out.printf("byte order:    %s%n", btf.format().order() == ByteOrder.LITTLE_ENDIAN ? "little-endian" : "big-endian");
        out.printf("header:        %d bytes%s%n", btf.format().headerLength(),
                btf.format().layout() != null ? " with layout section (" + btf.format().layout().size() + " kinds)" : "");
        if (btf.isSplit()) {
            out.printf("split:         on a base of %d types; own ids %d..%d%n", btf.firstId() - 1, btf.firstId(), btf.typeCount() - 1);
        } else {
            out.printf("split:         no (standalone)%n");
        }
        out.printf("types:         %d%n", btf.ownTypeCount());
        out.printf("type section:  %d bytes%n", btf.typeSectionBytes());
        out.printf("string section: %d bytes%n", btf.strings().length());
        out.printf("%-12s %8s %10s%n", "kind", "types", "bytes");
        for (int k = 0; k < perKind.length; k++) {
            if (perKind[k] > 0) {
                out.printf("%-12s %8d %10d%n", Kind.isKnown(k) ? Kind.name(k) : "kind " + k, perKind[k], bytesPerKind[k]);
            }
        }
        out.flush();
        return ExitCodes.OK;
    }
}
