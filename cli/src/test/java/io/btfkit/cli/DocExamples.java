package io.btfkit.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command examples of a Markdown document and how their shown output is compared.
 *
 * <p>An example is a fenced block holding lines that start with {@code $ }: each such line is a
 * command (a trailing {@code \} continues it on the next line), the lines up to the next command
 * are what it prints, stdout and stderr together. In the shown output a line {@code ...} stands
 * for any number of lines, and {@code ...} inside a line for any text (timings, versions). A
 * block preceded by a paragraph line starting with {@code *Not run by the docs test:*} is not run; the rest of that
 * line says why. Fenced blocks without a {@code $ } line are not examples (usage synopses,
 * file contents).
 */
final class DocExamples {
    private DocExamples() {
    }

    /** One command of a document, with its output as shown; {@code block}: the line of its code block's fence. */
    record Example(String doc, int line, String command, List<String> shown, String notRun, int block) {
        String label() {
            return doc + ":" + line + " $ " + command;
        }
    }

    static final String ELISION = "...";
    static final String NOT_RUN = "*Not run by the docs test:*";

    private static final Pattern FENCE = Pattern.compile("^\\s*```");

    /** The examples of {@code text}, in document order; bad shapes throw with the line. */
    static List<Example> parse(String doc, String text) {
        List<Example> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        String lastProse = "";
        for (int i = 0; i < lines.length; i++) {
            if (!FENCE.matcher(lines[i]).find()) {
                if (!lines[i].isBlank()) {
                    lastProse = lines[i].strip();
                }
                continue;
            }
            int start = i + 1;
            int end = start;
            while (end < lines.length && !FENCE.matcher(lines[end]).find()) {
                end++;
            }
            String notRun = null;
            if (lastProse.startsWith(NOT_RUN)) {
                notRun = lastProse.substring(NOT_RUN.length()).strip();
                if (notRun.isEmpty()) {
                    throw new IllegalArgumentException(doc + ":" + i + ": " + NOT_RUN + " without a reason");
                }
            }
            block(doc, lines, start, end, notRun, out);
            lastProse = "";
            i = end;
        }
        return out;
    }

    private static void block(String doc, String[] lines, int start, int end, String notRun, List<Example> out) {
        boolean example = false;
        for (int i = start; i < end; i++) {
            example |= lines[i].startsWith("$ ");
        }
        if (!example) {
            return;
        }
        int i = start;
        while (i < end) {
            if (!lines[i].startsWith("$ ")) {
                throw new IllegalArgumentException(doc + ":" + (i + 1) + ": output before the block's first command");
            }
            int line = i + 1;
            StringBuilder cmd = new StringBuilder(lines[i].substring(2));
            while (cmd.toString().endsWith("\\") && i + 1 < end) {
                cmd.setLength(cmd.length() - 1);
                cmd.append('\n').append(lines[++i]);
            }
            i++;
            List<String> shown = new ArrayList<>();
            while (i < end && !lines[i].startsWith("$ ")) {
                shown.add(lines[i]);
                i++;
            }
            out.add(new Example(doc, line, cmd.toString(), shown, notRun, start));
        }
    }

    /** Whether {@code actual} is what {@code shown} shows (trailing blanks ignored, elisions honoured). */
    static boolean matches(List<String> shown, List<String> actual) {
        List<Pattern> want = new ArrayList<>();
        for (String s : shown) {
            want.add(s.strip().equals(ELISION) ? null : linePattern(s.stripTrailing()));
        }
        // reachable[j]: the shown lines so far can match the first j actual lines
        boolean[] reachable = new boolean[actual.size() + 1];
        reachable[0] = true;
        for (Pattern p : want) {
            boolean[] next = new boolean[actual.size() + 1];
            for (int j = 0; j <= actual.size(); j++) {
                if (!reachable[j]) {
                    continue;
                }
                if (p == null) {
                    for (int k = j; k <= actual.size(); k++) {
                        next[k] = true;
                    }
                    break;
                }
                if (j < actual.size() && p.matcher(actual.get(j).stripTrailing()).matches()) {
                    next[j + 1] = true;
                }
            }
            reachable = next;
        }
        return reachable[actual.size()];
    }

    private static Pattern linePattern(String shown) {
        StringBuilder re = new StringBuilder();
        Matcher m = Pattern.compile(Pattern.quote(ELISION)).matcher(shown);
        int at = 0;
        while (m.find()) {
            re.append(Pattern.quote(shown.substring(at, m.start()))).append(".*");
            at = m.end();
        }
        re.append(Pattern.quote(shown.substring(at)));
        return Pattern.compile(re.toString());
    }
}
