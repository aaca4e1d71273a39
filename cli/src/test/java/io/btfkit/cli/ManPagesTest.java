package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The man pages come from the command-line model: one per command and btfkit(1), each naming
 * every option and example of its command; rendered by groff without a warning, and by man as
 * a reader sees them.
 */
class ManPagesTest {
    @TempDir
    Path tmp;

    @Test
    void aPageForEveryCommandWithEveryOptionAndExample() {
        Map<String, String> pages = ManPages.pages();
        List<String> expected = new ArrayList<>(List.of("btfkit.1"));
        HelpTest.btfkitCommands().keySet().forEach(n -> expected.add("btfkit-" + n + ".1"));
        assertEquals(expected, List.copyOf(pages.keySet()));
        HelpTest.btfkitCommands().forEach((name, cl) -> {
            String page = pages.get("btfkit-" + name + ".1");
            assertTrue(page.startsWith(".\\\" generated from btfkit's command-line definition"), name);
            assertTrue(page.contains("\n.TH BTFKIT\\-" + name.toUpperCase(java.util.Locale.ROOT).replace("-", "\\-") + " 1 "), name);
            for (CommandLine.Model.OptionSpec o : cl.getCommandSpec().options()) {
                for (String n : o.names()) {
                    assertTrue(page.contains("\\fB" + ManPages.escape(n) + "\\fR"), name + ": " + n);
                }
            }
            for (String f : cl.getCommandSpec().usageMessage().footer()) {
                if (f.startsWith("  btfkit")) {
                    assertTrue(page.contains("\n" + ManPages.escape(f.strip()) + "\n"), name + ": " + f);
                }
            }
        });
        String main = pages.get("btfkit.1");
        HelpTest.btfkitCommands().keySet().forEach(n -> assertTrue(main.contains(".BR btfkit\\-" + ManPages.escape(n) + " (1)"), n));
    }

    @Test
    void roffIsEscaped() {
        assertEquals("\\&.BTF \\e \\-\\-base", ManPages.escape(".BTF \\ --base"));
        assertEquals("a\n\\&'b", ManPages.escape("a\n'b"));
    }

    /** groff -ww: every warning on; a page that renders with none is well-formed roff. */
    @Test
    void groffRendersEveryPageWithoutAWarning() throws Exception {
        Path groff = TestData.requireTool("groff");
        for (Map.Entry<String, String> p : ManPages.pages().entrySet()) {
            Path f = tmp.resolve(p.getKey());
            Files.writeString(f, p.getValue());
            Process pr = new ProcessBuilder(groff.toString(), "-man", "-Tutf8", "-ww", "-z", f.toString()).start();
            String err = new String(pr.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, pr.waitFor(), err);
            assertEquals("", err, p.getKey());
        }
    }

    @Test
    void manShowsTheExamplesWhole() throws Exception {
        Path man = TestData.requireTool("man");
        Path f = tmp.resolve("btfkit-distill.1");
        Files.writeString(f, ManPages.pages().get("btfkit-distill.1"));
        ProcessBuilder pb = new ProcessBuilder(man.toString(), "-l", f.toString());
        pb.environment().put("MANWIDTH", "80");
        pb.environment().put("MANPAGER", "cat");
        pb.environment().put("LC_ALL", "C.UTF-8");
        Process pr = pb.redirectErrorStream(true).start();
        String text = new String(pr.getInputStream().readAllBytes(), StandardCharsets.UTF_8).replaceAll(".\b", "");
        assertEquals(0, pr.waitFor(), text);
        assertTrue(text.contains("btfkit-distill - Distill split BTF"), text);
        assertTrue(text.contains("       btfkit distill mod.btf --base vmlinux.btf -o mod.split.btf --base-out mod.base.btf\n"), text);
        assertTrue(text.contains("[--base-out OUT_BASE]"), "an option and its value on one line: " + text);
    }
}
