package io.btfkit.corpus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.RequiresTools;
import io.btfkit.core.TestData;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.dedup.DedupResult;
import io.btfkit.dedup.Deduplicator;
import io.btfkit.gcc.GccNormalizer;
import io.btfkit.gcc.GccQuirk;
import io.btfkit.gcc.QuirkCounts;
import io.btfkit.validate.Finding;
import io.btfkit.validate.Validator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Objects built with {@code gcc -gbtf} as a kernel build makes them, linked by btfkit and by
 * libbpf (btfref) side by side: the raw objects, copies normalised as link does, and copies
 * repaired with {@code convert --fix}. Checks: no false merge (every input type maps to an
 * output type that describes it), {@code link --fix} output acceptable to the kernel except for
 * prototypes without parameter names, an {@code ld -r} composite linking exactly as its parts,
 * and (with btfref) btfkit's result no larger than libbpf's on the same normalised or repaired
 * inputs beyond what ambiguous declarations explain.
 *
 * <p>Two test beds, laid out alike ({@code objects.list}, {@code objects/}, {@code composite/}):
 * <ul>
 * <li>in every build (needs gcc 12 and ld): the kernel-like sources of
 *     {@code corpus/samples/gcc-kernel} (seven units in four directories, every encoding of
 *     docs/GCC.md that link normalises or --fix repairs), compiled here in about a second;</li>
 * <li>opt-in, the real thing: a few directories of Debian's linux-source-6.1
 *     ({@code corpus/scripts/build-gcc-kernel-subset.sh OUTDIR}, then
 *     {@code BTFKIT_GCC_KERNEL=OUTDIR}); not in CI because it downloads the kernel source and
 *     builds for about 10 minutes. Its libbpf half writes the report
 *     {@code corpus/target/gcc-kernel-report.md} (docs/BENCHMARKS.md).</li>
 * </ul>
 */
class GccKernelSubsetTest {
    private static final String KERNEL_ENV = "BTFKIT_GCC_KERNEL";

    @Test
    @RequiresTools({"gcc", "ld"})
    void kernelLikeSamplesLinkWithoutFalseMerge() throws Exception {
        Linked l = linked(samplesBed());
        System.err.print(btfkitChecks(l));
        // the bed exercises what it is there for: every encoding link normalises, a composite
        for (GccQuirk q : List.of(GccQuirk.FWD_TYPE_FIELD, GccQuirk.ENUM_FWD, GccQuirk.ARRAY_INDEX_VOID)) {
            assertTrue(l.applied().count(q) > 0, q + " not met in the samples: " + l.applied().summary());
        }
        assertTrue(Files.exists(l.bed().resolve("composite/part.o")), "no composite");
    }

    @Test
    @RequiresTools({"gcc", "ld", "btfref"})
    void kernelLikeSamplesLinkNoLargerThanLibbpf() throws Exception {
        Linked l = linked(samplesBed());
        System.err.print(libbpfChecks(l, TestData.requireTool("btfref")));
    }

    @Test
    void kernelSubsetLinksWithoutFalseMerge() throws Exception {
        System.err.print(btfkitChecks(linked(kernelBed())));
    }

    @Test
    @RequiresTools("btfref")
    void kernelSubsetLinksNoLargerThanLibbpf() throws Exception {
        Linked l = linked(kernelBed());
        String report = btfkitChecks(l) + libbpfChecks(l, TestData.requireTool("btfref"));
        Files.createDirectories(TestData.root().resolve("corpus/target"));
        Files.writeString(TestData.root().resolve("corpus/target/gcc-kernel-report.md"), report);
        System.err.print(report);
    }

    // ------------------------------------------------------------------ the beds

    /** The opt-in bed; skipped with the reason it is not in CI when it is not there. */
    private static Path kernelBed() {
        String env = System.getenv(KERNEL_ENV);
        Assumptions.assumeTrue(env != null && !env.isEmpty(), "skipped: the linux-source-6.1 subset is opt-in (it downloads"
                + " the kernel source and builds about 10 minutes): corpus/scripts/build-gcc-kernel-subset.sh OUTDIR, then "
                + KERNEL_ENV + "=OUTDIR; every build links the kernel-like samples instead");
        return Paths.get(env);
    }

    private static Path samplesBed;

    /**
     * corpus/samples/gcc-kernel compiled as build-gcc-kernel-subset.sh lays out its bed (gcc
     * -gbtf -c -O2 per unit, an ld -r of the first directory's first three objects); skipped
     * with the reason unless gcc is version 12, whose encodings the normaliser knows.
     */
    private static synchronized Path samplesBed() throws IOException {
        if (samplesBed != null) {
            return samplesBed;
        }
        String version = new String(TestData.run(List.of("gcc", "-dumpversion")), StandardCharsets.UTF_8).strip();
        Assumptions.assumeTrue(version.startsWith("12"),
                "skipped: gcc " + version + ": the kernel-like samples check gcc 12's -gbtf encodings (docs/GCC.md)");
        Path src = TestData.sample("gcc-kernel");
        List<String> units;
        try (Stream<Path> s = Files.walk(src)) {
            units = s.filter(p -> p.toString().endsWith(".c")).map(p -> src.relativize(p).toString()).sorted().toList();
        }
        Path bed = Files.createTempDirectory("btfkit-gcc-kernel-samples-");
        List<String> objects = new ArrayList<>();
        for (String unit : units) {
            String object = unit.substring(0, unit.length() - 2) + ".o";
            Path o = bed.resolve("objects").resolve(object);
            Files.createDirectories(o.getParent());
            TestData.run(List.of("gcc", "-gbtf", "-c", "-O2", "-Wall", src.resolve(unit).toString(), "-o", o.toString()));
            objects.add(object);
        }
        Files.write(bed.resolve("objects.list"), objects);
        List<String> parts = objects.stream().filter(o -> o.startsWith("kernel/")).limit(3).toList();
        Files.createDirectories(bed.resolve("composite"));
        Files.write(bed.resolve("composite/parts.list"), parts);
        List<String> ld = new ArrayList<>(List.of("ld", "-r", "-o", bed.resolve("composite/part.o").toString()));
        parts.forEach(p -> ld.add(bed.resolve("objects").resolve(p).toString()));
        TestData.run(ld);
        samplesBed = bed;
        return bed;
    }

    // ------------------------------------------------------------------ btfkit's links of a bed

    /** One bed's inputs and btfkit's links of them, made once for the tests that read them. */
    private record Linked(Path bed, List<Path> objects, List<LoadedInput> loaded, List<Btf> normalised, DedupResult link,
            double linkSeconds, QuirkCounts applied, List<Btf> fixed, DedupResult linkFix, double fixSeconds,
            List<Btf> repaired) {
    }

    private static final Map<Path, Linked> LINKED = new HashMap<>();

    private static synchronized Linked linked(Path bed) throws IOException {
        Linked done = LINKED.get(bed);
        if (done != null) {
            return done;
        }
        List<Path> objects = new ArrayList<>();
        for (String rel : Files.readAllLines(bed.resolve("objects.list"))) {
            if (!rel.isBlank()) {
                objects.add(bed.resolve("objects").resolve(rel));
            }
        }
        List<LoadedInput> loaded = new ArrayList<>();
        for (Path o : objects) {
            loaded.add(InputLoader.load(o, null));
        }
        long t0 = System.nanoTime();
        List<GccNormalizer.FileResult> norm = GccNormalizer.normalize(loaded, GccNormalizer.Level.LINK);
        List<Btf> normalised = units(norm);
        DedupResult link = Deduplicator.link(normalised, null, Deduplicator.Options.LINK);
        double linkSeconds = (System.nanoTime() - t0) / 1e9;
        QuirkCounts applied = new QuirkCounts();
        for (GccNormalizer.FileResult f : norm) {
            applied = applied.plus(f.applied());
        }
        t0 = System.nanoTime();
        List<Btf> fixed = units(GccNormalizer.normalize(loaded, GccNormalizer.Level.FIX));
        DedupResult linkFix = Deduplicator.link(fixed, null, Deduplicator.Options.LINK);
        double fixSeconds = (System.nanoTime() - t0) / 1e9;
        List<Btf> repaired = new ArrayList<>();
        for (LoadedInput l : loaded) {
            repaired.addAll(GccNormalizer.normalize(l, GccNormalizer.Level.FIX).btfs());
        }
        Linked l = new Linked(bed, objects, loaded, normalised, link, linkSeconds, applied, fixed, linkFix, fixSeconds, repaired);
        LINKED.put(bed, l);
        return l;
    }

    @AfterAll
    static void forget() throws IOException {
        LINKED.clear();
        if (samplesBed != null) {
            try (Stream<Path> s = Files.walk(samplesBed)) {
                for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
            samplesBed = null;
        }
    }

    /**
     * What btfkit alone must give: an output that passes the output check, no false merge in
     * link or link --fix, no kernel finding on link --fix output but prototypes without
     * parameter names, a composite linked as its parts. Returns the report's lines.
     */
    private static String btfkitChecks(Linked l) throws IOException {
        Report r = new Report();
        long inputTypes = l.loaded().stream().flatMap(x -> x.units().stream()).mapToLong(Btf::ownTypeCount).sum();
        r.line("objects: %d (%s), input types: %,d", l.objects().size(), l.bed(), inputTypes);
        Validator.checkOutput(l.link().btf());
        r.line("normalised by link: %s", l.applied().summary());
        LinkAudit.Report audit = UnitLinkAudit.audit(l.normalised(), l.link());
        assertEquals(0, audit.falseMerges(), audit.example());
        LinkAudit.Report fixAudit = UnitLinkAudit.audit(l.fixed(), l.linkFix());
        assertEquals(0, fixAudit.falseMerges(), fixAudit.example());
        Map<String, Integer> kernel = rules(Validator.validate(l.linkFix().btf()));
        r.line("kernel findings on link --fix output: %s", kernel);
        assertTrue(kernel.keySet().stream().allMatch(rule -> rule.equals("func-param-name")), kernel.toString());
        composite(l.bed(), r);
        return r.toString();
    }

    /** An ld -r composite links exactly as its parts. */
    private static void composite(Path bed, Report r) throws IOException {
        Path part = bed.resolve("composite/part.o");
        if (!Files.exists(part)) {
            return;
        }
        List<Path> parts = new ArrayList<>();
        for (String rel : Files.readAllLines(bed.resolve("composite/parts.list"))) {
            parts.add(bed.resolve("objects").resolve(rel));
        }
        LoadedInput whole = InputLoader.load(part, null);
        assertEquals(parts.size(), whole.units().size());
        List<LoadedInput> separate = new ArrayList<>();
        for (Path p : parts) {
            separate.add(InputLoader.load(p, null));
        }
        Btf a = Deduplicator.link(units(GccNormalizer.normalize(List.of(whole), GccNormalizer.Level.LINK)), null,
                Deduplicator.Options.LINK).btf();
        Btf b = Deduplicator.link(units(GccNormalizer.normalize(separate, GccNormalizer.Level.LINK)), null,
                Deduplicator.Options.LINK).btf();
        assertArrayEquals(BtfWriter.write(b), BtfWriter.write(a), "ld -r composite links as its parts");
        r.line("ld -r composite of %d objects: btfkit links its %d blobs to %,d types, as the separate objects",
                parts.size(), whole.units().size(), a.ownTypeCount());
    }

    /**
     * The same inputs through libbpf: btfkit keeps no more types than libbpf on the normalised
     * and on the repaired copies beyond the dependents of ambiguous declarations. Returns the
     * side-by-side table of docs/BENCHMARKS.md.
     */
    private static String libbpfChecks(Linked l, Path btfref) throws IOException {
        Path tmp = Files.createTempDirectory("btfkit-gcc-kernel-");
        try {
            List<Btf> raw = new ArrayList<>();
            l.loaded().forEach(x -> raw.addAll(x.units()));
            int asWritten = Deduplicator.link(raw, null, Deduplicator.Options.LINK).btf().ownTypeCount();
            Btf repairedLink = Deduplicator.link(l.repaired(), null, Deduplicator.Options.LINK).btf();
            Ref refRaw = btfref(btfref, list(tmp, "raw", l.objects()), tmp.resolve("raw.btf"));
            Ref refNorm = btfref(btfref, list(tmp, "normalised", write(tmp.resolve("normalised"), l.normalised())),
                    tmp.resolve("normalised.btf"));
            Ref refFix = btfref(btfref, list(tmp, "repaired", write(tmp.resolve("repaired"), l.repaired())),
                    tmp.resolve("repaired.btf"));
            Btf link = l.link().btf();
            Report r = new Report();
            r.line("");
            r.line("| inputs | btfkit link | libbpf (btfref) |");
            r.line("|---|---|---|");
            r.line("| raw objects | %,d (normalised, %.1f s in-process); --as-written %,d | %s |", link.ownTypeCount(),
                    l.linkSeconds(), asWritten, refRaw.describe());
            r.line("| copies normalised as link does | %,d | %s |", link.ownTypeCount(), refNorm.describe());
            r.line("| raw objects, link --fix | %,d (%.1f s in-process) | |", l.linkFix().btf().ownTypeCount(), l.fixSeconds());
            r.line("| convert --fix copies | %,d | %s |", repairedLink.ownTypeCount(), refFix.describe());
            r.line("");
            r.line("most copies of one struct name: btfkit %s, libbpf on raw objects %s", mostCopies(link), mostCopies(refRaw.btf));
            Path part = l.bed().resolve("composite/part.o");
            if (Files.exists(part)) {
                LoadedInput whole = InputLoader.load(part, null);
                Ref c = btfref(btfref, list(tmp, "composite", List.of(part)), tmp.resolve("composite.btf"));
                r.line("ld -r composite: libbpf %,d types (reads the first of %d blobs: %,d types in it)", c.types,
                        whole.units().size(), whole.units().get(0).ownTypeCount());
            }
            int allowance = CuLinkTest.dependentsOfAmbiguousDeclarations(link);
            assertTrue(link.ownTypeCount() <= refNorm.types + allowance,
                    "btfkit " + link.ownTypeCount() + " vs libbpf " + refNorm.types + " on the same normalised inputs");
            assertTrue(repairedLink.ownTypeCount() <= refFix.types + CuLinkTest.dependentsOfAmbiguousDeclarations(repairedLink),
                    "btfkit " + repairedLink.ownTypeCount() + " vs libbpf " + refFix.types + " on the same repaired inputs");
            return r.toString();
        } finally {
            try (Stream<Path> s = Files.walk(tmp)) {
                for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    private static List<Btf> units(List<GccNormalizer.FileResult> files) {
        List<Btf> l = new ArrayList<>();
        files.forEach(f -> l.addAll(f.btfs()));
        return l;
    }

    private static Map<String, Integer> rules(List<Finding> fs) {
        Map<String, Integer> m = new TreeMap<>();
        fs.forEach(f -> m.merge(f.rule(), 1, Integer::sum));
        return m;
    }

    /** The named struct with the most copies, as {@code name xN}. */
    private static String mostCopies(Btf b) {
        Map<String, Integer> copies = new HashMap<>();
        for (int id = 1; id < b.typeCount(); id++) {
            if (b.kind(id) == Kind.STRUCT && !b.name(id).isEmpty()) {
                copies.merge(b.name(id), 1, Integer::sum);
            }
        }
        return copies.entrySet().stream().max(Map.Entry.comparingByValue())
                .map(e -> "'" + e.getKey() + "' x" + e.getValue()).orElse("none");
    }

    private static List<Path> write(Path dir, List<Btf> units) throws IOException {
        Files.createDirectories(dir);
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < units.size(); i++) {
            Path f = dir.resolve(String.format("u%05d.btf", i));
            Files.write(f, BtfWriter.write(units.get(i)));
            files.add(f);
        }
        return files;
    }

    private static Path list(Path dir, String name, List<Path> files) throws IOException {
        Path l = dir.resolve(name + ".list");
        List<String> lines = new ArrayList<>();
        files.forEach(f -> lines.add(f.toString()));
        Files.write(l, lines);
        return l;
    }

    /** A btfref run: output type count and libbpf's own timings. */
    private record Ref(int types, double dedupSeconds, double totalSeconds, Btf btf) {
        String describe() {
            return String.format(Locale.ROOT, "%,d (dedup %.1f s, total %.1f s)", types, dedupSeconds, totalSeconds);
        }
    }

    private static Ref btfref(Path btfref, Path listFile, Path out) throws IOException {
        Process p = new ProcessBuilder(btfref.toString(), "dedup", "-o", out.toString(), "-L", listFile.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            assertEquals(0, p.waitFor(), err);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        Btf b = BtfReader.read(Files.readAllBytes(out));
        return new Ref(b.ownTypeCount(), value(err, "dedup_s"), value(err, "total_s"), b);
    }

    private static double value(String stderr, String key) {
        int i = stderr.indexOf(key + "=");
        if (i < 0) {
            return Double.NaN;
        }
        int j = i + key.length() + 1;
        int k = j;
        while (k < stderr.length() && " \n".indexOf(stderr.charAt(k)) < 0) {
            k++;
        }
        return Double.parseDouble(stderr.substring(j, k));
    }

    /** Lines of the report, formatted in the root locale. */
    private static final class Report {
        private final StringBuilder sb = new StringBuilder();

        void line(String fmt, Object... args) {
            sb.append(String.format(Locale.ROOT, fmt, args)).append('\n');
        }

        @Override
        public String toString() {
            return sb.toString();
        }
    }
}
