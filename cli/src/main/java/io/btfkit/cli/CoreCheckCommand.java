package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.minimize.CoreProgram;
import io.btfkit.minimize.CoreRelocator;
import io.btfkit.minimize.CoreSpec;
import io.btfkit.minimize.LocalRelo;
import io.btfkit.minimize.ReloResult;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code btfkit core-check}: will a BPF object's CO-RE relocations resolve on that kernel's BTF?
 * One line per relocation, in libbpf's order and terms; the exit status tells a program that
 * loads (0) from one that loads only where its poisoned instructions cannot run (3) and from one
 * libbpf refuses (1).
 */
@Command(name = "core-check", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Resolve the CO-RE relocations of a BPF object against a target BTF as libbpf does at load time,"
            + " one line per relocation: section, instruction, kind, local spec, target spec and value, or why libbpf"
            + " poisons the instruction or refuses the object. Without --btf, the running kernel's /sys/kernel/btf/vmlinux.",
            "Exit status: 0 every relocation resolves; 3 none fails, but some instructions are poisoned (no match for a"
            + " field read, or a load of a field whose size changed unsafely): the program loads only if they cannot run,"
            + " e.g. behind a bpf_core_field_exists() guard; 1 libbpf would not load the object (candidates disagree,"
            + " an instruction that cannot be patched); 2 usage error or malformed input."},
        footer = {"", "Examples:",
            "  btfkit core-check prog.bpf.o",
            "  btfkit core-check prog.bpf.o --btf vmlinux-6.1.0-47.btf",
            "  btfkit core-check prog.bpf.o --btf mlx4_core.btf --base vmlinux.btf",
            "  btfkit core-check prog.bpf.o --btf /sys/kernel/btf/mlx4_core"})
final class CoreCheckCommand implements Callable<Integer> {
    @Parameters(paramLabel = "PROG", description = "BPF object with .BTF and .BTF.ext")
    Path program;

    @Option(names = "--btf", paramLabel = "TARGET", description = "the kernel's BTF (vmlinux, or a module's split BTF with --base;"
            + " a module's /sys/kernel/btf/NAME is read on /sys/kernel/btf/vmlinux); default: /sys/kernel/btf/vmlinux")
    Path targetFile;

    @Option(names = {"-B", "--base", "--base-btf", "--btf_base"}, paramLabel = "B", description = "base BTF of a split TARGET")
    Path base;

    @Override
    public Integer call() {
        if (targetFile == null && base != null) {
            throw new UsageException("--base is the base of a split --btf TARGET: give the target with --btf");
        }
        Path targetPath = targetFile != null ? targetFile : KernelBtf.vmlinux();
        if (targetFile == null && !java.nio.file.Files.exists(targetPath)) {
            throw new FileException(targetPath, new BtfFormatException(
                    "not found: the running kernel has no BTF (CONFIG_DEBUG_INFO_BTF); give the target BTF with --btf"));
        }
        Outputs.check(List.of(program, targetPath), Outputs.given(base), List.of(), false);
        LoadedInput prog = Inputs.load(program, null);
        if (prog.ext() == null) {
            throw new FileException(program, new BtfFormatException("no .BTF.ext section: not a BPF object built with -g"));
        }
        Btf local = Inputs.btf(prog);
        CoreProgram object;
        try {
            object = CoreProgram.parse(program.toString(), local, prog.ext(), prog.elf());
        } catch (BtfFormatException e) {
            throw new FileException(program, e);
        }
        Btf target = Inputs.asLoaded(targetPath, Inputs.base(base));
        // only the candidates these relocations can have are indexed (a vmlinux's 100,000 names are not)
        CoreRelocator relocator = new CoreRelocator(target, List.of(object));
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(Streams.out(), StandardCharsets.UTF_8));
        int poisoned = 0;
        int failing = 0;
        for (ReloResult res : relocator.resolveAll(object)) {
            if (res.failsLoad()) {
                failing++;
            } else if (res.status() == ReloResult.Status.POISONED) {
                poisoned++;
            }
            out.println(line(local, res));
        }
        out.println(summary(object.relos().size(), poisoned, failing));
        out.flush();
        return failing > 0 ? ExitCodes.FAILED : poisoned > 0 ? ExitCodes.POISONED : ExitCodes.OK;
    }

    /** {@code N relocations, U unresolved}, then what the unresolved ones do to the load. */
    static String summary(int count, int poisoned, int failing) {
        StringBuilder sb = new StringBuilder().append(count).append(count == 1 ? " relocation, " : " relocations, ")
                .append(poisoned + failing).append(" unresolved");
        if (poisoned > 0) {
            sb.append(": ").append(poisoned).append(" poisoned (the program loads only if ").append(poisoned == 1 ? "it" : "they")
                    .append(" cannot run)");
        }
        if (failing > 0) {
            sb.append(poisoned > 0 ? ", " : ": ").append(failing).append(failing == 1 ? " error" : " errors")
                    .append(" (libbpf would not load the object)");
        }
        return sb.toString();
    }

    /**
     * {@code SECTION insn #N KIND LOCAL -> TARGET = VALUE}; a poisoned instruction or an error
     * says why, in libbpf's words.
     */
    static String line(Btf local, ReloResult res) {
        LocalRelo r = res.relo();
        StringBuilder sb = new StringBuilder();
        sb.append(r.section()).append(" insn #").append(r.insnIndex()).append(' ')
                .append(r.kind() == null ? "kind " + Integer.toUnsignedString(r.rawKind()) : r.kind().label()).append(' ')
                .append(r.describeLocal(local)).append(" -> ");
        CoreSpec t = res.target();
        switch (res.status()) {
            case MATCHED -> sb.append('[').append(t.rootTypeId()).append("] ").append(t.describe())
                    .append(" = ").append(Long.toUnsignedString(res.value()));
            case LOCAL -> sb.append("local = ").append(res.value());
            case NOT_FOUND -> sb.append("no match = ").append(res.value());
            case POISONED -> sb.append(t == null ? "no match: instruction poisoned"
                    : "[" + t.rootTypeId() + "] " + t.describe() + " = " + Long.toUnsignedString(res.value())
                    + ": instruction poisoned: " + res.why());
            case INSN_ERROR -> sb.append(t == null ? "" : "[" + t.rootTypeId() + "] " + t.describe() + " = ")
                    .append(t == null ? "" : Long.toUnsignedString(res.value()) + ": ").append("error: ").append(res.why());
            default -> sb.append("error: ").append(res.why());
        }
        return sb.toString();
    }
}
