package io.btfkit.corpus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.TestData;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.gcc.GccNormalizer;
import io.btfkit.gcc.QuirkCounts;
import io.btfkit.validate.Finding;
import io.btfkit.validate.Validator;
import io.btfkit.dedup.DedupResult;
import io.btfkit.dedup.Deduplicator;
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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Opt-in: the objects of a few directories of Debian's linux-source-6.1 built with
 * {@code gcc -gbtf} ({@code corpus/scripts/build-gcc-kernel-subset.sh OUTDIR}, then
 * {@code BTFKIT_GCC_KERNEL=OUTDIR}), linked by btfkit and by libbpf (btfref) side by side: the
 * raw objects, copies normalised as link does, and copies repaired with {@code convert --fix}.
 * Checks: no false merge (every input type maps to an output type that describes it), btfkit's
 * result no larger than libbpf's on the same normalised or repaired inputs beyond what
 * ambiguous declarations explain, {@code link --fix} output acceptable to the kernel except for
 * prototypes without parameter names, and an {@code ld -r} composite linking exactly as its
 * parts. Writes a report to {@code corpus/target/gcc-kernel-report.md} (docs/BENCHMARKS.md).
 */
class GccKernelSubsetTest {
    private final StringBuilder report = new StringBuilder();

    @Test
    void linkGccKernelSubset() throws Exception {
        String env = System.getenv("BTFKIT_GCC_KERNEL");
        Assumptions.assumeTrue(env != null && !env.isEmpty(),
                "skipped: set BTFKIT_GCC_KERNEL to the output of corpus/scripts/build-gcc-kernel-subset.sh");
        Path bed = Paths.get(env);
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
        long inputTypes = loaded.stream().flatMap(l -> l.units().stream()).mapToLong(Btf::ownTypeCount).sum();
        line("objects: %d (%s), input types: %,d", objects.size(), bed, inputTypes);

        long t0 = System.nanoTime();
        List<GccNormalizer.FileResult> norm = GccNormalizer.normalize(loaded, GccNormalizer.Level.LINK);
        List<Btf> normalised = units(norm);
        DedupResult link = Deduplicator.link(normalised, null, Deduplicator.Options.LINK);
        double linkSeconds = (System.nanoTime() - t0) / 1e9;
        Validator.checkOutput(link.btf());
        QuirkCounts applied = new QuirkCounts();
        for (GccNormalizer.FileResult f : norm) {
            applied = applied.plus(f.applied());
        }
        line("normalised by link: %s", applied.summary());
        LinkAudit.Report audit = audit(normalised, link);
        assertEquals(0, audit.falseMerges(), audit.example());

        t0 = System.nanoTime();
        List<GccNormalizer.FileResult> fixed = GccNormalizer.normalize(loaded, GccNormalizer.Level.FIX);
        DedupResult linkFix = Deduplicator.link(units(fixed), null, Deduplicator.Options.LINK);
        double fixSeconds = (System.nanoTime() - t0) / 1e9;
        assertEquals(0, audit(units(fixed), linkFix).falseMerges());
        Map<String, Integer> kernel = rules(Validator.validate(linkFix.btf()));
        line("kernel findings on link --fix output: %s", kernel);
        assertTrue(kernel.keySet().stream().allMatch(r -> r.equals("func-param-name")), kernel.toString());

        List<Btf> raw = new ArrayList<>();
        loaded.forEach(l -> raw.addAll(l.units()));
        int asWritten = Deduplicator.link(raw, null, Deduplicator.Options.LINK).btf().ownTypeCount();

        Path tmp = Files.createTempDirectory("btfkit-gcc-kernel-");
        List<Btf> repaired = new ArrayList<>();
        for (LoadedInput l : loaded) {
            repaired.addAll(GccNormalizer.normalize(l, GccNormalizer.Level.FIX).btfs());
        }
        int repairedLink = Deduplicator.link(repaired, null, Deduplicator.Options.LINK).btf().ownTypeCount();
        Path rawList = list(tmp, "raw", objects);
        Path normList = list(tmp, "normalised", write(tmp.resolve("normalised"), normalised));
        Path fixList = list(tmp, "repaired", write(tmp.resolve("repaired"), repaired));

        Path btfref = TestData.btfref();
        Ref refRaw = btfref == null ? null : btfref(btfref, rawList, tmp.resolve("raw.btf"));
        Ref refNorm = btfref == null ? null : btfref(btfref, normList, tmp.resolve("normalised.btf"));
        Ref refFix = btfref == null ? null : btfref(btfref, fixList, tmp.resolve("repaired.btf"));

        line("");
        line("| inputs | btfkit link | libbpf (btfref) |");
        line("|---|---|---|");
        line("| raw objects | %,d (normalised, %.1f s in-process); --as-written %,d | %s |", link.btf().ownTypeCount(),
                linkSeconds, asWritten, refRaw == null ? "n/a" : refRaw.describe());
        line("| copies normalised as link does | %,d | %s |", link.btf().ownTypeCount(),
                refNorm == null ? "n/a" : refNorm.describe());
        line("| raw objects, link --fix | %,d (%.1f s in-process) | |", linkFix.btf().ownTypeCount(), fixSeconds);
        line("| convert --fix copies | %,d | %s |", repairedLink, refFix == null ? "n/a" : refFix.describe());
        line("");
        line("most copies of one struct name: btfkit %s, libbpf on raw objects %s", mostCopies(link.btf()),
                refRaw == null ? "n/a" : mostCopies(refRaw.btf));

        if (refNorm != null) {
            int allowance = CuLinkTest.dependentsOfAmbiguousDeclarations(link.btf());
            assertTrue(link.btf().ownTypeCount() <= refNorm.types + allowance,
                    "btfkit " + link.btf().ownTypeCount() + " vs libbpf " + refNorm.types + " on the same inputs");
            assertTrue(repairedLink <= refFix.types + CuLinkTest.dependentsOfAmbiguousDeclarations(
                    Deduplicator.link(repaired, null, Deduplicator.Options.LINK).btf()));
        } else {
            System.err.println("GccKernelSubsetTest: libbpf comparison skipped: " + TestData.whyMissing("btfref"));
        }
        composite(bed, btfref, tmp);
        Files.createDirectories(TestData.root().resolve("corpus/target"));
        Files.writeString(TestData.root().resolve("corpus/target/gcc-kernel-report.md"), report.toString());
        System.err.print(report);
    }

    /** An ld -r composite links exactly as its parts; libbpf reads only its first blob. */
    private void composite(Path bed, Path btfref, Path tmp) throws IOException {
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
        String ref = "n/a";
        if (btfref != null) {
            Ref r = btfref(btfref, list(tmp, "composite", List.of(part)), tmp.resolve("composite.btf"));
            ref = String.format(Locale.ROOT, "%,d types (reads the first of %d blobs: %,d types in it)", r.types,
                    whole.units().size(), whole.units().get(0).ownTypeCount());
        }
        line("ld -r composite of %d objects: btfkit links its %d blobs to %,d types, as the separate objects;"
                + " libbpf %s", parts.size(), whole.units().size(), a.ownTypeCount(), ref);
    }

    private static List<Btf> units(List<GccNormalizer.FileResult> files) {
        List<Btf> l = new ArrayList<>();
        files.forEach(f -> l.addAll(f.btfs()));
        return l;
    }

    /** No false merge: every unit type maps to an output type that describes it ({@link UnitLinkAudit}). */
    private static LinkAudit.Report audit(List<Btf> units, DedupResult r) {
        return UnitLinkAudit.audit(units, r);
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

    private void line(String fmt, Object... args) {
        report.append(String.format(Locale.ROOT, fmt, args)).append('\n');
    }
}
