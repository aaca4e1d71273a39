package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/** {@code btfkit minimize --out-dir}: many targets in one run (issue 16, part 4). */
class MinimizeBatchTest {
    @TempDir
    Path tmp;

    private static final Path TASK_TRACE = TestData.sample("bpf/task_trace.bpf.o");
    private static final Path NET_STATS = TestData.sample("bpf/net_stats.bpf.o");
    private static final Path CORE_READS = TestData.sample("bpf/core_reads.bpf.o");

    /** Two fields of task_struct whose candidates disagree on pid's offset: resolving is an error. */
    private static final String AMBIGUOUS = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] STRUCT 'task_struct' size=8 vlen=1
            \t'pid' type_id=1 bits_offset=0
            [3] STRUCT 'task_struct___x' size=8 vlen=1
            \t'pid' type_id=1 bits_offset=32
            """;

    private static Cli run(List<Object> args) {
        return Cli.run(args.stream().map(Object::toString).toArray(String[]::new));
    }

    private Path xz(Path src, String name) throws Exception {
        Path xz = tmp.resolve(name);
        try (OutputStream os = new XZOutputStream(Files.newOutputStream(xz), new LZMA2Options(1))) {
            os.write(TestData.bytes(src));
        }
        return xz;
    }

    /** Each output of the batch is the single command's output for that target; objects may come anywhere. */
    @Test
    void batchOutputsAreTheSingleTargetOutputs() throws Exception {
        Path k47 = TestData.golden("vmlinux-6.1.0-47.btf");
        Path k56 = xz(TestData.golden("vmlinux-6.1.0-56.btf"), "vmlinux-6.1.0-56.btf.xz");
        Path k618 = TestData.vmlinux618();
        Path d = tmp.resolve("out");
        Cli c = run(List.of("minimize", "--out-dir", d, "-q", TASK_TRACE, k47, NET_STATS, k56, k618, CORE_READS));
        assertEquals(0, c.exit, c.toString());
        assertTrue(c.err.matches("btfkit: minimize: 3 ok, 0 failed in [0-9.]+ s\n"), c.err);
        for (Path k : List.of(k47, k56, k618)) {
            Path single = tmp.resolve("single.btf");
            Cli s = run(List.of("minimize", k, "-o", single, TASK_TRACE, NET_STATS, CORE_READS));
            assertEquals(0, s.exit, s.toString());
            assertArrayEquals(TestData.bytes(single), TestData.bytes(d.resolve(Stems.stem(k) + ".btf")), k.toString());
        }
        try (var files = Files.list(d)) {
            assertEquals(List.of("vmlinux-6.1.0-47.btf", "vmlinux-6.1.0-56.btf", "vmlinux-6.18.btf"),
                    files.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    /**
     * Issue 23: a compressed BPF object is an object, as single mode reads it: inputs are told
     * apart after unwrapping compression (it was taken for a target: D/kernel.btf lacked the
     * types task_trace needs, a bogus D/task_trace.bpf.btf was written, exit 0). xz, zstd and
     * gzip; a compressed tar or kernel BTF stays a target.
     */
    @Test
    void compressedObjectsAreObjects() throws Exception {
        Path kernel = TestData.golden("vmlinux-6.1.0-47.btf");
        Path single = tmp.resolve("single.btf");
        assertEquals(0, run(List.of("minimize", kernel, "-o", single, TASK_TRACE, NET_STATS)).exit);
        Path xzObject = xz(TASK_TRACE, "task_trace.bpf.o.xz");
        Path gzObject = tmp.resolve("task_trace.bpf.o.gz");
        try (OutputStream os = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gzObject))) {
            os.write(TestData.bytes(TASK_TRACE));
        }
        Path zstObject = tmp.resolve("task_trace.bpf.o.zst");
        Files.write(zstObject, com.github.luben.zstd.Zstd.compress(TestData.bytes(TASK_TRACE)));
        Path xzKernel = xz(kernel, "vmlinux-6.1.0-47.btf.xz");
        for (Path object : List.of(xzObject, gzObject, zstObject)) {
            for (Path k : List.of(kernel, xzKernel)) {
                Path d = tmp.resolve("out-" + object.getFileName() + "-" + k.getFileName());
                Cli c = run(List.of("minimize", "-q", "--out-dir", d, k, object, NET_STATS));
                assertEquals(0, c.exit, c.toString());
                try (var files = Files.list(d)) {
                    assertEquals(List.of("vmlinux-6.1.0-47.btf"), files.map(p -> p.getFileName().toString()).toList(), object.toString());
                }
                assertArrayEquals(TestData.bytes(single), TestData.bytes(d.resolve("vmlinux-6.1.0-47.btf")), object + " " + k);
            }
        }
    }

    /**
     * Modules of one kernel in one run, --base for all: each pair (D/STEM.split.btf,
     * D/STEM.base.btf) and each --standalone output is the single command's; a target that is
     * not split fails on its own in a pair run, and the others are written.
     */
    @Test
    void splitTargetsInABatchAreTheSingleCommandsPairs() {
        Path vmlinux = TestData.golden("vmlinux-6.1.0-56.btf");
        Path moduleReads = TestData.sample("bpf/module_reads.bpf.o");
        List<Path> modules = List.of(TestData.golden("modules/mlx4_core.btf"), TestData.golden("modules/roles.btf"));
        Path pairs = tmp.resolve("pairs");
        Path whole = tmp.resolve("whole");
        List<Object> args = new ArrayList<>(List.of("minimize", "-q", "--out-dir", pairs, "-B", vmlinux, moduleReads, TASK_TRACE));
        args.addAll(modules);
        Cli c = run(args);
        assertEquals(0, c.exit, c.toString());
        List<Object> standalone = new ArrayList<>(List.of("minimize", "-q", "--out-dir", whole, "-B", vmlinux, "--standalone",
                moduleReads, TASK_TRACE));
        standalone.addAll(modules);
        Cli w = run(standalone);
        assertEquals(0, w.exit, w.toString());
        for (Path m : modules) {
            String stem = Stems.stem(m);
            Path split = tmp.resolve("s.btf");
            Path base = tmp.resolve("b.btf");
            Path one = tmp.resolve("one.btf");
            assertEquals(0, run(List.of("minimize", m, "-B", vmlinux, "-o", split, "--base-out", base, moduleReads, TASK_TRACE)).exit);
            assertEquals(0, run(List.of("minimize", m, "-B", vmlinux, "--standalone", "-o", one, moduleReads, TASK_TRACE)).exit);
            assertArrayEquals(TestData.bytes(split), TestData.bytes(pairs.resolve(stem + ".split.btf")), stem);
            assertArrayEquals(TestData.bytes(base), TestData.bytes(pairs.resolve(stem + ".base.btf")), stem);
            assertArrayEquals(TestData.bytes(one), TestData.bytes(whole.resolve(stem + ".btf")), stem);
        }
        // the module's own types are in its minimal split: mlx4_core's is more than a header
        assertTrue(TestData.bytes(pairs.resolve("mlx4_core.split.btf")).length > 24);

        Path mixed = tmp.resolve("mixed");
        Cli m = run(List.of("minimize", "-q", "--out-dir", mixed, "-B", vmlinux, moduleReads, modules.get(1),
                TestData.golden("vmlinux-6.1.0-47.btf")));
        assertEquals(1, m.exit, m.toString());
        assertTrue(m.err.contains("vmlinux-6.1.0-47.btf: is standalone BTF, not split BTF of"), m.err);
        assertTrue(Files.exists(mixed.resolve("roles.split.btf")));
        assertFalse(Files.exists(mixed.resolve("vmlinux-6.1.0-47.split.btf")));
    }

    /** The byte identity with bpftool holds for every output of a batch (3 kernels, 3 objects). */
    @Test
    void batchOutputsMatchBpftool() {
        Path bpftool = TestData.requireTool("bpftool");
        List<Path> kernels = List.of(TestData.vmlinux618(), TestData.golden("vmlinux-6.1.0-47.btf"),
                TestData.golden("vmlinux-6.1.0-56-cloud.btf"));
        Path d = tmp.resolve("out");
        List<Object> args = new ArrayList<>(List.of("minimize", "-q", "--out-dir", d));
        args.addAll(kernels);
        args.addAll(List.of(TASK_TRACE, NET_STATS, CORE_READS));
        Cli c = run(args);
        assertEquals(0, c.exit, c.toString());
        for (Path k : kernels) {
            Path ref = tmp.resolve("ref.btf");
            TestData.run(List.of(bpftool.toString(), "gen", "min_core_btf", k.toString(), ref.toString(),
                    TASK_TRACE.toString(), NET_STATS.toString(), CORE_READS.toString()));
            assertArrayEquals(TestData.bytes(ref), TestData.bytes(d.resolve(Stems.stem(k) + ".btf")), k.toString());
        }
    }

    /** A malformed target and one whose relocation is an error are reported and counted; the others are written. */
    @Test
    void badTargetsAreReportedAndTheOthersWritten() throws Exception {
        Path junk = tmp.resolve("junk.btf");
        Files.writeString(junk, "junk\n");
        Path ambiguous = tmp.resolve("ambiguous.txt");
        Files.writeString(ambiguous, AMBIGUOUS);
        Path split = tmp.resolve("module.btf");
        Files.copy(TestData.golden("modules/roles.btf"), split);
        Path d = tmp.resolve("out");
        Cli c = run(List.of("minimize", "--out-dir", d, "--summary-json", junk, TestData.vmlinux618(), ambiguous, split, TASK_TRACE));
        assertEquals(1, c.exit, c.toString());
        List<String> lines = c.err.lines().toList();
        assertEquals(4, lines.size(), c.err);
        assertTrue(lines.contains("btfkit: " + ambiguous + ": " + TASK_TRACE
                + ": tracepoint/sched/sched_process_exec relo #0: field offset ambiguity: 32 != 0 (bit offsets in candidates [3] and [2])"), c.err);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("btfkit: " + junk + ": not BTF")), c.err);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("btfkit: " + split + ": ")), c.err);
        assertTrue(lines.get(3).startsWith("btfkit: minimize: 1 ok, 3 failed in "), c.err);
        String json = c.outText().replaceAll("\\s", "");
        assertTrue(json.startsWith("{\"command\":\"minimize\",\"inputs\":4,\"ok\":1,\"failed\":3,"), c.outText());
        assertTrue(json.contains("{\"file\":\"" + ambiguous + "\",\"message\":\"" + TASK_TRACE + ":"), c.outText());
        try (var files = Files.list(d)) {
            assertEquals(List.of(d.resolve("vmlinux-6.18.btf")), files.toList());
        }
    }

    @Test
    void outputNamesThatCollideAreRefusedBeforeAnyWork() throws Exception {
        Path a = Files.createDirectories(tmp.resolve("a"));
        Path b = Files.createDirectories(tmp.resolve("b"));
        Files.copy(TestData.golden("vmlinux-6.1.0-47.btf"), a.resolve("vmlinux.btf"));
        Path bx = xz(TestData.golden("vmlinux-6.1.0-56.btf"), "b/vmlinux.btf.xz");
        Path d = tmp.resolve("out");
        Cli c = run(List.of("minimize", "--out-dir", d, a.resolve("vmlinux.btf"), bx, TASK_TRACE));
        assertEquals(2, c.exit, c.toString());
        assertEquals("btfkit: " + d.resolve("vmlinux.btf") + ": would be written for both " + a.resolve("vmlinux.btf")
                + " and " + bx + " (same name); give each input a distinct name or run them separately\n", c.err);
        assertFalse(Files.exists(d));
    }

    @Test
    void usageErrors() throws Exception {
        Path d = tmp.resolve("out");
        Path k = TestData.vmlinux618();
        Cli noObject = run(List.of("minimize", "--out-dir", d, k, TestData.golden("vmlinux-6.1.0-47.btf")));
        assertEquals(2, noObject.exit, noObject.toString());
        assertTrue(noObject.err.startsWith("btfkit: no BPF object among the inputs"), noObject.err);
        Cli noTarget = run(List.of("minimize", "--out-dir", d, TASK_TRACE, NET_STATS));
        assertEquals(2, noTarget.exit, noTarget.toString());
        assertTrue(noTarget.err.contains("no target among the inputs"), noTarget.err);
        Cli both = run(List.of("minimize", "--out-dir", d, "-o", tmp.resolve("x.btf"), k, TASK_TRACE));
        assertEquals(2, both.exit, both.toString());
        assertTrue(both.err.contains("exactly one of -o"), both.err);
        Path own = tmp.resolve("x.btf");
        Files.copy(TestData.golden("vmlinux-6.1.0-47.btf"), own);
        Cli overwrite = run(List.of("minimize", "--out-dir", tmp, own, TASK_TRACE));
        assertEquals(2, overwrite.exit, overwrite.toString());
        assertTrue(overwrite.err.contains("output would overwrite the input"), overwrite.err);
        assertFalse(Files.exists(d));
    }

    /** A BPF object without .BTF.ext stops the run before any target is read (exit 2, nothing written). */
    @Test
    void aBadObjectStopsTheRunBeforeAnyTarget() throws Exception {
        byte[] elf = TestData.bytes(TASK_TRACE).clone();
        byte[] name = ".BTF.ext\0".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        int renamed = 0;
        for (int i = 0; i + name.length <= elf.length; i++) {
            if (java.util.Arrays.equals(elf, i, i + name.length, name, 0, name.length)) {
                elf[i + 7] = 'x'; // the section is now ".BTF.exx"
                renamed++;
            }
        }
        assertTrue(renamed > 0);
        Path noExt = tmp.resolve("noext.bpf.o");
        Files.write(noExt, elf);
        Path d = tmp.resolve("out");
        Cli c = run(List.of("minimize", "--out-dir", d, TestData.vmlinux618(), noExt));
        assertEquals(2, c.exit, c.toString());
        assertEquals("btfkit: " + noExt + ": no .BTF.ext section: not a BPF object built with -g\n", c.err);
        assertFalse(Files.exists(d));
    }

    /**
     * The objects are read and their relocations parsed once, before the first target: once made,
     * a {@link TargetMinimizer} no longer reads them (here they are gone) and hands every target
     * the same parsed records.
     */
    @Test
    void objectsAreParsedOnceForAllTargets() throws Exception {
        Path obj = tmp.resolve("prog.bpf.o");
        Files.copy(TASK_TRACE, obj);
        TargetMinimizer m = TargetMinimizer.forPrograms(List.of(obj), true);
        var parsed = m.programs();
        assertEquals(1, parsed.size());
        assertEquals(11, parsed.get(0).relos().size());
        assertTrue(parsed.get(0).essentialNames().contains("task_struct"), parsed.get(0).essentialNames().toString());
        Files.delete(obj);
        Path a = tmp.resolve("a.btf");
        Path b = tmp.resolve("b.btf");
        m.minimize(TestData.vmlinux618(), a);
        m.minimize(TestData.golden("vmlinux-6.1.0-47.btf"), b);
        assertEquals(424, Files.size(a));
        assertNotNull(TestData.bytes(b));
        assertSame(parsed, m.programs());
        // the second target was read into the first one's (larger) reader arrays: the same
        // output as from a minimizer of its own
        Files.copy(TASK_TRACE, obj);
        Path fresh = tmp.resolve("fresh.btf");
        TargetMinimizer.forPrograms(List.of(obj), true).minimize(TestData.golden("vmlinux-6.1.0-47.btf"), fresh);
        assertArrayEquals(TestData.bytes(fresh), TestData.bytes(b));
    }

    @Test
    void bpfObjectsAreToldByTheirMachine() throws Exception {
        assertTrue(MinimizeCommand.isBpfObject(TASK_TRACE));
        assertTrue(MinimizeCommand.isBpfObject(TestData.sample("bpf/task_trace.bpfeb.o")), "big-endian");
        assertFalse(MinimizeCommand.isBpfObject(TestData.vmlinux618()));
        assertTrue(MinimizeCommand.isBpfObject(xz(TASK_TRACE, "prog.o.xz")), "compressed: an object, once unwrapped");
        assertFalse(MinimizeCommand.isBpfObject(xz(TestData.vmlinux618(), "vmlinux.btf.xz")), "a compressed kernel BTF");
        assertFalse(MinimizeCommand.isBpfObject(tmp.resolve("missing")));
        assertFalse(MinimizeCommand.isBpfObject(Path.of("-")));
        Path x86 = tmp.resolve("x86.o");
        byte[] elf = TestData.bytes(TASK_TRACE).clone();
        elf[18] = 62; // EM_X86_64
        elf[19] = 0;
        Files.write(x86, elf);
        assertFalse(MinimizeCommand.isBpfObject(x86));
    }
}
