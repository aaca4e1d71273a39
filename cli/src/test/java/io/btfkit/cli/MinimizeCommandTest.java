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
