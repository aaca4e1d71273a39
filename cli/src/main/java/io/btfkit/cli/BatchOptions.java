package io.btfkit.cli;

import picocli.CommandLine.Option;

/** Options of the commands that process many inputs in one run. */
final class BatchOptions {
    @Option(names = {"-q", "--quiet"}, description = "no progress bar")
    boolean quiet;

    @Option(names = "--summary-json", description = "also print the batch summary as JSON on stdout (docs/JSON.md)")
    boolean json;
}
