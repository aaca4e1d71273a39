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

    @Test
    void aPoisonedInstructionIsExitOne() {
        Cli c = Cli.run("core-check", TestData.sample("bpf/task_trace.bpf.o").toString(), "--btf", TestData.vmlinux618().toString());
        assertEquals(1, c.exit, c.toString());
        assertTrue(c.outText().contains("kprobe/do_exit insn #8 enumval_value enum task_state_bits::TASK_DEAD_BIT (2) -> no match: "
                + "instruction poisoned\n"), c.outText());
        assertTrue(c.outText().endsWith("11 relocations, 1 unresolved\n"));
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

        Cli noTarget = Cli.run("core-check", TestData.sample("bpf/net_stats.bpf.o").toString());
        assertEquals(2, noTarget.exit);
        assertTrue(noTarget.err.contains("--btf"), noTarget.err);
    }
}
