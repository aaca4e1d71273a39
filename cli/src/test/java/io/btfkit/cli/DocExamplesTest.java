package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.btfkit.core.TestData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the command examples of README.md and docs/*.md ({@link DocExamples}) and compares what
 * they print with what the docs show, so that the docs can be followed literally.
 *
 * <p>Each document's examples run in order in one bash, as a reader would type them, in a copy
 * of the repository root made of symbolic links (outputs such as {@code roles.btf} land there,
 * not in the checkout) with {@code ../shared} beside it. {@code ./btfkit} and {@code btfkit} run
 * the cli classes under test (the launcher only builds the jar and runs it), and {@code /tmp/}
 * is a temporary directory (and is printed back as {@code /tmp/}). A command that uses an
 * external tool (readelf, bpftool, ...) is not run, and its test is skipped with the reason,
 * when the tool is missing or BTFKIT_TEST_NO_TOOLS is set.
 */
class DocExamplesTest {
    /** Tools the examples may call; a command naming a missing one is skipped. */
    private static final List<String> TOOLS = List.of("readelf", "bpftool", "gcc", "clang", "objcopy",
            "llvm-objcopy", "pahole", "mvn");

    @TempDir
    static Path work;

    @TestFactory
    Stream<DynamicContainer> examplesPrintWhatTheDocsShow() throws IOException, InterruptedException {
        Path root = TestData.root();
        Path shared = TestData.shared();
        Assumptions.assumeTrue(Files.isDirectory(shared), "skipped: " + shared + " (the docs' data) not available");
        Path repo = mirror(root, shared);
        Path bin = wrapper();
        List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> s = Files.list(root.resolve("docs"))) {
            s.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        List<DynamicContainer> out = new ArrayList<>();
        for (Path doc : docs) {
            String name = root.relativize(doc).toString();
            List<DocExamples.Example> examples = DocExamples.parse(name, Files.readString(doc));
            if (examples.isEmpty()) {
                continue;
            }
            java.util.Set<String> before = entries(repo);
            List<Result> results = run(name, examples, repo, bin);
            java.util.Set<String> left = entries(repo);
            left.removeAll(before);
            Stream<DynamicTest> tests = Stream.concat(results.stream().map(DocExamplesTest::check),
                    Stream.of(DynamicTest.dynamicTest("leaves nothing in the checkout", () -> assertEquals(
                            java.util.Set.of(), left, name + ": a reader following it from the repository root would be left these"))));
            out.add(DynamicContainer.dynamicContainer(name, tests));
        }
        return out.stream();
    }

    /** What one command printed, or why it was not run. */
    private record Result(DocExamples.Example example, String skipped, List<String> printed) {
    }

    private static DynamicTest check(Result r) {
        return DynamicTest.dynamicTest(r.example().label(), () -> {
            Assumptions.assumeTrue(r.skipped() == null, () -> "skipped: " + r.skipped());
            if (!DocExamples.matches(r.example().shown(), r.printed())) {
                fail(r.example().label() + "\n--- the doc shows:\n" + String.join("\n", r.example().shown())
                        + "\n--- it printed:\n" + String.join("\n", r.printed()));
            }
        });
    }

    private static java.util.Set<String> entries(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
        }
    }

    /** A directory {@code repo} of links to the checkout's entries, with {@code shared} beside it. */
    private static Path mirror(Path root, Path shared) throws IOException {
        Path repo = Files.createDirectories(work.resolve("repo"));
        try (Stream<Path> s = Files.list(root)) {
            for (Path e : (Iterable<Path>) s::iterator) {
                String n = e.getFileName().toString();
                if (!n.equals(".git") && !n.equals("target")) {
                    Files.createSymbolicLink(repo.resolve(n), e.toAbsolutePath());
                }
            }
        }
        Files.createSymbolicLink(work.resolve("shared"), shared.toAbsolutePath());
        Files.createDirectories(work.resolve("tmp"));
        return repo;
    }

    /** A {@code btfkit} on PATH that runs the classes under test with the launcher's JVM flags. */
    private static Path wrapper() throws IOException {
        Path bin = Files.createDirectories(work.resolve("bin"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String script = "#!/bin/sh\nexec " + quote(java)
                + " -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData -Xss16m -Xshare:auto -cp "
                + quote(System.getProperty("java.class.path")) + " io.btfkit.cli.Main \"$@\"\n";
        Path f = bin.resolve("btfkit");
        Files.writeString(f, script);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin;
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** Why {@code command} cannot run here (a tool it calls is missing), or null. */
    static String missingTool(String command) {
        for (String tool : TOOLS) {
            if (Pattern.compile("(^|[\\s|;&(`])" + Pattern.quote(tool) + "(\\s|$)").matcher(command).find()) {
                String why = TestData.whyMissing(tool);
                if (why != null) {
                    return why;
                }
            }
        }
        return null;
    }

    /** {@code ./btfkit} becomes the {@code btfkit} on PATH; {@code /tmp/} the test's own. */
    static String rewrite(String command, Path tmp) {
        String c = command.replaceAll("(^|[\\s|;&(`])\\./btfkit(?=\\s|$)", "$1btfkit");
        return c.replace("/tmp/", tmp + "/");
    }

    /** Runs a document's examples in order in one bash and collects each one's output. */
    private static List<Result> run(String doc, List<DocExamples.Example> examples, Path repo, Path bin)
            throws IOException, InterruptedException {
        Path tmp = work.resolve("tmp");
        Path outs = Files.createDirectories(work.resolve("out").resolve(doc.replace('/', '_')));
        StringBuilder script = new StringBuilder("__rc=0\n");
        List<String> skipped = new ArrayList<>();
        int toolMissingInBlock = -1;
        String toolMissing = null;
        for (int i = 0; i < examples.size(); i++) {
            DocExamples.Example e = examples.get(i);
            String why = e.notRun() != null ? "not run by the docs test: " + e.notRun() : missingTool(e.command());
            if (why == null && e.block() == toolMissingInBlock) {
                why = "follows a command of its block that was not run: " + toolMissing; // (it uses that one's output)
            } else if (why != null && e.notRun() == null) {
                toolMissingInBlock = e.block();
                toolMissing = why;
            }
            skipped.add(why);
            if (why != null) {
                continue;
            }
            // $? of the previous example survives the bookkeeping, for "echo $?" examples
            script.append("(exit $__rc); { ").append(rewrite(e.command(), tmp)).append("\n} > ")
                    .append(quote(outs.resolve(i + ".out").toString())).append(" 2>&1 < /dev/null; __rc=$?\n");
        }
        Path scriptFile = outs.resolve("examples.sh");
        Files.writeString(scriptFile, script);
        ProcessBuilder pb = new ProcessBuilder("bash", scriptFile.toString()).directory(repo.toFile())
                .redirectErrorStream(true).redirectOutput(outs.resolve("bash.log").toFile());
        // (the sbin directories too, where bpftool lives, as TestData.tool looks there)
        pb.environment().put("PATH", bin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin") + ":/usr/sbin:/sbin");
        pb.environment().put("LC_ALL", "C");
        Process p = pb.start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            fail(doc + ": examples did not finish in 10 minutes");
        }
        List<Result> results = new ArrayList<>();
        for (int i = 0; i < examples.size(); i++) {
            List<String> printed = List.of();
            Path f = outs.resolve(i + ".out");
            if (skipped.get(i) == null) {
                String text = Files.exists(f) ? Files.readString(f, StandardCharsets.UTF_8) : "(no output file: the script stopped before)";
                text = text.replace(tmp + "/", "/tmp/").replace(repo + "/", "");
                printed = text.isEmpty() ? List.of() : List.of(text.split("\n", -1));
                if (!printed.isEmpty() && printed.get(printed.size() - 1).isEmpty()) {
                    printed = printed.subList(0, printed.size() - 1);
                }
            }
            results.add(new Result(examples.get(i), skipped.get(i), printed));
        }
        return results;
    }

    /**
     * An example that needs a tool says so by calling it: the test runs it where the tool is and
     * skips it, with the reason, where it is not. "Not run" is for what a test must not do
     * (install, the test run itself, data the repository does not have).
     */
    @Test
    void noExampleIsLeftOutMerelyForATool() throws IOException {
        Path root = TestData.root();
        List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> s = Files.list(root.resolve("docs"))) {
            s.filter(f -> f.toString().endsWith(".md")).forEach(docs::add);
        }
        List<String> bad = new ArrayList<>();
        for (Path doc : docs) {
            for (DocExamples.Example e : DocExamples.parse(doc.getFileName().toString(), Files.readString(doc))) {
                for (String tool : TOOLS) {
                    if (e.notRun() != null && e.notRun().matches("(?i).*\\bneeds " + Pattern.quote(tool) + "\\b.*")) {
                        bad.add(e.label() + ": " + e.notRun());
                    }
                }
            }
        }
        assertEquals(List.of(), bad);
    }

    @Test
    void elisionsMatchWhatTheySay() {
        assertTrue(DocExamples.matches(List.of("a", "...", "d"), List.of("a", "b", "c", "d")));
        assertTrue(DocExamples.matches(List.of("a", "...", "d"), List.of("a", "d")));
        assertTrue(DocExamples.matches(List.of("ok in ... s"), List.of("ok in 1.25 s")));
        assertTrue(DocExamples.matches(List.of("x  "), List.of("x")));
        assertFalse(DocExamples.matches(List.of("a", "d"), List.of("a", "b", "d")));
        assertFalse(DocExamples.matches(List.of("a"), List.of("a", "b")));
        assertFalse(DocExamples.matches(List.of("ok in ... s"), List.of("failed in 1 s")));
        assertFalse(DocExamples.matches(List.of("a.b"), List.of("axb")), "only ... is special");
    }

    @Test
    void blocksAreParsedAsTheDocsWriteThem() {
        String md = String.join("\n", "Intro.", "```", "$ echo a \\", "  b", "a b", "$ true", "```", "",
                "*Not run by the docs test:* it needs the 4,023 modules of a kernel.", "", "```", "$ btfkit x", "```",
                "```", "btfkit dump INPUT  (a synopsis)", "```", "");
        List<DocExamples.Example> ex = DocExamples.parse("t.md", md);
        assertEquals(3, ex.size());
        assertEquals("echo a \n  b", ex.get(0).command());
        assertEquals(List.of("a b"), ex.get(0).shown());
        assertEquals(List.of(), ex.get(1).shown());
        assertEquals(null, ex.get(1).notRun());
        assertEquals("it needs the 4,023 modules of a kernel.", ex.get(2).notRun());
        assertThrows(IllegalArgumentException.class, () -> DocExamples.parse("t.md", "```\nout\n$ cmd\n```\n"));
    }

    @Test
    void commandsAreRewrittenOnlyWhereTheyNameTheLauncherOrTmp() {
        Path tmp = Path.of("/w/tmp");
        assertEquals("btfkit link a.o -o /w/tmp/p.btf && btfkit dump /w/tmp/p.btf | head",
                rewrite("./btfkit link a.o -o /tmp/p.btf && ./btfkit dump /tmp/p.btf | head", tmp));
        assertEquals("ls x/btfkit ./btfkitx", rewrite("ls x/btfkit ./btfkitx", tmp));
    }
}
