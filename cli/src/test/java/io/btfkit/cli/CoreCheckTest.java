package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code btfkit core-check}: its lines, exit statuses and errors. */
class CoreCheckTest {
    @TempDir
    Path tmp;

    private static List<String> lines(Cli c) {
        return List.of(c.outText().split("\n"));
    }

    @Test
    void everyRelocationResolvesOnTheNewKernel() {
        Cli c = Cli.run("core-check", TestData.sample("bpf/core_reads.bpf.o").toString(), "--btf", TestData.vmlinux618().toString());
        assertEquals(0, c.exit, c.toString());
        List<String> lines = lines(c);
        assertEquals(27, lines.size(), c.outText());
        assertTrue(lines.contains("kprobe/do_exit insn #5 byte_off struct task_struct.se.vruntime (0:2:0) -> [114] "
                + "struct task_struct.se.vruntime (0:19:14) = 248"), c.outText());
        assertTrue(lines.contains("kprobe/do_exit insn #29 field_exists struct task_struct___old.state (0:0) -> no match = 0"));
        assertTrue(lines.contains("kprobe/do_fork insn #10 local_type_id struct task_struct -> local = 5"));
        assertEquals("26 relocations, 0 unresolved", lines.get(26));
        assertEquals("", c.err);
    }

    /** Poisoned instructions and nothing worse: exit 3, the program loads only if they cannot run. */
    @Test
    void aPoisonedInstructionIsExitThree() {
        Cli c = Cli.run("core-check", TestData.sample("bpf/task_trace.bpf.o").toString(), "--btf", TestData.vmlinux618().toString());
        assertEquals(3, c.exit, c.toString());
        assertTrue(c.outText().contains("kprobe/do_exit insn #8 enumval_value enum task_state_bits::TASK_DEAD_BIT (2) -> no match: "
                + "instruction poisoned\n"), c.outText());
        assertTrue(c.outText().endsWith("11 relocations, 1 unresolved: 1 poisoned (the program loads only if it cannot run)\n"),
                c.outText());
    }

    /**
     * A relocation libbpf cannot resolve is exit 1 (it would not load the object), whatever is
     * poisoned besides; each line says why in libbpf's words.
     */
    @Test
    void aRelocationThatFailsIsExitOne() throws Exception {
        Path ambiguous = tmp.resolve("ambiguous.txt");
        Files.writeString(ambiguous, """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 'task_struct' size=8 vlen=1
                \t'pid' type_id=1 bits_offset=0
                [3] STRUCT 'task_struct___x' size=8 vlen=1
                \t'pid' type_id=1 bits_offset=32
                """);
        Cli c = Cli.run("core-check", TestData.sample("bpf/task_trace.bpf.o").toString(), "--btf", ambiguous.toString());
        assertEquals(1, c.exit, c.toString());
        assertTrue(c.outText().startsWith("tracepoint/sched/sched_process_exec insn #21 byte_off struct task_struct.pid (0:0) -> error: "
                + "field offset ambiguity: 32 != 0 (bit offsets in candidates [3] and [2])\n"), c.outText());
        assertTrue(c.outText().endsWith(" poisoned (the program loads only if they cannot run), 1 error (libbpf would not load the object)\n"),
                c.outText());
    }

    /** Without --btf: the running kernel's BTF, /sys/kernel/btf/vmlinux, as libbpf takes it at load. */
    @Test
    void withoutATargetTheRunningKernelsBtf() throws Exception {
        String prog = TestData.sample("bpf/net_stats.bpf.o").toString();
        Path sys = Files.createDirectories(tmp.resolve("sys"));
        Path old = KernelBtf.useDirectory(sys);
        try {
            Cli none = Cli.run("core-check", prog);
            assertEquals(2, none.exit, none.toString());
            assertEquals("btfkit: " + sys.resolve("vmlinux") + ": not found: the running kernel has no BTF (CONFIG_DEBUG_INFO_BTF);"
                    + " give the target BTF with --btf\n", none.err);
            Files.copy(TestData.golden("vmlinux-6.1.0-47.btf"), sys.resolve("vmlinux"));
            Cli running = Cli.run("core-check", prog);
            assertEquals(0, running.exit, running.toString());
            assertEquals(Cli.run("core-check", prog, "--btf", TestData.golden("vmlinux-6.1.0-47.btf").toString()).outText(),
                    running.outText());
        } finally {
            KernelBtf.useDirectory(old);
        }
    }

    /**
     * A module's /sys/kernel/btf/NAME is split BTF on /sys/kernel/btf/vmlinux: read on it without
     * --base, as target or as any other input (bpftool's rule).
     */
    @Test
    void aModuleInSysfsIsReadOnTheKernelsBtf() throws Exception {
        Path sys = Files.createDirectories(tmp.resolve("sys"));
        Path base = TestData.golden("vmlinux-6.1.0-56.btf");
        Files.copy(base, sys.resolve("vmlinux"));
        Files.copy(TestData.golden("modules/roles.btf"), sys.resolve("roles"));
        String prog = TestData.sample("bpf/net_stats.bpf.o").toString();
        Path old = KernelBtf.useDirectory(sys);
        try {
            Cli onSysfs = Cli.run("core-check", prog, "--btf", sys.resolve("roles").toString());
            assertEquals(0, onSysfs.exit, onSysfs.toString());
            assertEquals(Cli.run("core-check", prog, "--btf", TestData.golden("modules/roles.btf").toString(), "--base", base.toString())
                    .outText(), onSysfs.outText());
            Cli dumped = Cli.run("dump", sys.resolve("roles").toString());
            assertEquals(0, dumped.exit, dumped.toString());
            assertEquals(Cli.run("dump", TestData.golden("modules/roles.btf").toString(), "--base", base.toString()).outText(),
                    dumped.outText());
            // the same file elsewhere is just a file: split BTF without its base
            assertEquals(2, Cli.run("dump", TestData.golden("modules/roles.btf").toString()).exit);
        } finally {
            KernelBtf.useDirectory(old);
        }
    }

    @Test
    void aSplitTargetFindsCandidatesInItsBaseFirst() {
        Path base = TestData.golden("vmlinux-6.1.0-56.btf");
        Path module = TestData.golden("modules/roles.btf");
        String prog = TestData.sample("bpf/net_stats.bpf.o").toString();
        Cli split = Cli.run("core-check", prog, "--btf", module.toString(), "--base", base.toString());
        Cli whole = Cli.run("core-check", prog, "--btf", base.toString());
        assertEquals(0, split.exit, split.toString());
        assertEquals(whole.outText(), split.outText());
    }

    /**
     * A module carrying a distilled base (.BTF.base) is checked as the kernel loads it: relocated
     * onto --base first, so its relocations resolve as the plain module's do (the distilled
     * base alone holds memberless structs).
     */
    @Test
    void aModuleWithADistilledBaseIsRelocatedOntoTheBaseFirst() {
        String base = TestData.golden("vmlinux-6.1.0-56.btf").toString();
        Path ko = TestData.sample("ko/roles.ko");
        Path distilled = tmp.resolve("roles.distilled.ko");
        Cli d = Cli.run("distill", ko.toString(), "--base", base, "--out-format", "elf", "-o", distilled.toString());
        assertEquals(0, d.exit, d.toString());
        String prog = TestData.sample("bpf/net_stats.bpf.o").toString();
        Cli plain = Cli.run("core-check", prog, "--btf", ko.toString(), "--base", base);
        Cli relocated = Cli.run("core-check", prog, "--btf", distilled.toString(), "--base", base);
        assertEquals(0, plain.exit, plain.toString());
        assertEquals(plain.outText(), relocated.outText());
        Cli noBase = Cli.run("core-check", prog, "--btf", distilled.toString());
        assertEquals(2, noBase.exit, noBase.toString());
        assertEquals("btfkit: " + distilled + ": carries a distilled base (.BTF.base): give the vmlinux BTF it is loaded on with --base\n",
                noBase.err);
    }

    @Test
    void badInputIsExitTwoNamingTheFile() throws Exception {
        Path raw = TestData.vmlinux618();
        Cli notObject = Cli.run("core-check", raw.toString(), "--btf", raw.toString());
        assertEquals(2, notObject.exit, notObject.toString());
        assertEquals("btfkit: " + raw + ": no .BTF.ext section: not a BPF object built with -g\n", notObject.err);

        Path junk = tmp.resolve("junk.btf");
        Files.write(junk, "junk".getBytes());
        Cli badTarget = Cli.run("core-check", TestData.sample("bpf/net_stats.bpf.o").toString(), "--btf", junk.toString());
        assertEquals(2, badTarget.exit);
        assertTrue(badTarget.err.startsWith("btfkit: " + junk + ": "), badTarget.err);
        assertEquals(1, badTarget.err.split("\n").length, badTarget.err);

        Cli baseAlone = Cli.run("core-check", TestData.sample("bpf/net_stats.bpf.o").toString(), "--base", raw.toString());
        assertEquals(2, baseAlone.exit);
        assertTrue(baseAlone.err.contains("--btf"), baseAlone.err);
    }
}
