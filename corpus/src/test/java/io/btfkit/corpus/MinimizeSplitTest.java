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
import io.btfkit.minimize.CoreRelocator;
import io.btfkit.minimize.MinimalBtf;
import io.btfkit.minimize.Minimizer;
import io.btfkit.minimize.RawJoin;
import io.btfkit.minimize.ReloKind;
import io.btfkit.minimize.ReloResult;
import io.btfkit.core.text.RawTextPrinter;
import io.btfkit.dedup.Deduplicator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code minimize} of a module's split BTF on its vmlinux: the standalone output, and the minimal
 * base and split joined, are byte-identical to {@code bpftool gen min_core_btf} on the all-in-one
 * blob of vmlinux and module ({@code link --standalone}; bpftool cannot read the split BTF
 * itself); bpftool (libbpf's {@code btf__parse_split}) reads the pair; and every relocation
 * resolves on the pair as on the full vmlinux + module. Skipped with a message without bpftool
 * or the golden data.
 */
class MinimizeSplitTest {
    private static final List<String> PROGRAMS = List.of("module_reads.bpf.o", "task_trace.bpf.o", "net_stats.bpf.o", "core_reads.bpf.o");
    /** mlx4_core: the module module_reads.bpf.o is written against; the others: its types are not there. */
    private static final List<String> MODULES = List.of("mlx4_core", "roles", "ocfs2", "yurex");
    private static final Map<String, Btf> LOADED = new ConcurrentHashMap<>();

    private static Btf vmlinux() {
        Path v = TestData.golden("vmlinux-6.1.0-56.btf");
        Assumptions.assumeTrue(Files.exists(v), "skipped: " + v + " missing");
        return LOADED.computeIfAbsent("", k -> InputLoader.load(v, null).btf());
    }

    /** The module's split BTF on vmlinux-6.1.0-56. */
    private static Btf module(String name) {
        Btf base = vmlinux();
        return LOADED.computeIfAbsent(name, n -> InputLoader.load(TestData.golden("modules/" + n + ".btf"), base).btf());
    }

    private static List<Path> objects(List<String> names) {
        return names.stream().map(n -> TestData.sample("bpf/" + n)).toList();
    }

    private static Minimizer marked(Btf target, List<Path> objects) {
        CoreRelocator relocator = new CoreRelocator(target);
        Minimizer m = new Minimizer(target);
        for (Path o : objects) {
            LoadedInput in = InputLoader.load(o, null);
            m.recordAll(relocator, io.btfkit.minimize.CoreProgram.parse(o.toString(), in.btf(), in.ext(), in.elf()));
        }
        return m;
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("mlx4_core", List.of("module_reads.bpf.o")),
                Arguments.of("mlx4_core", PROGRAMS),
                Arguments.of("roles", PROGRAMS),
                Arguments.of("ocfs2", List.of("module_reads.bpf.o", "core_reads.bpf.o")));
    }

    /** Standalone output and joined pair against bpftool on the all-in-one blob; bpftool -B reads the pair. */
    @ParameterizedTest(name = "{1} on vmlinux-6.1.0-56 + {0}")
    @MethodSource("cases")
    void sameBytesAsBpftoolOnTheAllInOneBlob(String module, List<String> programs, @TempDir Path tmp) throws IOException {
        Path bpftool = TestData.requireTool("bpftool");
        Btf split = module(module);
        Path blob = tmp.resolve("all.btf");
        Files.write(blob, BtfWriter.write(Deduplicator.linkStandalone(split.base(), List.of(split)).btf()));
        Path ref = tmp.resolve("ref.btf");
        List<String> cmd = new ArrayList<>(List.of(bpftool.toString(), "gen", "min_core_btf", blob.toString(), ref.toString()));
        objects(programs).forEach(o -> cmd.add(o.toString()));
        TestData.run(cmd);
        byte[] want = TestData.bytes(ref);

        Minimizer m = marked(split, objects(programs));
        byte[] standalone = BtfWriter.write(m.build());
        assertArrayEquals(want, standalone, "standalone: bpftool wrote " + want.length + " bytes, btfkit " + standalone.length);
        MinimalBtf.Split pair = m.buildSplit();
        byte[] base = BtfWriter.write(pair.base());
        byte[] splitBytes = BtfWriter.write(pair.split());
        assertArrayEquals(want, RawJoin.join(base, splitBytes), "minimal base + minimal split, joined");

        // libbpf's btf__parse_split (through bpftool -B) reads the pair; bpftool prints the split's types
        Path minBase = Files.write(tmp.resolve("min.base.btf"), base);
        Path minSplit = Files.write(tmp.resolve("min.split.btf"), splitBytes);
        String dumped = new String(TestData.run(List.of(bpftool.toString(), "-B", minBase.toString(), "btf", "dump", "file",
                minSplit.toString())), StandardCharsets.UTF_8);
        assertEquals(RawTextPrinter.toText(pair.split()), dumped);
    }

    /**
     * libbpf as the oracle (CoreOracleTest's harness, btf_custom_path): module_reads.bpf.o on the
     * minimized standalone BTF gets from libbpf what btfkit gives it on the minimal pair, value for
     * value (the two number types alike, so target type ids included); on the all-in-one blob of
     * vmlinux + mlx4_core, what btfkit gives it on the full split pair (the blob's dedup numbers
     * types differently: a target type id is compared by the type's name and kind).
     */
    @org.junit.jupiter.api.Test
    void libbpfResolvesTheBlobsAsBtfkitResolvesThePairs(@TempDir Path tmp) throws IOException {
        Path oracle = LibbpfCore.harness();
        Btf split = module("mlx4_core");
        Path object = TestData.sample("bpf/module_reads.bpf.o");
        Btf all = Deduplicator.linkStandalone(split.base(), List.of(split)).btf();
        Path blob = Files.write(tmp.resolve("all.btf"), BtfWriter.write(all));
        Minimizer m = marked(split, List.of(object));
        Path min = Files.write(tmp.resolve("min.btf"), BtfWriter.write(m.build()));
        MinimalBtf.Split pair = m.buildSplit();
        Btf minPair = BtfReader.read(BtfWriter.write(pair.split()), BtfReader.read(BtfWriter.write(pair.base())));

        assertEquals(libbpf(oracle, object, min), outcomes(minPair, object, null));
        List<String> onFull = outcomes(split, object, split);
        assertEquals(14, onFull.size());
        assertTrue(onFull.stream().noneMatch(x -> x.endsWith("poison")), onFull.toString());
        List<String> libbpfOnBlob = libbpf(oracle, object, blob).stream()
                .map(x -> x.startsWith(targetIdRelo(object)) ? x.replaceAll("= (\\d+)$", "") + "= " + typeName(all, x) : x)
                .sorted().toList();
        assertEquals(libbpfOnBlob, onFull);
    }

    private static List<String> libbpf(Path oracle, Path object, Path target) {
        String log = new String(TestData.run(List.of(oracle.toString(), object.toString(), target.toString())), StandardCharsets.UTF_8);
        assertTrue(log.contains("core_oracle: load"), log);
        return LibbpfCore.valuesByInsn(log);
    }

    /** "relo #N insn #K " of the object's one target_type_id relocation. */
    private static String targetIdRelo(Path object) {
        LoadedInput in = InputLoader.load(object, null);
        List<io.btfkit.minimize.LocalRelo> ids = io.btfkit.minimize.LocalRelo.parseAll(in.btf(), in.ext()).stream()
                .filter(r -> r.kind() == ReloKind.TYPE_ID_TARGET).toList();
        assertEquals(1, ids.size());
        return "relo #" + ids.get(0).index() + " insn #" + ids.get(0).insnIndex() + " ";
    }

    private static String typeName(Btf btf, String outcome) {
        int id = Integer.parseInt(outcome.replaceAll(".*= (\\d+)$", "$1"));
        return Kind.name(btf.kind(id)) + " " + btf.name(id);
    }

    /**
     * btfkit's outcome of each relocation, as CoreOracleTest writes libbpf's; with {@code byName},
     * a target_type_id's value as the kind and name of the type it names in that BTF.
     */
    private static List<String> outcomes(Btf target, Path object, Btf byName) {
        LoadedInput in = InputLoader.load(object, null);
        List<String> out = new ArrayList<>();
        for (ReloResult r : new CoreRelocator(target).resolveAll(in.btf(), in.ext())) {
            String v = switch (r.status()) {
                case POISONED -> "poison";
                case ERROR -> "error";
                default -> Long.toString(r.value());
            };
            String line = "relo #" + r.relo().index() + " insn #" + r.relo().insnIndex() + " = " + v;
            out.add(byName != null && r.relo().kind() == ReloKind.TYPE_ID_TARGET ? line.replaceAll("= \\d+$", "") + "= "
                    + typeName(byName, line) : line);
        }
        out.sort(null);
        return out;
    }

    @Provide
    Arbitrary<String> modules() {
        return Arbitraries.of(MODULES);
    }

    @Provide
    Arbitrary<List<String>> programSets() {
        return Arbitraries.subsetOf(PROGRAMS).filter(s -> !s.isEmpty()).map(s -> PROGRAMS.stream().filter(s::contains).toList());
    }

    /**
     * Every relocation of every program of the set resolves on the minimal pair (read back from
     * its bytes) as on the full vmlinux + module: same status and value; for target_type_id, the
     * id of a type of the same name and kind.
     */
    @Property(tries = 20)
    void sameRelocationValuesOnThePair(@ForAll("modules") String module, @ForAll("programSets") List<String> programs) {
        Btf full = module(module);
        MinimalBtf.Split pair = marked(full, objects(programs)).buildSplit();
        Btf minBase = BtfReader.read(BtfWriter.write(pair.base()));
        Btf min = BtfReader.read(BtfWriter.write(pair.split()), minBase);
        CoreRelocator onFull = new CoreRelocator(full);
        CoreRelocator onMin = new CoreRelocator(min);
        int checked = 0;
        for (Path o : objects(programs)) {
            LoadedInput in = InputLoader.load(o, null);
            checked += ReloOutcomes.assertSame(full, onFull.resolveAll(in.btf(), in.ext()), min, onMin.resolveAll(in.btf(), in.ext()),
                    module + ": " + o.getFileName(),
                    // a module type stays in the split, a vmlinux type in the base
                    (fid, mid) -> assertEquals(fid >= full.firstId(), mid >= min.firstId(), module + ": " + fid + " -> " + mid));
        }
        assertTrue(checked > 0);
    }
}
