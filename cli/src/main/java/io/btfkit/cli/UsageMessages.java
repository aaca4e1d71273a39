package io.btfkit.cli;

import io.btfkit.core.Spelling;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The one-line message of a command line picocli could not parse, in btfkit's words where
 * picocli's are about its parser ("Unmatched arguments from index 0"): an unknown command or
 * option with the nearest names ({@code did you mean 'dump'?}), too many arguments with how
 * many the command takes. Anything else keeps picocli's message.
 */
final class UsageMessages {
    private UsageMessages() {
    }

    static String of(CommandLine.ParameterException e) {
        if (!(e instanceof CommandLine.UnmatchedArgumentException u) || u.getUnmatched().isEmpty()) {
            return e.getMessage();
        }
        CommandSpec spec = e.getCommandLine().getCommandSpec();
        String first = u.getUnmatched().get(0);
        if (spec.parent() == null && !first.startsWith("-")) {
            return "unknown command '" + first + "'" + Spelling.didYouMean(first, spec.subcommands().keySet())
                    + "; the commands: " + String.join(", ", spec.subcommands().keySet());
        }
        String name = spec.parent() == null ? "btfkit" : spec.name();
        for (String arg : u.getUnmatched()) {
            if (arg.startsWith("-") && arg.length() > 1) {
                String option = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
                List<String> names = new ArrayList<>();
                for (OptionSpec o : spec.options()) {
                    names.addAll(List.of(o.names()));
                }
                return name + ": unknown option '" + option + "'" + Spelling.didYouMean(option, names);
            }
        }
        return name + ": too many arguments: " + quoted(u.getUnmatched()) + " (" + name + " takes " + takes(spec) + ")";
    }

    /** How many positional arguments {@code spec} takes, and what they are: {@code 1: INPUT}, {@code 2: A B}. */
    static String takes(CommandSpec spec) {
        int min = 0;
        boolean unbounded = false;
        List<String> labels = new ArrayList<>();
        for (PositionalParamSpec p : spec.positionalParameters()) {
            min += p.arity().min();
            unbounded |= p.arity().max() == Integer.MAX_VALUE;
            labels.add(p.paramLabel() + (p.arity().max() > 1 ? "..." : ""));
        }
        String count = unbounded ? min + " or more" : Integer.toString(min);
        return count + (labels.isEmpty() ? "" : ": " + String.join(" ", labels));
    }

    private static String quoted(List<String> args) {
        List<String> q = new ArrayList<>();
        for (String a : args) {
            q.add("'" + io.btfkit.core.Printable.oneLine(a) + "'");
        }
        return String.join(", ", q);
    }
}
