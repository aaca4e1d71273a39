package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.RequiresTools;
import io.btfkit.core.TestData;
import io.btfkit.core.text.RawTextPrinter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import net.jqwik.api.statistics.Statistics;

/**
 * Cyclic shapes through every command that rewrites BTF ({@link CyclicShapes}): dedup, link
 * (with and without dedup), permute, distill and convert either process them — carrying the
 * input's cycles into the output with a warning line, never adding a finding — or refuse with
 * exit status 2; never an internal error.
 *
 * <p>Against libbpf's {@code btf__dedup} (the btfref helper; skipped with the reason when it is
 * missing): libbpf refuses a cycle that no struct or union breaks ({@code -ELOOP}, confirmed from
 * its message) where btfkit carries it with a warning; on every other shape btfkit keeps the
 * same types as libbpf (equal classes of equivalent types), and the same bytes when it keeps the
 * same representatives (the same kinds in the same order). Each comparison property counts its
 * outcomes (shown as jqwik statistics) and fails when too few tries reached a comparison.
 */
class CyclicShapesProperties {
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

    /** Every command on {@code text}: exit 0 with only warning lines; dedup idempotent. */
    private static void everyCommand(String text) throws Exception {
        Path dir = Files.createTempDirectory("cyclic");
        try {
            Path in = assemble(text, dir);
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
        } finally {
            delete(dir);
        }
    }

    /** {@code text} written to {@code dir/in.txt} and assembled to {@code dir/in.btf}. */
    private static Path assemble(String text, Path dir) throws IOException {
        Path txt = dir.resolve("in.txt");
        Files.writeString(txt, text);
        Path in = dir.resolve("in.btf");
        ok(text, "asm", txt.toString(), "-o", in.toString());
        return in;
    }

    private static void delete(Path dir) throws IOException {
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
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

    // ------------------------------------------------------------------ against libbpf

    /** What a comparison with libbpf found (the statistics of the properties below). */
    enum Outcome {
        /** libbpf refused with -ELOOP a cycle no struct breaks; btfkit carries it. */
        REFUSED_CYCLE,
        /** Same types, same representatives: the same bytes. */
        SAME_BYTES,
        /** Same classes of types, other representatives (DEDUP.md, "Where the output differs"). */
        SAME_CLASSES,
        /**
         * libbpf died of SIGSEGV (1.1 here: its recursion overflows the stack) on a struct that
         * contains itself by value, which C cannot write; btfkit carries it.
         */
        LIBBPF_CRASHED
    }

    /** A process's exit status as Java reports it when SIGSEGV (11) killed it: 128 + 11. */
    private static final int SIGSEGV_EXIT = 128 + 11;

    /**
     * btfref's whole output when {@code btf__dedup} refuses with {@code -ELOOP}: libbpf's
     * reference-type pass meets a type still in progress, a cycle no struct or union breaks
     * (strerror of ELOOP). Any other failure is not the refusal these shapes expect.
     */
    static final String LIBBPF_REFUSES_CYCLE = "btfref: btf__dedup failed: Too many levels of symbolic links";

    @Property(tries = 30)
    @RequiresTools("btfref")
    void libbpfRefusesModifierCyclesBtfkitCarries(@ForAll("modifierCycles") String text) throws Exception {
        // a ring of modifiers and typedefs is a cycle no struct breaks, whatever enters it
        assertEquals(Outcome.REFUSED_CYCLE, compared(0, text), text);
    }

    /** Rings of any kind, half of them broken by a struct (of the others libbpf refuses four in five). */
    @Provide
    Arbitrary<String> cyclesLibbpfMayDedup() {
        return Arbitraries.oneOf(anyCycles(), CyclicShapes.structRings().list().ofMinSize(1).ofMaxSize(3).map(CyclicShapes::standalone));
    }

    @Property(tries = 100)
    @RequiresTools("btfref")
    void dedupKeepsTheTypesLibbpfKeepsOnCycles(@ForAll("cyclesLibbpfMayDedup") String text) throws Exception {
        // measured: 54-63% compared in six runs; fewer than 30% of 100 tries has odds below 1e-6
        compared(30, text);
    }

    @Property(tries = 80)
    @RequiresTools("btfref")
    void dedupKeepsTheTypesLibbpfKeepsOnRandomGraphs(@ForAll("randomGraphs") String text) throws Exception {
        // measured: 38-54% compared in eight runs (47% on average); fewer than 20% of 80 tries
        // has odds of about 1e-6
        compared(20, text);
    }

    /**
     * A ring of 300 structs in which one differs: libbpf keeps every type (and takes 0.13 s here,
     * 43 s on a ring of 2,000: its comparisons walk the ring); btfkit the same, byte for byte.
     */
    @Example
    @RequiresTools("btfref")
    void aRingInWhichOneStructDiffersIsKeptWholeAsLibbpfKeepsIt() throws Exception {
        assertEquals(Outcome.SAME_BYTES, againstLibbpf(CyclicShapes.oneDifferingRing(300)));
    }

    /**
     * Many distinct rings of one shape, with rotated copies among them: each new ring is told
     * from the earlier ones by its key (Partitioner.KEYED_FROM), and each copy still merges
     * with the ring it copies, as libbpf merges it.
     */
    @Example
    void manyRingsOfOneShapeWithCopiesDedupAsLibbpfDoes() throws Exception {
        assertEquals(Outcome.SAME_BYTES, againstLibbpf(CyclicShapes.rings(120, 24, 40, 7)));
        assertEquals(Outcome.SAME_BYTES, againstLibbpf(CyclicShapes.rings(200, 6, 60, 8)));
    }

    /** The outcomes of the running property's tries against libbpf. */
    private static final Map<Outcome, Integer> OUTCOMES = new EnumMap<>(Outcome.class);
    /** The share of tries (percent) that must reach a comparison; 0 when none must. */
    private static double minComparedPercent;
    /** A try failed: the property reports that, not the share (jqwik's own coverage check would hide it). */
    private static boolean aTryFailed;

    /** {@link #againstLibbpf} on one try, its outcome counted for {@link #enoughTriesCompared}. */
    private static Outcome compared(double minPercent, String text) throws Exception {
        minComparedPercent = minPercent;
        try {
            Outcome o = againstLibbpf(text);
            OUTCOMES.merge(o, 1, Integer::sum);
            Statistics.label("libbpf").collect(o);
            return o;
        } catch (Throwable t) {
            aTryFailed = true;
            throw t;
        }
    }

    @BeforeProperty
    void forgetOutcomes() {
        OUTCOMES.clear();
        minComparedPercent = 0;
        aTryFailed = false;
    }

    /**
     * After a property that compares with libbpf and passed: enough of its tries reached a
     * comparison (libbpf deduplicated the shape), so that passing means something.
     */
    @AfterProperty
    void enoughTriesCompared() {
        int tries = OUTCOMES.values().stream().mapToInt(Integer::intValue).sum();
        if (minComparedPercent == 0 || aTryFailed || tries == 0) {
            return;
        }
        int compared = OUTCOMES.getOrDefault(Outcome.SAME_BYTES, 0) + OUTCOMES.getOrDefault(Outcome.SAME_CLASSES, 0);
        assertTrue(100.0 * compared / tries >= minComparedPercent, "only " + compared + " of " + tries
                + " tries reached a comparison with libbpf, fewer than " + minComparedPercent + "%: " + OUTCOMES);
    }

    /**
     * btfkit's dedup of {@code text} against libbpf's. btfkit always succeeds (warnings only).
     * libbpf refuses exactly the inputs with a cycle no struct breaks
     * ({@link CyclicShapes#hasReferenceCycle}; its message must say -ELOOP), may crash on a struct
     * containing itself by value ({@link CyclicShapes#hasValueCycle}), and otherwise keeps as
     * many types as btfkit in the same classes, in the same bytes where both keep the same
     * representatives.
     */
    private static Outcome againstLibbpf(String text) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("cyclic");
        try {
            Path in = assemble(text, dir);
            Path ours = dir.resolve("d.btf");
            ok(text, "dedup", in.toString(), "-o", ours.toString()); // whatever libbpf makes of it
            Path ref = dir.resolve("ref.btf");
            Path log = dir.resolve("ref.log");
            Process p = new ProcessBuilder(TestData.requireTool("btfref").toString(), "dedup", "-o", ref.toString(), in.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("btfref hangs on\n" + text);
            }
            String said = Files.readString(log).strip();
            boolean cycle = CyclicShapes.hasReferenceCycle(text);
            if (p.exitValue() == SIGSEGV_EXIT && CyclicShapes.hasValueCycle(text)) {
                return Outcome.LIBBPF_CRASHED; // its recursion overflowed the stack; nothing to compare
            }
            if (p.exitValue() != 0) {
                assertEquals(LIBBPF_REFUSES_CYCLE, said, "libbpf fails (exit " + p.exitValue()
                        + ") otherwise than by refusing a cycle on\n" + text);
                assertTrue(cycle, "libbpf refuses a cycle on an input without a reference cycle:\n" + text);
                return Outcome.REFUSED_CYCLE;
            }
            assertFalse(cycle, "libbpf deduplicates an input with a reference cycle (not the refusal expected):\n" + text);
            Btf expected = BtfReader.read(Files.readAllBytes(ref));
            Btf actual = BtfReader.read(Files.readAllBytes(ours));
            assertEquals(expected.typeCount(), actual.typeCount(), "dedup keeps another number of types than libbpf on\n" + text);
            String differs = EquivalentTypes.difference(expected, actual);
            assertNull(differs, () -> "dedup keeps other types than libbpf (" + differs + ") on\n" + text
                    + "\nlibbpf:\n" + RawTextPrinter.toText(expected) + "btfkit:\n" + RawTextPrinter.toText(actual));
            if (!kinds(expected).equals(kinds(actual))) {
                // same classes, another representative: libbpf keeps the duplicate its depth-first
                // walk of reference types reaches first (a CONST referring to a later copy of a
                // typedef), btfkit the lowest id (DEDUP.md, "Where the output differs")
                return Outcome.SAME_CLASSES;
            }
            assertEquals(RawTextPrinter.toText(expected), RawTextPrinter.toText(actual), "dedup differs from libbpf on\n" + text);
            assertArrayEquals(Files.readAllBytes(ref), Files.readAllBytes(ours), "dedup bytes differ from libbpf on\n" + text);
            return Outcome.SAME_BYTES;
        } finally {
            delete(dir);
        }
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
