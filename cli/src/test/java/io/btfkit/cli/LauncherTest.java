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

    /**
     * With its archive, the JVM maps it where it was dumped rather than relocating every pointer
     * in it (JDK 17.0.15's default): the launcher's option is one this JVM takes, silently.
     */
    @Test
    void theArchiveIsMappedWhereItWasDumped() throws Exception {
        Path dir = java.nio.file.Files.createTempDirectory("cds");
        Path jsa = dir.resolve("btfkit.jsa");
        // (the JDK's own class list: what is archived does not matter here, where it is mapped does)
        Process dump = new ProcessBuilder("java", "-Xshare:dump", "-XX:SharedArchiveFile=" + jsa, "-Xlog:cds=off")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(dump.waitFor() == 0 && java.nio.file.Files.isRegularFile(jsa),
                "this JVM dumps no archive: the launcher asks for none");
        String script = ". '" + FLAGS + "'; btfkit_cds \"$D\" dump; btfkit_jvm_flags dump; exec java \"${cds[@]}\""
                + " \"${jvm[@]}\" -Xlog:cds=info -Xshare:on -cp \"$CP\" io.btfkit.cli.Main --version";
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true);
        pb.environment().put("D", dir.toString());
        pb.environment().put("CP", System.getProperty("java.class.path"));
        pb.environment().remove("BTFKIT_JAVA_OPTS");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int status = p.waitFor();
        java.nio.file.Files.delete(jsa); // (12 MB)
        java.nio.file.Files.delete(dir);
        assertEquals(0, status, out);
        assertTrue(out.contains("btfkit "), out);
        assertTrue(!out.contains("alternative address"), "mapped as dumped: " + out);
        assertTrue(!out.toLowerCase(java.util.Locale.ROOT).contains("warning"), out);
    }

    /** The launcher's JVM options for btfkit's command line {@code args}, the kernel's huge-page setting read from {@code setting}. */
    private static List<String> flagsFor(String setting, String userOpts, String... args) throws Exception {
        Path file = java.nio.file.Files.createTempFile("thp", ".setting");
        java.nio.file.Files.writeString(file, setting + "\n");
        String script = ". '" + FLAGS + "'; btfkit_jvm_flags \"$@\"; printf '%s\\n' \"${jvm[@]}\"";
        List<String> cmd = new java.util.ArrayList<>(List.of("bash", "-c", script, "flags"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("BTFKIT_THP_SETTING", file.toString());
        pb.environment().put("BTFKIT_JAVA_OPTS", userOpts);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        return List.of(out.strip().split("\n"));
    }

    private static final String THP = "-XX:+UseTransparentHugePages";

    /**
     * Huge pages for link and the batch modes only, and only where the kernel gives them on
     * request; the user's options come after them (so -XX:-UseTransparentHugePages wins).
     */
    @Test
    void linksAndBatchesAskForHugePagesWhereTheKernelGivesThemOnRequest() throws Exception {
        String madvise = "always [madvise] never";
        assertTrue(flagsFor(madvise, "", "link", "a.btf", "b.btf").contains(THP));
        assertTrue(flagsFor(madvise, "", "dedup", "--out-dir", "d", "a.ko").contains(THP));
        assertTrue(flagsFor(madvise, "", "distill", "--out-dir=d", "a.ko").contains(THP));
        assertTrue(!flagsFor(madvise, "", "dedup", "vmlinux").contains(THP), "a single input");
        assertTrue(!flagsFor(madvise, "", "dump", "link").contains(THP), "an argument named link");
        assertTrue(!flagsFor(madvise, "").contains(THP), "no command line");
        assertTrue(!flagsFor("[always] madvise never", "", "link", "a").contains(THP), "every heap has them");
        assertTrue(!flagsFor("always madvise [never]", "", "link", "a").contains(THP), "none to give");
        List<String> off = flagsFor(madvise, "-XX:-UseTransparentHugePages", "link", "a");
        assertTrue(off.indexOf(THP) < off.indexOf("-XX:-UseTransparentHugePages"), "the user's option last: " + off);
    }

    /** Where this machine's kernel gives huge pages on request, a JVM asking for them says nothing about it. */
    @Test
    void theJvmAskingForHugePagesSaysNothing() throws Exception {
        Path setting = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isReadable(setting)
                && java.nio.file.Files.readString(setting).contains("[madvise]"),
                "the kernel gives no huge pages on request here: the launcher does not ask");
        String[] r = runWith(THP);
        assertEquals("0", r[0], r[1]);
        assertTrue(r[1].startsWith("btfkit "), "only the version, no JVM warning: " + r[1]);
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
