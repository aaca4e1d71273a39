package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Cyclic shapes through every command that rewrites BTF ({@link CyclicShapes}): dedup, link
 * (with and without dedup), permute, distill and convert either process them — carrying the
 * input's cycles into the output with a warning line, never adding a finding — or refuse with
 * exit status 2; never an internal error. Where libbpf's {@code btf__dedup} (the btfref helper)
 * deduplicates a shape, btfkit keeps as many types, and the same bytes when it keeps the same
 * representatives; libbpf refuses cycles that no struct or union breaks ({@code -ELOOP}),
 * btfkit processes them.
 */
class CyclicShapesProperties {
    private static Path btfref;

    @BeforeContainer
    static void findLibbpfHelper() {
        btfref = TestData.btfref();
        if (btfref == null) {
            System.err.println("CyclicShapesProperties: no libbpf helper (btfref): outputs are not compared with libbpf");
        }
    }

    @Provide
    Arbitrary<String> modifierCycles() {
        return CyclicShapes.modifierRings().list().ofMinSize(1).ofMaxSize(3).map(CyclicShapes::standalone);
    }

    @Provide
    Arbitrary<String> anyCycles() {
        return CyclicShapes.anyRings().list().ofMinSize(1).ofMaxSize(3).map(CyclicShapes::standalone);
    }

    @Provide
    Arbitrary<String> randomGraphs() {
        return CyclicShapes.randomGraphs();
    }

    @Property(tries = 60)
    void modifierAndTypedefCyclesAreCarried(@ForAll("modifierCycles") String text) throws Exception {
        everyCommand(text);
    }

    @Property(tries = 80)
    void pointerPrototypeAndStructCyclesAreCarried(@ForAll("anyCycles") String text) throws Exception {
        everyCommand(text);
    }

    @Property(tries = 80)
    void randomReferenceGraphsAreCarried(@ForAll("randomGraphs") String text) throws Exception {
        everyCommand(text);
    }

    /** Every command on {@code text}: exit 0 with only warning lines, or 2; dedup like libbpf where libbpf succeeds. */
    private static void everyCommand(String text) throws Exception {
        Path dir = Files.createTempDirectory("cyclic");
        try {
            Path txt = dir.resolve("in.txt");
            Files.writeString(txt, text);
            Path in = dir.resolve("in.btf");
            ok(text, "asm", txt.toString(), "-o", in.toString());
            Path d = dir.resolve("d.btf");
            ok(text, "dedup", in.toString(), "-o", d.toString());
            Path dd = dir.resolve("dd.btf");
            ok(text, "dedup", d.toString(), "-o", dd.toString());
            assertArrayEquals(Files.readAllBytes(d), Files.readAllBytes(dd), "dedup is idempotent on\n" + text);
            ok(text, "link", in.toString(), in.toString(), "-o", dir.resolve("l.btf").toString());
            ok(text, "link", "--no-dedup", in.toString(), in.toString(), "-o", dir.resolve("n.btf").toString());
            ok(text, "permute", "--sort", "name", in.toString(), "-o", dir.resolve("p.btf").toString());
            ok(text, "permute", "--sort", "kind", in.toString(), "-o", dir.resolve("k.btf").toString());
            ok(text, "convert", in.toString(), "--endian", "big", "-o", dir.resolve("c.btf").toString());
            // the shape again, as the split part on itself as base: distill, split dedup
            int baseCount = CyclicShapes.ids(text).size() + 1;
            String splitText = shift(text, baseCount - 1);
            Path splitTxt = dir.resolve("split.txt");
            Files.writeString(splitTxt, splitText);
            Path split = dir.resolve("split.btf");
            ok(text, "asm", splitTxt.toString(), "--base", in.toString(), "-o", split.toString());
            ok(text, "distill", split.toString(), "--base", in.toString(), "-o", dir.resolve("ds.btf").toString(),
                    "--base-out", dir.resolve("db.btf").toString());
            ok(text, "dedup", split.toString(), "--base", in.toString(), "-o", dir.resolve("sd.btf").toString());
            if (btfref != null) {
                sameAsLibbpf(text, in, d, dir);
            }
        } finally {
            try (var s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** The command succeeds; its stderr holds warning lines only. */
    private static void ok(String text, String... args) {
        Cli r = Cli.run(args);
        assertEquals(0, r.exit, String.join(" ", args) + ": " + r + "\ninput:\n" + text);
        for (String line : r.err.split("\n")) {
            assertTrue(line.isEmpty() || line.contains(": warning: "), "not a warning: " + line + "\ninput:\n" + text);
        }
    }

    /** Where libbpf dedups the input, btfkit's output is the same bytes. */
    private static void sameAsLibbpf(String text, Path in, Path ours, Path dir) throws IOException, InterruptedException {
        Path ref = dir.resolve("ref.btf");
        Process p = new ProcessBuilder(btfref.toString(), "dedup", "-o", ref.toString(), in.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("btfref hangs on\n" + text);
        }
        if (p.exitValue() != 0) {
            return; // libbpf refuses (a cycle no struct breaks: -ELOOP); btfkit carries it
        }
        Btf expected = BtfReader.read(Files.readAllBytes(ref));
        Btf actual = BtfReader.read(Files.readAllBytes(ours));
        assertEquals(expected.typeCount(), actual.typeCount(), "dedup keeps another number of types than libbpf on\n" + text);
        if (!kinds(expected).equals(kinds(actual))) {
            // same classes, another representative: libbpf keeps the duplicate its depth-first
            // walk of reference types reaches first (a CONST referring to a later copy of a
            // typedef), btfkit the lowest id (DEDUP.md, "Where the output differs")
            return;
        }
        assertEquals(io.btfkit.core.text.RawTextPrinter.toText(expected), io.btfkit.core.text.RawTextPrinter.toText(actual),
                "dedup differs from libbpf on\n" + text);
        assertArrayEquals(Files.readAllBytes(ref), Files.readAllBytes(ours), "dedup bytes differ from libbpf on\n" + text);
    }

    private static String kinds(Btf b) {
        StringBuilder sb = new StringBuilder();
        for (int id = b.firstId(); id < b.typeCount(); id++) {
            sb.append(b.kind(id)).append(',');
        }
        return sb.toString();
    }

    /** {@code text}'s types renumbered {@code by} places up, except references to void and to [1] (the int). */
    static String shift(String text, int by) {
        StringBuilder sb = new StringBuilder();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\[|type_id=)(\\d+)").matcher(text);
        int last = 0;
        while (m.find()) {
            int id = Integer.parseInt(m.group(2));
            boolean header = m.group(1).equals("[");
            int now = header || id > 1 ? id + by : id;
            sb.append(text, last, m.start()).append(m.group(1)).append(now);
            last = m.end();
        }
        return sb.append(text.substring(last)).toString();
    }
}
