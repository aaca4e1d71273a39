package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code btfkit generate-completion} describes every command, option and enumerated value:
 * the script is sourced into bash and its completion function asked what it offers after
 * {@code btfkit }, {@code btfkit dedup --} and {@code btfkit dump --format }, as bash would ask
 * on Tab (COMP_WORDS, COMP_CWORD, COMP_LINE set; COMPREPLY read back).
 */
class CompletionTest {
    @TempDir
    static Path dir;
    static Path script;

    @BeforeAll
    static void generate() throws IOException {
        Cli r = Cli.run("generate-completion");
        assertEquals(0, r.exit, r.toString());
        script = dir.resolve("btfkit");
        Files.write(script, r.out);
    }

    @Test
    void theScriptNamesEveryCommandOptionAndValue() throws IOException {
        String s = Files.readString(script);
        for (String w : List.of("dedup", "--base", "--base-btf", "'-B'", "--out-dir", "\"raw\" \"json\" \"c\" \"summary\"", "--pretty")) {
            assertTrue(s.contains(w), w + " missing from the completion script");
        }
        for (String n : Main.NAMES) {
            assertTrue(s.contains("_picocli_btfkit_" + n.replace("-", "")), n + " has no completion function");
        }
    }

    @Test
    void tabAfterTheCommandOffersEveryCommand() throws Exception {
        List<String> got = complete("btfkit", "");
        for (String n : Main.NAMES) {
            assertTrue(got.contains(n), n + " not offered: " + got);
        }
    }

    @Test
    void tabAfterDashDashOffersTheCommandsOptions() throws Exception {
        List<String> got = complete("btfkit", "dedup", "--");
        for (String o : List.of("--base", "--base-btf", "--out-dir", "--out-format", "--map", "--help")) {
            assertTrue(got.contains(o), o + " not offered: " + got);
        }
        assertTrue(complete("btfkit", "link", "a.o", "--").contains("--verbose"));
    }

    @Test
    void tabAfterAnEnumOptionOffersItsValues() throws Exception {
        assertEquals(List.of("raw", "json", "c", "summary"), complete("btfkit", "dump", "x.btf", "--format", ""));
        assertEquals(List.of("json"), complete("btfkit", "dump", "x.btf", "--format", "j"));
        assertEquals(List.of("raw", "text", "elf"), complete("btfkit", "dedup", "x.btf", "--out-format", ""));
    }

    /** What the completion function puts in COMPREPLY for the command line {@code words} (the last one being typed). */
    private static List<String> complete(String... words) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "bash is not installed: completion not run");
        // (compopt works only inside a completion bash itself started: a stub stands in for it)
        StringBuilder sh = new StringBuilder("compopt() { :; }\nsource \"$1\"\nCOMP_WORDS=(");
        for (String w : words) {
            sh.append('\'').append(w).append("' ");
        }
        sh.append(")\nCOMP_CWORD=").append(words.length - 1).append("\nCOMP_LINE='").append(String.join(" ", words))
                .append("'\nCOMP_POINT=${#COMP_LINE}\n_complete_btfkit\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n");
        Process p = new ProcessBuilder("/bin/bash", "-c", sh.toString(), "bash", script.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        List<String> got = new ArrayList<>();
        for (String l : out.split("\n")) {
            if (!l.isBlank()) {
                got.add(l.strip());
            }
        }
        return got;
    }
}
