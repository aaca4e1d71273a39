package io.btfkit.corpus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.RequiresTools;
import io.btfkit.core.TestData;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.core.text.RawTextParser;
import io.btfkit.minimize.CoreProgram;
import io.btfkit.minimize.CoreRelocator;
import io.btfkit.minimize.Minimizer;
import io.btfkit.minimize.ReloKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * btfkit against libbpf itself on random CO-RE programs and kernels ({@link CoreCases}: nested
 * structs, arrays, bitfields, flavours matching partly, several at once or not at all, changed
 * sizes and signedness, type and enum relocations), one or two objects on the same types. Each
 * try builds the programs with clang, and:
 * <ol>
 * <li>every relocation's outcome — the value patched in, a poisoned instruction or the error
 *     libbpf stops at, and the target spec (first matching candidate's type id and access path) —
 *     is libbpf's ({@link LibbpfCore});</li>
 * <li>{@code minimize} of all the objects fails exactly where bpftool's {@code gen min_core_btf} fails, and otherwise
 *     writes bpftool's bytes, unless it had to keep more ({@link Minimizer#widened}): then libbpf
 *     resolves bpftool's output otherwise than the full target, which proves the difference
 *     was needed;</li>
 * <li>libbpf gets from btfkit's minimal BTF what it gets from the full target (values, poisoned
 *     instructions, errors; type ids aside), loads the program where it loaded it, and btfkit
 *     agrees with libbpf on the minimal BTF too.</li>
 * </ol>
 * 40 tries by default ({@code -Dbtfkit.core.tries=N} for more: about 6 tries a second).
 */
@RequiresTools({"clang", "bpftool", "btfref"})
class CoreDifferentialTest {
    static final AtomicInteger TRIES = new AtomicInteger();
    static final AtomicInteger RELOCATIONS = new AtomicInteger();
    static final AtomicInteger WIDENED = new AtomicInteger();
    /** What the tries met, for {@code -Dbtfkit.core.report=true}. */
    static final java.util.concurrent.ConcurrentHashMap<String, AtomicInteger> MET = new java.util.concurrent.ConcurrentHashMap<>();

    private static void met(String what) {
        MET.computeIfAbsent(what, k -> new AtomicInteger()).incrementAndGet();
    }

    /** {@code -Dbtfkit.core.tries=N} sets the number of tries. */
    static final class Tries implements AroundPropertyHook {
        @Override
        public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
            String n = System.getProperty("btfkit.core.tries");
            if (n != null && !n.isEmpty()) {
                context.attributes().setTries(Integer.parseInt(n));
            }
            PropertyExecutionResult result = property.execute();
            if (Boolean.getBoolean("btfkit.core.report")) {
                System.out.println("CoreDifferentialTest: " + TRIES + " tries, " + RELOCATIONS + " relocations, " + WIDENED
                        + " outputs widened beyond bpftool's; met: " + new java.util.TreeMap<>(MET));
            }
            return result;
        }
    }

    @Property(tries = 40)
    @AddLifecycleHook(Tries.class)
    void btfkitResolvesAndMinimizesAsLibbpfAndBpftool(@ForAll long seed, @ForAll @IntRange(min = 1, max = 2) int families,
                                                       @ForAll @IntRange(min = 1, max = 10) int accesses,
                                                       @ForAll @IntRange(min = 1, max = 2) int objects) throws IOException {
        CoreCases.Case c = CoreCases.generate(seed, families, accesses, objects);
        Path dir = Files.createTempDirectory("btfkit-core-");
        try {
            check(c, dir);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + c, e);
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    private static void check(CoreCases.Case c, Path dir) throws IOException {
        TRIES.incrementAndGet();
        List<Path> objects = new ArrayList<>();
        for (int i = 0; i < c.sources().size(); i++) {
            Path object = LibbpfCore.tryCompile(dir, "prog" + i, c.sources().get(i));
            if (object == null) {
                // clang 14 refuses a few field-info requests on bitfields ("requiring too big alignment")
                met("clang refused");
                Assume.that(Files.readString(dir.resolve("prog" + i + ".clang.log")).contains("llvm.bpf.preserve.field.info"));
                return;
            }
            objects.add(object);
        }
        Btf target = BtfReader.read(BtfWriter.write(RawTextParser.parse(c.target(), null)));
        Path targetFile = Files.write(dir.resolve("target.btf"), BtfWriter.write(target));

        // 1. btfkit's outcomes are libbpf's, object by object
        List<String> logs = new ArrayList<>();
        for (Path object : objects) {
            String log = LibbpfCore.log(object, targetFile);
            logs.add(log);
            List<LibbpfCore.Outcome> libbpf = LibbpfCore.outcomes(log);
            assertEquals(libbpf, LibbpfCore.btfkit(object, target), log);
            count(log, libbpf);
        }

        // 2. minimize (all objects at once) fails where bpftool fails, else writes its bytes or proves why not
        Path ref = dir.resolve("ref.btf");
        boolean bpftoolOk = bpftool(targetFile, ref, objects);
        Minimizer m = new Minimizer(target);
        byte[] min;
        try {
            CoreRelocator relocator = new CoreRelocator(target);
            for (Path object : objects) {
                LoadedInput in = InputLoader.load(object, null);
                m.recordAll(relocator, CoreProgram.parse(object.toString(), in.btf(), in.ext(), in.elf()));
            }
            min = BtfWriter.write(m.build());
        } catch (BtfException e) {
            assertFalse(bpftoolOk, "btfkit failed where bpftool did not: " + e.getMessage());
            return;
        }
        assertTrue(bpftoolOk, "bpftool failed where btfkit did not");
        if (m.widened().isEmpty()) {
            assertArrayEquals(TestData.bytes(ref), min, "not bpftool's bytes");
        } else {
            WIDENED.incrementAndGet();
            boolean differs = false;
            for (int i = 0; i < objects.size(); i++) {
                Map<String, ReloKind> kinds = LibbpfCore.kinds(objects.get(i));
                differs |= !LibbpfCore.withoutIds(LibbpfCore.outcomes(logs.get(i)), kinds)
                        .equals(LibbpfCore.withoutIds(LibbpfCore.outcomes(LibbpfCore.log(objects.get(i), ref)), kinds));
            }
            assertTrue(differs, "btfkit kept more than bpftool where bpftool's output resolves as the target does");
        }

        // 3. libbpf on the minimal BTF: as on the full target; btfkit agrees with it there too
        Path minFile = Files.write(dir.resolve("min.btf"), min);
        Btf minBtf = BtfReader.read(min);
        for (int i = 0; i < objects.size(); i++) {
            Path object = objects.get(i);
            Map<String, ReloKind> kinds = LibbpfCore.kinds(object);
            String onMin = LibbpfCore.log(object, minFile);
            List<LibbpfCore.Outcome> libbpfOnMin = LibbpfCore.outcomes(onMin);
            assertEquals(LibbpfCore.withoutIds(LibbpfCore.outcomes(logs.get(i)), kinds), LibbpfCore.withoutIds(libbpfOnMin, kinds), onMin);
            if (logs.get(i).contains("core_oracle: load 0")) {
                assertTrue(onMin.contains("core_oracle: load 0"), onMin);
            }
            assertEquals(libbpfOnMin, LibbpfCore.btfkit(object, minBtf), onMin);
        }
    }

    /** What a try met, for the report. */
    private static void count(String log, List<LibbpfCore.Outcome> libbpf) {
        RELOCATIONS.addAndGet(libbpf.size());
        for (LibbpfCore.Outcome o : libbpf) {
            met(o.value().equals("poison") || o.value().equals("error") ? o.value() : o.target() == null ? "no match" : "match");
        }
        if (log.contains("accesses field incorrectly")) {
            met("mem size poison");
        }
        if (log.contains("mem_sz")) {
            met("mem size patched");
        }
        if (log.contains("ambiguity")) {
            met("ambiguity");
        }
        if (java.util.regex.Pattern.compile("matching candidate #[1-9]").matcher(log).find()) {
            met("several candidates");
        }
    }

    /** Runs bpftool gen min_core_btf; whether it succeeded. */
    private static boolean bpftool(Path target, Path out, List<Path> objects) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(TestData.requireTool("bpftool").toString(), "gen", "min_core_btf", target.toString(),
                out.toString()));
        objects.forEach(o -> cmd.add(o.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            return p.waitFor() == 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
