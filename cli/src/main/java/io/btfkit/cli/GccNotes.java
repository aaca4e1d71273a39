package io.btfkit.cli;

import io.btfkit.gcc.QuirkCounts;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * What link and convert say about gcc 12's encodings: one summary line per run on stderr
 * ({@code btfkit: link: 4 of 4 inputs have gcc 12 encodings: 3 normalised, 51 kept (-v: per input;
 * docs/GCC.md)}), and with {@code -v} first the line of each input that had any, as it is read.
 * A kernel build links thousands of gcc objects: a line per object would bury everything else.
 */
final class GccNotes {
    private final String command;
    private final boolean verbose;
    private final boolean quiet;
    private QuirkCounts applied = new QuirkCounts();
    private QuirkCounts kept = new QuirkCounts();
    private int inputs;
    private int withEncodings;

    GccNotes(String command, boolean verbose, boolean quiet) {
        this.command = command;
        this.verbose = verbose;
        this.quiet = quiet;
    }

    /** Counts what one input had (and prints its line with -v); safe from several threads. */
    synchronized void add(Path input, QuirkCounts appliedHere, QuirkCounts keptHere) {
        inputs++;
        String line = QuirkCounts.describe(appliedHere, keptHere);
        if (line == null) {
            return;
        }
        withEncodings++;
        applied = applied.plus(appliedHere);
        kept = kept.plus(keptHere);
        if (verbose && !quiet) {
            PrintWriter err = Streams.err();
            err.println("btfkit: " + Names.quote(input) + ": " + line);
            err.flush();
        }
    }

    /** The summary line, or null when no input had gcc 12 encodings. */
    synchronized String summary() {
        if (withEncodings == 0) {
            return null;
        }
        return "btfkit: " + command + ": " + withEncodings + " of " + inputs + (inputs == 1 ? " input has" : " inputs have")
                + " gcc 12 encodings: " + applied.total() + " normalised, " + kept.total() + " kept"
                + (verbose ? " (docs/GCC.md)" : " (-v: per input; docs/GCC.md)");
    }

    /** Prints the summary line unless -q or there is nothing to say. */
    void printSummary() {
        String line = summary();
        if (line != null && !quiet) {
            PrintWriter err = Streams.err();
            err.println(line);
            err.flush();
        }
    }
}
