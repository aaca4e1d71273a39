package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

/** {@code btfkit minimize}: output, inputs of every form, errors (bytes against bpftool: corpus MinimizeTest). */
class MinimizeCommandTest {
    @TempDir
    Path tmp;

    private static final String TASK_TRACE = TestData.sample("bpf/task_trace.bpf.o").toString();

    @Test
    void writesTheMinimalBtfAndItResolvesAsTheFullOne() {
        Path out = tmp.resolve("min.btf");
        Cli c = Cli.run("minimize", TestData.vmlinux618().toString(), "-o", out.toString(), TASK_TRACE);
        assertEquals(0, c.exit, c.toString());
        assertEquals("", c.outText() + c.err);
        assertEquals(424, TestData.bytes(out).length);
        Cli dump = Cli.run("dump", out.toString());
        assertTrue(dump.outText().contains("[7] STRUCT 'task_struct' size=3264 vlen=6\n"), dump.outText());
        Cli onMin = Cli.run("core-check", TASK_TRACE, "--btf", out.toString());
        Cli onFull = Cli.run("core-check", TASK_TRACE, "--btf", TestData.vmlinux618().toString());
        assertEquals(onFull.outText().replaceAll("\\[\\d+\\]|\\([0-9:]+\\)", ""), onMin.outText().replaceAll("\\[\\d+\\]|\\([0-9:]+\\)", ""));
    }

    private static final String CORE_RULES = TestData.sample("core/core_rules.bpf.o").toString();

    /**
     * Where bpftool's first-match output would resolve otherwise (docs/MINIMIZE.md), minimize
     * keeps every matching candidate's members and says so; the relocations then resolve on
     * the output as on the kernel.
     */
    @Test
    void keepsEveryMatchWhereTheFirstWouldNotDoAndSaysSo() {
        String kernel = TestData.sample("core/core_rules.kernel.txt").toString();
        Path out = tmp.resolve("min.btf");
        Cli c = Cli.run("minimize", kernel, "-o", out.toString(), CORE_RULES);
        assertEquals(0, c.exit, c.toString());
        assertEquals("btfkit: " + kernel + ": note: libbpf would resolve " + CORE_RULES + " kprobe/do_exit relo #1 otherwise on"
                + " bpftool gen min_core_btf's output than here: kept every matching candidate's members, the output differs"
                + " from bpftool's (docs/MINIMIZE.md)\n", c.err);
        String noIds = "\\[\\d+\\]|\\([0-9:]+\\)";
        assertEquals(Cli.run("core-check", CORE_RULES, "--btf", kernel).outText().replaceAll(noIds, ""),
                Cli.run("core-check", CORE_RULES, "--btf", out.toString()).outText().replaceAll(noIds, ""));
    }

    /**
     * A batch resolves each object afresh on each target (the candidate lists are never shared
     * between targets or threads): every output is the single run's, on kernels where the lists
     * evolve differently.
     */
    @Test
    void aBatchResolvesEachObjectAfreshOnEachTarget() throws Exception {
        List<Path> kernels = new ArrayList<>();
        String[] variants = {
            // s.x matches both flavours, s.y the second
            Files.readString(TestData.sample("core/core_rules.kernel.txt")),
            // s.x matches the second flavour only; the first has y alone
            """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] STRUCT 's___1' size=8 vlen=1
            \t'y' type_id=1 bits_offset=32
            [3] STRUCT 's___2' size=12 vlen=2
            \t'x' type_id=1 bits_offset=32
            \t'y' type_id=1 bits_offset=64
            [4] STRUCT 't' size=8 vlen=2
            \t'a' type_id=1 bits_offset=0
            \t'b' type_id=1 bits_offset=32
            """,
        };
        for (int round = 0; round < 4; round++) {
            Path k = tmp.resolve("k" + round + ".txt");
            Files.writeString(k, variants[round % 2]);
            kernels.add(k);
        }
        Path d = tmp.resolve("out");
        List<String> args = new ArrayList<>(List.of("minimize", "-q", "--out-dir", d.toString()));
        kernels.forEach(k -> args.add(k.toString()));
        args.add(CORE_RULES);
        Cli batch = Cli.run(args.toArray(new String[0]));
        assertEquals(0, batch.exit, batch.toString());
        for (Path k : kernels) {
            Path one = tmp.resolve("one.btf");
            assertEquals(0, Cli.run("minimize", k.toString(), "-o", one.toString(), CORE_RULES).exit);
            assertArrayEquals(TestData.bytes(one), TestData.bytes(d.resolve(Stems.stem(k) + ".btf")), k.toString());
        }
    }

    @Test
    void aCompressedTargetGivesTheSameBytes() throws Exception {
        Path xz = tmp.resolve("vmlinux.btf.xz");
        try (OutputStream os = new XZOutputStream(Files.newOutputStream(xz), new LZMA2Options())) {
            os.write(TestData.bytes(TestData.golden("vmlinux-6.1.0-47.btf")));
        }
        Path a = tmp.resolve("a.btf");
        Path b = tmp.resolve("b.btf");
        assertEquals(0, Cli.run("minimize", TestData.golden("vmlinux-6.1.0-47.btf").toString(), "-o", a.toString(), TASK_TRACE).exit);
        assertEquals(0, Cli.run("minimize", xz.toString(), "-o", b.toString(), TASK_TRACE).exit);
        assertArrayEquals(TestData.bytes(a), TestData.bytes(b));
    }

    /** vmlinux + module joined by link --standalone, then minimized: the same bytes as bpftool on that blob. */
    @Test
    void anAllInOneBlobFromLinkMatchesBpftool() {
        Path bpftool = TestData.requireTool("bpftool");
        Path blob = tmp.resolve("all.btf");
        Cli link = Cli.run("link", "--base", TestData.golden("vmlinux-6.1.0-56.btf").toString(), "--standalone",
                TestData.golden("modules/roles.btf").toString(), "-o", blob.toString());
        assertEquals(0, link.exit, link.toString());
        String[] progs = {TASK_TRACE, TestData.sample("bpf/net_stats.bpf.o").toString(), TestData.sample("bpf/core_reads.bpf.o").toString()};
        Path ref = tmp.resolve("ref.btf");
        Path out = tmp.resolve("min.btf");
        List<String> cmd = new ArrayList<>(List.of(bpftool.toString(), "gen", "min_core_btf",
                blob.toString(), ref.toString()));
        cmd.addAll(List.of(progs));
        TestData.run(cmd);
        List<String> args = new ArrayList<>(List.of("minimize", blob.toString(), "-o", out.toString()));
        args.addAll(List.of(progs));
        Cli c = Cli.run(args.toArray(String[]::new));
        assertEquals(0, c.exit, c.toString());
        assertArrayEquals(TestData.bytes(ref), TestData.bytes(out));
    }

    @Test
    void badInputIsExitTwoAndNothingIsWritten() throws Exception {
        Path out = tmp.resolve("min.btf");
        Path raw = TestData.vmlinux618();
        Cli notObject = Cli.run("minimize", raw.toString(), "-o", out.toString(), raw.toString());
        assertEquals(2, notObject.exit, notObject.toString());
        assertEquals("btfkit: " + raw + ": no .BTF.ext section: not a BPF object built with -g\n", notObject.err);
        assertFalse(Files.exists(out));

        Path junk = tmp.resolve("junk.btf");
        Files.write(junk, "junk".getBytes());
        Cli badTarget = Cli.run("minimize", junk.toString(), "-o", out.toString(), TASK_TRACE);
        assertEquals(2, badTarget.exit);
        assertTrue(badTarget.err.startsWith("btfkit: " + junk + ": "), badTarget.err);
        assertEquals(1, badTarget.err.split("\n").length, badTarget.err);
        assertFalse(Files.exists(out));

        Cli noOutput = Cli.run("minimize", raw.toString(), TASK_TRACE);
        assertEquals(2, noOutput.exit);
        assertTrue(noOutput.err.contains("-o"), noOutput.err);

        Cli overwrite = Cli.run("minimize", raw.toString(), "-o", TASK_TRACE, TASK_TRACE);
        assertEquals(2, overwrite.exit, overwrite.toString());
    }
}
