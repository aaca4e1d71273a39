package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import io.btfkit.minimize.RawJoin;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * {@code btfkit minimize MODULE --base VMLINUX}: the minimal base and split pair, the standalone
 * form, a module given as a .ko, usage errors, outputs landing together (bytes against bpftool:
 * corpus MinimizeSplitTest).
 */
class MinimizeSplitCommandTest {
    @TempDir
    Path tmp;

    private static final String MODULE_READS = TestData.sample("bpf/module_reads.bpf.o").toString();
    private static final String TASK_TRACE = TestData.sample("bpf/task_trace.bpf.o").toString();
    private String vmlinux;
    private String mlx4;

    @BeforeEach
    void golden() {
        Path v = TestData.golden("vmlinux-6.1.0-56.btf");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(v), "skipped: " + v + " missing");
        vmlinux = v.toString();
        mlx4 = TestData.golden("modules/mlx4_core.btf").toString();
    }

    /**
     * Ids (also as target_type_id's value) and raw access paths differ between the full and the
     * minimal BTF; the rest of each line must not.
     */
    private static String withoutIds(String coreCheck) {
        return coreCheck.replaceAll("(?m)^(.* target_type_id .* = )\\d+$", "$1ID").replaceAll("\\[\\d+\\]|\\([0-9:]+\\)", "");
    }

    @Test
    void writesAMinimalBaseAndSplitThatResolveAsTheFullPair() {
        Path split = tmp.resolve("min.split.btf");
        Path base = tmp.resolve("min.base.btf");
        Cli c = Cli.run("minimize", mlx4, "--base", vmlinux, "-o", split.toString(), "--base-out", base.toString(), MODULE_READS);
        assertEquals(0, c.exit, c.toString());
        assertEquals("", c.outText() + c.err);
        Cli dump = Cli.run("dump", split.toString(), "--base", base.toString());
        assertEquals(0, dump.exit, dump.toString());
        assertTrue(dump.outText().startsWith("[8] ENUM 'mlx4_port_type' encoding=UNSIGNED size=4 vlen=4\n"), dump.outText());
        assertTrue(dump.outText().contains("[10] STRUCT 'mlx4_dev_persistent' size=240 vlen=1\n\t'pdev' type_id=7 bits_offset=0\n"),
                dump.outText());
        assertTrue(Cli.run("dump", base.toString()).outText().contains("[7] PTR '(anon)' type_id=6\n"));

        Cli onPair = Cli.run("core-check", MODULE_READS, "--btf", split.toString(), "--base", base.toString());
        Cli onFull = Cli.run("core-check", MODULE_READS, "--btf", mlx4, "--base", vmlinux);
        assertEquals(0, onFull.exit, onFull.toString());
        assertEquals(onFull.exit, onPair.exit);
        assertEquals(withoutIds(onFull.outText()), withoutIds(onPair.outText()));
        assertTrue(onPair.outText().endsWith("14 relocations, 0 unresolved\n"), onPair.outText());
    }

    @Test
    void standaloneIsThePairJoined() {
        Path split = tmp.resolve("s.btf");
        Path base = tmp.resolve("b.btf");
        Path one = tmp.resolve("one.btf");
        assertEquals(0, Cli.run("minimize", mlx4, "-B", vmlinux, "-o", split.toString(), "--base-out", base.toString(),
                MODULE_READS, TASK_TRACE).exit);
        Cli st = Cli.run("minimize", mlx4, "--base-btf", vmlinux, "--standalone", "-o", one.toString(), MODULE_READS, TASK_TRACE);
        assertEquals(0, st.exit, st.toString());
        assertArrayEquals(TestData.bytes(one), RawJoin.join(TestData.bytes(base), TestData.bytes(split)));
        // --standalone on a standalone target changes nothing
        Path plain = tmp.resolve("plain.btf");
        Path flagged = tmp.resolve("flagged.btf");
        String v47 = TestData.golden("vmlinux-6.1.0-47.btf").toString();
        assertEquals(0, Cli.run("minimize", v47, "-o", plain.toString(), TASK_TRACE).exit);
        assertEquals(0, Cli.run("minimize", v47, "--standalone", "-o", flagged.toString(), TASK_TRACE).exit);
        assertArrayEquals(TestData.bytes(plain), TestData.bytes(flagged));
        Cli onOne = Cli.run("core-check", MODULE_READS, "--btf", one.toString());
        assertEquals(withoutIds(Cli.run("core-check", MODULE_READS, "--btf", mlx4, "--base", vmlinux).outText()), withoutIds(onOne.outText()));
    }

    /** A .ko (the module's .BTF in an ELF), also compressed, gives the bytes its raw split BTF gives. */
    @Test
    void aModuleKoWorksAsTarget() throws Exception {
        Path ko = TestData.sample("ko/roles.ko");
        Path xz = tmp.resolve("roles.ko.xz");
        try (OutputStream os = new XZOutputStream(Files.newOutputStream(xz), new LZMA2Options())) {
            os.write(TestData.bytes(ko));
        }
        String raw = TestData.golden("modules/roles.btf").toString();
        for (String target : new String[] {raw, ko.toString(), xz.toString()}) {
            String name = Path.of(target).getFileName().toString();
            Cli c = Cli.run("minimize", target, "--base", vmlinux, "-o", tmp.resolve(name + ".s").toString(),
                    "--base-out", tmp.resolve(name + ".b").toString(), TASK_TRACE, MODULE_READS);
            assertEquals(0, c.exit, c.toString());
        }
        for (String suffix : new String[] {".s", ".b"}) {
            byte[] want = TestData.bytes(tmp.resolve("roles.btf" + suffix));
            assertArrayEquals(want, TestData.bytes(tmp.resolve("roles.ko" + suffix)));
            assertArrayEquals(want, TestData.bytes(tmp.resolve("roles.ko.xz" + suffix)));
        }
        // roles has none of the programs' types: all of them come from the base, the split is empty
        assertEquals(24, TestData.bytes(tmp.resolve("roles.ko.s")).length);
    }

    /**
     * A module carrying a distilled base (.BTF.base) is relocated onto --base first, as the kernel
     * does when it loads it: the bytes of the module without one; one that does not map is exit 1.
     */
    @Test
    void aModuleWithADistilledBaseIsRelocatedOntoTheBaseFirst() {
        Path ko = TestData.sample("ko/roles.ko");
        Path distilled = tmp.resolve("roles.distilled.ko");
        Cli d = Cli.run("distill", ko.toString(), "--base", vmlinux, "--out-format", "elf", "-o", distilled.toString());
        assertEquals(0, d.exit, d.toString());
        for (Path in : new Path[] {ko, distilled}) {
            String n = in.getFileName().toString();
            Cli c = Cli.run("minimize", in.toString(), "--base", vmlinux, "-o", tmp.resolve(n + ".s").toString(),
                    "--base-out", tmp.resolve(n + ".b").toString(), TASK_TRACE);
            assertEquals(0, c.exit, c.toString());
        }
        assertArrayEquals(TestData.bytes(tmp.resolve("roles.ko.b")), TestData.bytes(tmp.resolve("roles.distilled.ko.b")));
        assertArrayEquals(TestData.bytes(tmp.resolve("roles.ko.s")), TestData.bytes(tmp.resolve("roles.distilled.ko.s")));
        assertTrue(TestData.bytes(tmp.resolve("roles.ko.b")).length > 100, "task_trace's vmlinux types are in the minimal base");

        Path out = tmp.resolve("out.btf");
        Cli noBase = Cli.run("minimize", distilled.toString(), "-o", out.toString(), TASK_TRACE);
        assertEquals(2, noBase.exit, noBase.toString());
        assertEquals("btfkit: " + distilled + ": carries a distilled base (.BTF.base): give the vmlinux BTF it is loaded on with --base\n",
                noBase.err);
        String other = TestData.golden("vmlinux-6.1.0-47.btf").toString();
        Cli noMap = Cli.run("minimize", distilled.toString(), "--base", other, "--standalone", "-o", out.toString(), TASK_TRACE);
        assertEquals(1, noMap.exit, noMap.toString());
        assertTrue(noMap.err.startsWith("btfkit: " + distilled + ": its distilled base does not map onto " + other + ": cannot relocate"),
                noMap.err);
        assertFalse(Files.exists(out));
    }

    @Test
    void usageErrorsAreExitTwoAndWriteNothing() {
        Path out = tmp.resolve("out.btf");
        Path baseOut = tmp.resolve("base.btf");

        Cli neither = Cli.run("minimize", mlx4, "--base", vmlinux, "-o", out.toString(), MODULE_READS);
        assertEquals(2, neither.exit, neither.toString());
        assertTrue(neither.err.startsWith("btfkit: " + mlx4 + " is split BTF: give --base-out OUT_BASE"), neither.err);
        assertTrue(neither.err.contains("--standalone"), neither.err);

        Cli both = Cli.run("minimize", mlx4, "--base", vmlinux, "--standalone", "-o", out.toString(), "--base-out",
                baseOut.toString(), MODULE_READS);
        assertEquals(2, both.exit, both.toString());
        assertTrue(both.err.contains("not both"), both.err);

        Cli noBase = Cli.run("minimize", TestData.vmlinux618().toString(), "-o", out.toString(), "--base-out", baseOut.toString(),
                TASK_TRACE);
        assertEquals(2, noBase.exit, noBase.toString());
        assertTrue(noBase.err.startsWith("btfkit: --base-out needs a split TARGET"), noBase.err);

        Cli noBaseForSplit = Cli.run("minimize", mlx4, "-o", out.toString(), MODULE_READS);
        assertEquals(2, noBaseForSplit.exit, noBaseForSplit.toString());
        assertTrue(noBaseForSplit.err.contains("give its base with --base"), noBaseForSplit.err);

        Cli sameFile = Cli.run("minimize", mlx4, "--base", vmlinux, "-o", out.toString(), "--base-out", out.toString(), MODULE_READS);
        assertEquals(2, sameFile.exit, sameFile.toString());

        assertFalse(Files.exists(out));
        assertFalse(Files.exists(baseOut));
    }

    /**
     * The split and its base land together or not at all: a base output that cannot be written
     * leaves no split either (and no temporary file).
     */
    @Test
    void thePairLandsTogetherOrNotAtAll() throws Exception {
        Path out = tmp.resolve("out.btf");
        Path baseOut = tmp.resolve("no-such-dir").resolve("base.btf");
        Cli c = Cli.run("minimize", mlx4, "--base", vmlinux, "-o", out.toString(), "--base-out", baseOut.toString(), MODULE_READS);
        assertNotEquals(0, c.exit, c.toString());
        assertEquals(1, c.err.split("\n").length, c.err);
        assertFalse(Files.exists(out));
        assertFalse(Files.exists(baseOut));
        try (var s = Files.list(tmp)) {
            assertEquals(0, s.count(), "no temporary file left");
        }
    }
}
