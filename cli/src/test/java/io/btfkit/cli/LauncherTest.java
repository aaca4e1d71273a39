package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The launchers' JVM flags (cli/src/main/dist/jvm-flags.sh, which ./btfkit sources and the
 * installed launchers copy) with the user's BTFKIT_JAVA_OPTS: the JVM starts whatever heap the
 * user gives, and says nothing of its own about it.
 */
class LauncherTest {
    static final Path FLAGS = TestData.root().resolve("cli/src/main/dist/jvm-flags.sh");

    /** Runs Main --version under the launcher's flags for {@code opts}; returns exit status and all output. */
    static String[] runWith(String opts) throws IOException, InterruptedException {
        String script = ". '" + FLAGS + "'; btfkit_jvm_flags; exec java \"${jvm[@]}\" -cp \"$CP\" io.btfkit.cli.Main --version";
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true);
        pb.environment().put("BTFKIT_JAVA_OPTS", opts);
        pb.environment().put("CP", System.getProperty("java.class.path"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new String[] {Integer.toString(p.waitFor()), out};
    }

    /** The archive option btfkit_cds gives for {@code command} with archives {@code present} in a directory. */
    private static String archiveFor(String command, String... present) throws Exception {
        Path dir = java.nio.file.Files.createTempDirectory("cds");
        for (String a : present) {
            java.nio.file.Files.writeString(dir.resolve(a), "");
        }
        String script = ". '" + FLAGS + "'; btfkit_cds \"$D\" \"$C\"; echo \"${cds[0]:-none}\"";
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true);
        pb.environment().put("D", dir.toString());
        pb.environment().put("C", command);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, p.waitFor(), out);
        return out.replace(dir + "/", "");
    }

    @Test
    void dedupAndLinkMapTheirOwnArchiveTheOthersTheArchiveOfAll() throws Exception {
        String both = "-XX:SharedArchiveFile=";
        assertEquals(both + "btfkit-core.jsa", archiveFor("dedup", "btfkit.jsa", "btfkit-core.jsa"));
        assertEquals(both + "btfkit-core.jsa", archiveFor("link", "btfkit.jsa", "btfkit-core.jsa"));
        assertEquals(both + "btfkit.jsa", archiveFor("dump", "btfkit.jsa", "btfkit-core.jsa"));
        assertEquals(both + "btfkit.jsa", archiveFor("", "btfkit.jsa", "btfkit-core.jsa"));
        // an archive that could not be made (another JVM, a failed dump) is not asked for
        assertEquals(both + "btfkit.jsa", archiveFor("dedup", "btfkit.jsa"));
        assertEquals("none", archiveFor("dump", "btfkit-core.jsa"));
        assertEquals("none", archiveFor("link"));
    }

    @Test
    void aSmallHeapTheUserGivesStarts() throws Exception {
        for (String opts : List.of("-Xmx20m", "-Xmx8m", "-XX:MaxHeapSize=16m", "-Xms8m", "-Xmx2g", "")) {
            String[] r = runWith(opts);
            assertEquals("0", r[0], opts + ": " + r[1]);
            assertTrue(r[1].startsWith("btfkit "), opts + ": only the version, no JVM warning: " + r[1]);
        }
    }
}
