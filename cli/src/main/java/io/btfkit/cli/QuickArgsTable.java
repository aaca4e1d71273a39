package io.btfkit.cli;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Writes the table {@link QuickArgs} parses with: every subcommand's options and positional
 * parameters as picocli's model describes them (built from the annotations), one tab-separated
 * line each. The build runs it after compiling ({@code process-classes}), so the table in the jar
 * always describes the annotations it was built from; the annotations stay the one definition
 * of the command line.
 *
 * <pre>
 * command    NAME  CLASS                          a subcommand QuickArgs may parse
 * mixin      FIELD CLASS                          a @Mixin field of it and the class picocli creates
 * option     NAMES FIELD KIND REQUIRED [DEFAULT]  NAMES comma-separated; FIELD a path such as out.format
 * positional FROM TO MIN MAX FIELD KIND           index range and arity (-1: unbounded)
 * </pre>
 *
 * KIND is {@code flag} (a boolean of arity 0), {@code path}, {@code string}, {@code enum},
 * {@code paths} (a list of paths), or {@code stop}: an option QuickArgs leaves to picocli
 * (help, version, split values, anything else). A command with argument groups is not listed.
 */
public final class QuickArgsTable {
    /** Where the table lives on the class path. */
    static final String RESOURCE = "quick-args.tsv";

    private QuickArgsTable() {
    }

    /** Usage: {@code QuickArgsTable OUTPUT_FILE}. */
    public static void main(String[] args) throws IOException {
        Path out = Paths.get(args[0]);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.write(out, (String.join("\n", lines()) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** The table's lines, from the live picocli model of every subcommand. */
    static List<String> lines() {
        List<String> out = new ArrayList<>();
        out.add("# btfkit command-line table, generated from the picocli annotations by QuickArgsTable; do not edit");
        CommandLine top = Main.commandLine();
        for (Map.Entry<String, CommandLine> e : top.getSubcommands().entrySet()) {
            CommandSpec spec = e.getValue().getCommandSpec();
            Class<?> cls = spec.userObject().getClass();
            if (!cls.getPackageName().equals(QuickArgsTable.class.getPackageName()) || !spec.argGroups().isEmpty()) {
                continue; // picocli's own commands, and argument groups, stay with picocli
            }
            out.add(String.join("\t", "command", e.getKey(), cls.getName()));
            for (Field f : cls.getDeclaredFields()) {
                if (f.isAnnotationPresent(CommandLine.Mixin.class)) {
                    out.add(String.join("\t", "mixin", f.getName(), f.getType().getName()));
                }
            }
            for (OptionSpec o : spec.options()) {
                out.add(String.join("\t", "option", String.join(",", o.names()), fieldPath(cls, o), kind(o),
                        o.required() ? "1" : "0", defaultOf(o)));
            }
            for (PositionalParamSpec p : spec.positionalParameters()) {
                out.add(String.join("\t", "positional", Integer.toString(p.index().min()), bound(p.index()),
                        Integer.toString(p.arity().min()), bound(p.arity()), fieldPath(cls, p), kind(p)));
            }
        }
        return out;
    }

    private static String bound(CommandLine.Range r) {
        return r.max() == Integer.MAX_VALUE ? "-1" : Integer.toString(r.max());
    }

    private static String defaultOf(OptionSpec o) {
        String d = o.defaultValue();
        if (d == null) {
            return "";
        }
        if (d.isEmpty() || d.contains("${") || d.contains("\t") || d.contains("\n")) {
            throw new IllegalStateException(o.longestName() + ": a default value the table cannot hold: '" + d + "'");
        }
        return d;
    }

    /** The field an argument sets, as a path from the command object ({@code out.format} for a mixin's). */
    private static String fieldPath(Class<?> cls, ArgSpec a) {
        if (!(a.userObject() instanceof Field f)) {
            return "-";
        }
        if (f.getDeclaringClass() == cls) {
            return f.getName();
        }
        for (Field m : cls.getDeclaredFields()) {
            if (m.isAnnotationPresent(CommandLine.Mixin.class) && f.getDeclaringClass().isAssignableFrom(m.getType())) {
                return m.getName() + "." + f.getName();
            }
        }
        return "-"; // picocli's standard help mixin
    }

    /** How QuickArgs converts the argument's value, or {@code stop} when it does not. */
    static String kind(ArgSpec a) {
        if (a instanceof OptionSpec o && (o.usageHelp() || o.versionHelp() || o.negatable() || o.group() != null)) {
            return "stop";
        }
        if (!a.splitRegex().isEmpty() || (a.converters() != null && a.converters().length > 0)
                || a.parameterConsumer() != null || a.interactive() || !(a.userObject() instanceof Field)
                || !a.preprocessor().getClass().getSimpleName().equals("NoOpParameterPreprocessor")) {
            return "stop";
        }
        Class<?> t = a.type();
        int min = a.arity().min();
        int max = a.arity().max();
        if ((t == boolean.class || t == Boolean.class) && max == 0) {
            return "flag";
        }
        if (a instanceof OptionSpec && (min != 1 || max != 1)) {
            return "stop";
        }
        if (t == Path.class) {
            return "path";
        }
        if (t == String.class) {
            return "string";
        }
        if (t.isEnum()) {
            return "enum";
        }
        if (a instanceof PositionalParamSpec && t == List.class && a.auxiliaryTypes().length == 1
                && a.auxiliaryTypes()[0] == Path.class) {
            return "paths";
        }
        return "stop";
    }
}
