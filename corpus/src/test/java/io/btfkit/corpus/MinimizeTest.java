package io.btfkit.corpus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.TestData;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.minimize.CoreRelocator;
import io.btfkit.minimize.Minimizer;
import io.btfkit.minimize.ReloResult;
import java.io.IOException;
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
 * {@code minimize} (BTFGen): byte-identical to {@code bpftool gen min_core_btf} for the sample
 * objects, alone and together, on vmlinux 6.18 and the three golden 6.1 kernels (skipped with a
 * message without bpftool); and the relocations resolve on the minimized BTF to the values they
 * get on the full one.
 */
class MinimizeTest {
    private static final List<String> PROGRAMS = List.of("task_trace.bpf.o", "net_stats.bpf.o", "core_reads.bpf.o");
    private static final Map<Path, Btf> KERNELS = new ConcurrentHashMap<>();

    static List<Path> targets() {
        return List.of(TestData.vmlinux618(), TestData.golden("vmlinux-6.1.0-47.btf"), TestData.golden("vmlinux-6.1.0-56.btf"),
                TestData.golden("vmlinux-6.1.0-56-cloud.btf"));
    }

    static Stream<Arguments> cases() {
        List<List<String>> sets = new ArrayList<>();
        PROGRAMS.forEach(p -> sets.add(List.of(p)));
        sets.add(PROGRAMS);
        return targets().stream().flatMap(t -> sets.stream().map(s -> Arguments.of(s, t)));
    }

    private static Btf kernel(Path target) {
        Assumptions.assumeTrue(Files.exists(target), "skipped: " + target + " missing");
        return KERNELS.computeIfAbsent(target, t -> InputLoader.load(t, null).btf());
    }

    private static List<Path> objects(List<String> names) {
        return names.stream().map(n -> TestData.sample("bpf/" + n)).toList();
    }

    static Btf minimize(Btf kernel, List<Path> objects) {
        CoreRelocator relocator = new CoreRelocator(kernel);
        Minimizer m = new Minimizer(kernel);
        for (Path o : objects) {
            LoadedInput in = InputLoader.load(o, null);
            m.recordAll(relocator, io.btfkit.minimize.CoreProgram.parse(o.toString(), in.btf(), in.ext(), in.elf()));
        }
        return m.build();
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("cases")
    void sameBytesAsBpftool(List<String> programs, Path target, @TempDir Path tmp) throws IOException {
        Path bpftool = TestData.requireTool("bpftool");
        Btf kernel = kernel(target);
        assertBpftoolBytes(bpftool, target, kernel, objects(programs), tmp);
    }

    /**
     * type_matches (core_reads with its type_exists records patched): pid_t matches and is kept,
     * task_struct does not match and is kept only for the field relocations.
     */
    @ParameterizedTest(name = "type_matches on {0}")
    @MethodSource("targets")
    void typeMatchesSameBytesAsBpftool(Path target, @TempDir Path tmp) throws IOException {
        Path bpftool = TestData.requireTool("bpftool");
        Btf kernel = kernel(target);
        Path patched = CoreOracleTest.withTypeMatches(tmp);
        assertBpftoolBytes(bpftool, target, kernel, List.of(patched), tmp);
    }

    private static byte[] assertBpftoolBytes(Path bpftool, Path target, Btf kernel, List<Path> objects, Path tmp) {
        Path ref = tmp.resolve("ref.btf");
        List<String> cmd = new ArrayList<>(List.of(bpftool.toString(), "gen", "min_core_btf", target.toString(), ref.toString()));
        objects.forEach(o -> cmd.add(o.toString()));
        TestData.run(cmd);
        byte[] want = TestData.bytes(ref);
        byte[] got = BtfWriter.write(minimize(kernel, objects));
        assertArrayEquals(want, got, "bpftool wrote " + want.length + " bytes, btfkit " + got.length);
        return got;
    }

    @Provide
    Arbitrary<Path> kernels() {
        return Arbitraries.of(targets().stream().filter(Files::exists).toList());
    }

    @Provide
    Arbitrary<List<String>> programSets() {
        return Arbitraries.subsetOf(PROGRAMS).filter(s -> !s.isEmpty()).map(s -> PROGRAMS.stream().filter(s::contains).toList());
    }

    /**
     * Every relocation of every program of the set resolves on the minimized BTF as on the full
     * one: same status and value, and for target_type_id the id of the same type (name and kind)
     * in the minimized BTF.
     */
    @Property(tries = 20)
    void sameRelocationValues(@ForAll("kernels") Path target, @ForAll("programSets") List<String> programs) {
        Btf full = kernel(target);
        Btf min = BtfReader.read(BtfWriter.write(minimize(full, objects(programs))));
        CoreRelocator onFull = new CoreRelocator(full);
        CoreRelocator onMin = new CoreRelocator(min);
        int checked = 0;
        for (Path o : objects(programs)) {
            LoadedInput in = InputLoader.load(o, null);
            checked += ReloOutcomes.assertSame(full, onFull.resolveAll(in.btf(), in.ext()), min, onMin.resolveAll(in.btf(), in.ext()),
                    o.getFileName().toString(), (fid, mid) -> { });
        }
        assertTrue(checked > 0);
    }
}
