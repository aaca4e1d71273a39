package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Help that reads like a man page's synopsis: every option and argument described, examples
 * whole at any width (each one line that can be copied), {@code --opt VALUE} and not picocli's
 * {@code -B=B}, and only values that work.
 */
class HelpTest {
    static Map<String, CommandLine> btfkitCommands() {
        Map<String, CommandLine> m = new java.util.LinkedHashMap<>(Main.commandLine().getSubcommands());
        m.remove("help");
        m.remove("generate-completion");
        return m;
    }

    static String help(CommandLine cl, int width) {
        int old = cl.getCommandSpec().usageMessage().width();
        cl.getCommandSpec().usageMessage().width(width);
        try {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            cl.usage(new PrintStream(bos, true, StandardCharsets.UTF_8), CommandLine.Help.Ansi.OFF);
            return bos.toString(StandardCharsets.UTF_8);
        } finally {
            cl.getCommandSpec().usageMessage().width(old);
        }
    }

    @Test
    void everyOptionAndArgumentIsDescribed() {
        List<String> bare = new ArrayList<>();
        btfkitCommands().forEach((name, cl) -> {
            for (ArgSpec a : cl.getCommandSpec().args()) {
                if (String.join("", a.description()).isBlank()) {
                    bare.add(name + " " + (a instanceof CommandLine.Model.OptionSpec o ? o.longestName() : a.paramLabel()));
                }
            }
        });
        assertEquals(List.of(), bare);
    }

    @Test
    void examplesAreWholeAtAnyWidth() {
        for (int width : new int[] {55, 80, 100, 160}) {
            for (Map.Entry<String, CommandLine> e : btfkitCommands().entrySet()) {
                CommandSpec spec = e.getValue().getCommandSpec();
                String text = help(e.getValue(), width);
                List<String> lines = List.of(text.split("\n"));
                int examples = 0;
                for (String f : spec.usageMessage().footer()) {
                    if (f.startsWith("  btfkit")) {
                        examples++;
                        assertTrue(lines.contains(f), e.getKey() + " at " + width + ": example cut: " + f + "\n" + text);
                    }
                }
                assertTrue(examples > 0, e.getKey() + " has examples");
                for (String l : lines) {
                    boolean example = l.startsWith("  btfkit");
                    boolean longWord = !l.strip().contains(" ");
                    assertTrue(l.length() <= width || example || longWord, e.getKey() + " at " + width + ": line too long: " + l);
                }
            }
        }
    }

    @Test
    void wordsAreNotBrokenAtDots() {
        String text = help(btfkitCommands().get("relocate"), 80);
        assertTrue(text.contains("X.split.btf"), text);
        assertFalse(text.contains("X.\n"), text);
    }

    @Test
    void synopsesSayOptionSpaceValue() {
        btfkitCommands().forEach((name, cl) -> {
            String text = help(cl, 80);
            String synopsis = text.substring(0, text.indexOf('\n', text.indexOf(name)));
            assertFalse(text.matches("(?s).*(^|[\\s\\[(|])-[-\\w]+=[A-Z].*"), name + ": an '=' between option and value:\n" + text);
            assertTrue(synopsis.startsWith("Usage: btfkit " + name), synopsis);
        });
        assertTrue(help(btfkitCommands().get("distill"), 80).contains("[--base-out OUT_BASE]"));
    }

    /** Every --out-format value a help lists is one the command can write: asm and link write no ELF. */
    @Test
    void asmAndLinkOfferNoElf() {
        for (String name : List.of("asm", "link")) {
            String text = help(btfkitCommands().get(name), 200);
            String line = text.lines().filter(l -> l.contains("--out-format FMT ")).findFirst().orElseThrow();
            assertFalse(line.contains("elf"), name + ": " + line);
        }
        for (String name : List.of("convert", "dedup", "permute", "distill", "relocate")) {
            assertTrue(help(btfkitCommands().get(name), 200).contains("elf (copy of an ELF input"), name);
        }
    }
}
