package io.btfkit.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Writes the man pages, roff for {@code man(7)}, from the command-line model itself (the picocli
 * annotations, as help and bash completion are): {@code btfkit.1} (the commands, environment,
 * exit status) and {@code btfkit-COMMAND.1} per command (synopsis, description, arguments,
 * options, examples), so a page cannot drift from the command it describes. The build runs it
 * after compiling ({@code cli/target/man/}); {@code install.sh} and the Debian package install
 * the pages. (picocli-codegen's generator writes AsciiDoc, which needs asciidoctor to become
 * roff: this writes roff directly, with no tool beyond the JDK.)
 */
public final class ManPages {
    /** Commands of picocli's own that get no page of their own (help lists them). */
    private static final List<String> NOT_PAGED = List.of("help", "generate-completion");

    private ManPages() {
    }

    /** Usage: {@code ManPages OUTPUT_DIR}. */
    public static void main(String[] args) throws IOException {
        Path dir = Files.createDirectories(Paths.get(args[0]));
        for (Map.Entry<String, String> page : pages().entrySet()) {
            Files.writeString(dir.resolve(page.getKey()), page.getValue(), StandardCharsets.UTF_8);
        }
    }

    /** File name → roff text: btfkit.1 first, then one page per command in help order. */
    static Map<String, String> pages() {
        Map<String, String> out = new LinkedHashMap<>();
        CommandLine top = Main.commandLine();
        out.put("btfkit.1", mainPage(top.getCommandSpec()));
        top.getSubcommands().forEach((name, cl) -> {
            if (!NOT_PAGED.contains(name)) {
                out.put("btfkit-" + name + ".1", commandPage(name, cl.getCommandSpec()));
            }
        });
        return out;
    }

    private static String header(String title, String summary) {
        return ".\\\" generated from btfkit's command-line definition (io.btfkit.cli.ManPages); do not edit\n"
                + ".TH " + escape(title.toUpperCase(java.util.Locale.ROOT)) + " 1 \"\" \"btfkit " + escape(Version.get())
                + "\" \"btfkit manual\"\n.SH NAME\n" + escape(title) + " \\- " + escape(summary) + "\n";
    }

    private static String mainPage(CommandSpec spec) {
        StringBuilder sb = new StringBuilder(header("btfkit", firstSentence(spec.usageMessage().description())));
        sb.append(".SH SYNOPSIS\n.B btfkit\n.I COMMAND\n[\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]\n.br\n.B btfkit help\n.I COMMAND\n");
        sb.append(".SH DESCRIPTION\n");
        paragraphs(sb, spec.usageMessage().description());
        sb.append(".PP\nEvery input may be raw BTF (either byte order), an ELF file (objects, kernel modules, vmlinux),"
                + " xz, zstd or gzip compressed, a kernel image, a tar of one BTF file, or bpftool's raw text, detected"
                + " by content; \\fB\\-\\fR is standard input (and, as an output, standard output). Outputs are written"
                + " atomically. bpftool's and pahole's spellings work: \\fB\\-B\\fR, \\fB\\-\\-base\\-btf\\fR and"
                + " \\fB\\-\\-btf_base\\fR for \\fB\\-\\-base\\fR; \\fB\\-j\\fR and \\fB\\-p\\fR for JSON;"
                + " \\fB\\-C\\fR \\fINAME\\fR for a C header of one type.\n");
        sb.append(".SH COMMANDS\n");
        spec.subcommands().forEach((name, cl) -> {
            if (!NOT_PAGED.contains(name)) {
                sb.append(".TP\n.BR btfkit\\-").append(escape(name)).append(" (1)\n")
                        .append(escape(firstSentence(cl.getCommandSpec().usageMessage().description()))).append('\n');
            }
        });
        sb.append(".TP\n.B btfkit help \\fICOMMAND\\fR\nThe options and examples of \\fICOMMAND\\fR.\n");
        sb.append(".TP\n.B btfkit generate\\-completion\nThe bash completion script (install.sh installs it).\n");
        sb.append(".SH OPTIONS\n");
        options(sb, spec);
        sb.append(".SH ENVIRONMENT\n");
        env(sb, "BTFKIT_JAVA_OPTS", "Options for the Java virtual machine, e.g. \\-Xmx8g for a larger heap.");
        env(sb, "BTFKIT_MAX_INPUT", "The most bytes one input may take once read and decompressed: a byte count, or with K,"
                + " M or G (default 1G, at most 2047M).");
        env(sb, "BTFKIT_DEBUG", "When set, an internal error prints its stack trace.");
        env(sb, "COLUMNS", "The width of the progress bar of a batch run (else the terminal's).");
        sb.append(".SH EXIT STATUS\n.TP\n.B 0\nSuccess.\n.TP\n.B 1\nThe operation failed on valid input (a relocation"
                + " without a match, a validation finding; in a batch, some input failed).\n.TP\n.B 2\nA usage error,"
                + " malformed input, or an output that could not be written.\n");
        sb.append(".SH SEE ALSO\n.BR bpftool\\-btf (8),\n.BR pahole (1)\n");
        return sb.toString();
    }

    private static void env(StringBuilder sb, String name, String text) {
        sb.append(".TP\n.B ").append(name).append('\n').append(text).append('\n');
    }

    private static String commandPage(String name, CommandSpec spec) {
        StringBuilder sb = new StringBuilder(header("btfkit-" + name, firstSentence(spec.usageMessage().description())));
        sb.append(".SH SYNOPSIS\n.nh\n.ad l\n");
        List<String> elements = HelpLayout.synopsisElements(spec);
        sb.append("\\fB").append(escape(String.join(" ", elements.subList(0, Math.min(2, elements.size()))))).append("\\fR");
        for (String e : elements.subList(Math.min(2, elements.size()), elements.size())) {
            // lines break between elements, not inside one (unless it is longer than a line)
            sb.append(' ').append(e.length() > 50 ? escape(e) : escape(e).replace(" ", "\\ "));
        }
        sb.append("\n.ad\n.hy\n.SH DESCRIPTION\n");
        paragraphs(sb, spec.usageMessage().description());
        if (!spec.positionalParameters().isEmpty()) {
            sb.append(".SH ARGUMENTS\n");
            for (PositionalParamSpec p : spec.positionalParameters()) {
                sb.append(".TP\n.I ").append(escape(p.paramLabel() + (p.arity().max() > 1 ? "..." : ""))).append('\n');
                sb.append(escape(String.join(" ", p.description()))).append('\n');
            }
        }
        sb.append(".SH OPTIONS\n");
        options(sb, spec);
        List<String> examples = new ArrayList<>();
        for (String f : spec.usageMessage().footer()) {
            if (f.startsWith("  ")) {
                examples.add(f.strip());
            }
        }
        if (!examples.isEmpty()) {
            sb.append(".SH EXAMPLES\n.nf\n.RS\n");
            examples.forEach(e -> sb.append(escape(e)).append('\n'));
            sb.append(".RE\n.fi\n");
        }
        sb.append(".SH SEE ALSO\n.BR btfkit (1)\n");
        return sb.toString();
    }

    private static void options(StringBuilder sb, CommandSpec spec) {
        for (OptionSpec o : spec.options()) {
            sb.append(".TP\n");
            List<String> names = new ArrayList<>();
            for (String n : o.names()) {
                names.add("\\fB" + escape(n) + "\\fR");
            }
            sb.append(String.join(", ", names));
            if (o.arity().max() > 0) {
                sb.append(" \\fI").append(escape(o.paramLabel())).append("\\fR");
            }
            sb.append('\n').append(escape(description(o))).append('\n');
        }
    }

    /** An option's description as help shows it ({@code ${DEFAULT-VALUE}} filled in). */
    private static String description(ArgSpec a) {
        String d = String.join(" ", a.description());
        return d.replace("${DEFAULT-VALUE}", String.valueOf(a.defaultValue()));
    }

    private static void paragraphs(StringBuilder sb, String[] lines) {
        for (String l : lines) {
            sb.append(".PP\n").append(escape(l.replace("%n", " "))).append('\n');
        }
    }

    /** The description's first clause, for NAME and the command list: up to a colon or the end of the first sentence. */
    private static String firstSentence(String[] description) {
        String d = description.length == 0 ? "" : description[0];
        for (String stop : List.of(": ", ". ")) {
            int at = d.indexOf(stop);
            d = at > 0 ? d.substring(0, at) : d;
        }
        return d.replaceAll("\\.$", "");
    }

    /** Text safe in roff: backslashes and dashes escaped, a line never starts a request. */
    static String escape(String s) {
        String e = s.replace("\\", "\\e").replace("-", "\\-");
        StringBuilder out = new StringBuilder();
        for (String line : e.split("\n", -1)) {
            if (out.length() > 0) {
                out.append('\n');
            }
            out.append(line.startsWith(".") || line.startsWith("'") ? "\\&" : "").append(line);
        }
        return out.toString();
    }
}
