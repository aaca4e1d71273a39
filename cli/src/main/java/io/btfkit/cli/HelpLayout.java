package io.btfkit.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * How help reads: option values shown as {@code --base B} (not picocli's {@code -B=B}; the
 * command line still takes {@code --base=B}), descriptions wrapped at spaces only (picocli also
 * breaks after a dot: {@code X.} / {@code split.btf}), and examples — footer lines indented by
 * two spaces — never wrapped, so each can be copied as one command line.
 */
final class HelpLayout {
    private HelpLayout() {
    }

    /** Applies the layout to {@code cl} and its subcommands. */
    static void apply(CommandLine cl) {
        CommandLine.IHelpSectionRenderer options = cl.getHelpSectionMap().get(UsageMessageSpec.SECTION_KEY_OPTION_LIST);
        cl.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, help -> withSpaceSeparator(help, options));
        CommandLine.IHelpSectionRenderer synopsis = cl.getHelpSectionMap().get(UsageMessageSpec.SECTION_KEY_SYNOPSIS);
        cl.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_SYNOPSIS, help -> synopsis(help, synopsis));
        cl.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_DESCRIPTION,
                help -> text(help.commandSpec().usageMessage().description(), width(help), false));
        cl.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_FOOTER,
                help -> text(help.commandSpec().usageMessage().footer(), width(help), true));
        cl.getSubcommands().values().forEach(HelpLayout::apply);
    }

    private static String withSpaceSeparator(CommandLine.Help help, CommandLine.IHelpSectionRenderer picocli) {
        CommandLine.Model.ParserSpec parser = help.commandSpec().parser();
        String old = parser.separator();
        parser.separator(" ");
        try {
            return picocli.render(help);
        } finally {
            parser.separator(old);
        }
    }

    /**
     * picocli's synopsis, drawn on one line and wrapped again between its elements, never inside
     * one ({@code [--base-out OUT_BASE]} stays together), with {@code --opt VALUE} for {@code --opt=VALUE}.
     */
    private static String synopsis(CommandLine.Help help, CommandLine.IHelpSectionRenderer picocli) {
        UsageMessageSpec usage = help.commandSpec().usageMessage();
        int width = usage.width();
        String line;
        usage.width(Integer.MAX_VALUE / 4);
        try {
            line = picocli.render(help).strip().replaceAll("\\s+", " ");
        } finally {
            usage.width(width);
        }
        List<String> elements = elements(line);
        // "btfkit distill" stays on the first line, after the heading ("Usage: "); the rest
        // wraps under the first option
        int head = Math.min(help.commandSpec().qualifiedName().split(" ").length, elements.size());
        String first = String.join(" ", elements.subList(0, head));
        StringBuilder sb = new StringBuilder(first);
        int col = help.synopsisHeadingLength() + first.length();
        String indent = " ".repeat(Math.min(col + 1, width / 2));
        List<String> words = new ArrayList<>();
        for (String e : elements.subList(head, elements.size())) {
            // an element wider than a line (an argument group) wraps at its own spaces
            words.addAll(indent.length() + e.length() > width ? List.of(e.split(" ")) : List.of(e));
        }
        for (String e : words) {
            if (col + 1 + e.length() > width && col > indent.length()) {
                sb.append('\n').append(indent).append(e);
                col = indent.length() + e.length();
            } else {
                sb.append(' ').append(e);
                col += 1 + e.length();
            }
        }
        return sb.append('\n').toString();
    }

    /**
     * The elements of a one-line synopsis ({@code btfkit}, {@code distill}, {@code [-hqV]},
     * {@code -B B}, {@code [--base-out OUT_BASE]}, ...): split at spaces outside brackets, with
     * {@code --opt VALUE} for picocli's {@code --opt=VALUE}.
     */
    static List<String> elements(String line) {
        List<String> elements = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= line.length(); i++) {
            char c = i < line.length() ? line.charAt(i) : ' ';
            depth += c == '[' || c == '(' ? 1 : c == ']' || c == ')' ? -1 : 0;
            if (c == ' ' && depth <= 0) {
                if (i > start) {
                    elements.add(line.substring(start, i).replaceAll("(^|[\\s\\[(|])(-[-\\w]+)=", "$1$2 "));
                }
                start = i + 1;
            }
        }
        return elements;
    }

    /** {@code spec}'s synopsis as one line of elements (for man pages). */
    static List<String> synopsisElements(CommandLine.Model.CommandSpec spec) {
        CommandLine.Help help = new CommandLine.Help(spec, CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        UsageMessageSpec usage = spec.usageMessage();
        int width = usage.width();
        usage.width(Integer.MAX_VALUE / 4);
        try {
            return elements(help.synopsis(0).strip().replaceAll("\\s+", " "));
        } finally {
            usage.width(width);
        }
    }

    private static int width(CommandLine.Help help) {
        return help.commandSpec().usageMessage().width();
    }

    /**
     * {@code lines}, each wrapped at spaces to {@code width} columns (a word longer than that
     * stays whole); with {@code examples}, a line indented by two spaces is printed as it is.
     */
    static String text(String[] lines, int width, boolean examples) {
        StringBuilder sb = new StringBuilder();
        for (String line : lines) {
            // (picocli's line break %n and escaped %%, as its own renderer reads them)
            for (String part : line.replace("%n", "\n").replace("%%", "%").split("\n", -1)) {
                if (examples && part.startsWith("  ")) {
                    sb.append(part).append('\n');
                } else {
                    wrap(part, width, sb);
                }
            }
        }
        return sb.toString();
    }

    private static void wrap(String text, int width, StringBuilder sb) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (String word : text.split(" ")) {
            if (cur.length() > 0 && cur.length() + 1 + word.length() > width) {
                out.add(cur.toString());
                cur.setLength(0);
            }
            cur.append(cur.length() > 0 ? " " : "").append(word);
        }
        out.add(cur.toString());
        for (String l : out) {
            sb.append(l).append('\n');
        }
    }
}
