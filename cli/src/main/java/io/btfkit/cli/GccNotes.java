package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.gcc.QuirkCounts;
import io.btfkit.validate.Finding;
import io.btfkit.validate.Validator;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * What link and convert say about gcc 12's encodings: one summary line per run on stderr
 * ({@code btfkit: link: 4 of 4 inputs have gcc 12 encodings: 3 normalised, 51 kept (-v: per input;
 * docs/GCC.md)}), and with {@code -v} first the line of each input that had any, as it is read.
 * A kernel build links thousands of gcc objects: a line per object would bury everything else.
 * Link's line also says when the kernel will refuse its output (gcc 12's {@code char}, anonymous
 * FUNCs, unsized DATASECs...): how many of the output's types, and that {@code --fix} rewrites
 * what the objects prove — or, after {@code --fix}, how many it could not.
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
        return summary(null, false);
    }

    /**
     * The summary line, with what the kernel says of {@code output} (null: nothing) when it
     * refuses some of its types; {@code fixed}: the output was made with --fix.
     */
    synchronized String summary(Btf output, boolean fixed) {
        if (withEncodings == 0) {
            return null;
        }
        StringBuilder sb = new StringBuilder("btfkit: ").append(command).append(": ").append(withEncodings).append(" of ")
                .append(inputs).append(inputs == 1 ? " input has" : " inputs have").append(" gcc 12 encodings: ")
                .append(applied.total()).append(" normalised, ").append(kept.total()).append(" kept");
        int rejected = output == null ? 0 : rejectedTypes(output);
        if (rejected > 0) {
            sb.append(fixed ? "; the kernel still rejects " : "; the kernel rejects ").append(rejected).append(" type")
                    .append(rejected == 1 ? "" : "s").append(" of the output")
                    .append(fixed ? " (what --fix cannot repair" : " (--fix rewrites what the objects prove");
            return sb.append(verbose ? "; docs/GCC.md)" : "; -v: per input; docs/GCC.md)").toString();
        }
        return sb.append(verbose ? " (docs/GCC.md)" : " (-v: per input; docs/GCC.md)").toString();
    }

    /** The number of the output's own types with a finding of the kernel's rules. */
    private static int rejectedTypes(Btf output) {
        java.util.Set<Integer> types = new java.util.HashSet<>();
        for (Finding f : Validator.validate(output)) {
            if (f.typeId() > 0) {
                types.add(f.typeId());
            }
        }
        return types.size();
    }

    /** Prints the summary line unless -q or there is nothing to say. */
    void printSummary() {
        printSummary(null, false);
    }

    /** Prints the summary line, saying what the kernel says of {@code output}, unless -q or there is nothing to say. */
    void printSummary(Btf output, boolean fixed) {
        String line = quiet ? null : summary(output, fixed);
        if (line != null) {
            PrintWriter err = Streams.err();
            err.println(line);
            err.flush();
        }
    }
}
