package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;

/** The command table: names in step with the annotations, one-command start-up, help for all. */
class MainTest {
    @Test
    void namesMatchTheAnnotations() {
        List<String> annotated = new ArrayList<>();
        for (Class<?> c : Main.commandClasses()) {
            annotated.add(c.getAnnotation(Command.class).name());
        }
        assertEquals(annotated, List.of(Main.NAMES));
    }

    @Test
    void aNamedCommandBuildsOnlyItself() {
        assertEquals(List.of("validate"), List.copyOf(Main.commandLine("validate").getSubcommands().keySet()));
        assertEquals(Main.NAMES.length, Main.commandLine("help").getSubcommands().size());
        assertEquals(Main.NAMES.length, Main.commandLine("--help").getSubcommands().size());
        assertEquals(Main.NAMES.length, Main.commandLine("generate-completion").getSubcommands().size(),
                "the completion script describes every command");
    }

    @Test
    void btfkitAloneListsTheCommandsOnStderr() {
        Cli r = Cli.run();
        assertEquals(2, r.exit, r.toString());
        assertEquals("", r.outText());
        for (String n : Main.NAMES) {
            assertTrue(r.err.contains("  " + n), () -> n + " missing from the list: " + r.err);
        }
    }

    @Test
    void helpListsEveryCommand() {
        Cli r = Cli.run("--help");
        assertEquals(0, r.exit, r.toString());
        String out = new String(r.out, java.nio.charset.StandardCharsets.UTF_8);
        for (String n : Main.NAMES) {
            assertTrue(out.contains("  " + n), () -> n + " missing from --help: " + out);
        }
    }

    @Test
    void anUnknownCommandIsAUsageError() {
        Cli r = Cli.run("frobnicate", "x.btf");
        assertEquals(2, r.exit, r.toString());
        assertTrue(r.err.startsWith("btfkit: "), r.err);
    }
}
