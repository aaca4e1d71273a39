package io.btfkit.cli;

import picocli.CommandLine.Option;

/** Options of the commands that process many inputs in one run. */
final class BatchOptions {
    @Option(names = {"-q", "--quiet"}, description = "no progress bar")
    boolean quiet;

    @Option(names = "--summary-json", description = "also print the batch summary as JSON on stdout (docs/JSON.md)")
    boolean json;

    /** A command takes one input with {@code -o}, or many with {@code --out-dir}: exactly one of them. */
    static void checkOneOrMany(Object output, Object outDir, int inputs) {
        if ((outDir == null) == (output == null)) {
            throw new UsageException("give exactly one of -o (one input) and --out-dir (one or more inputs)");
        }
        if (output != null && inputs != 1) {
            throw new UsageException("-o takes one input; use --out-dir for several");
        }
    }
}
