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

/** {@code btfkit core-check}: will a BPF object's CO-RE relocations resolve on that kernel's BTF? */
@Command(name = "core-check", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Resolve the CO-RE relocations of a BPF object against a target BTF as libbpf does at load time,"
            + " one line per relocation: section, instruction, kind, local spec, target spec and value."
            + " Exit 1 when a relocation does not resolve (no match where one is needed, or candidates disagree)."},
        footer = {"", "Examples:",
            "  btfkit core-check prog.bpf.o --btf vmlinux-6.1.0-47.btf",
            "  btfkit core-check prog.bpf.o --btf mlx4_core.btf --base vmlinux.btf"})
final class CoreCheckCommand implements Callable<Integer> {
    @Parameters(paramLabel = "PROG", description = "BPF object with .BTF and .BTF.ext")
    Path program;

    @Option(names = "--btf", required = true, paramLabel = "TARGET", description = "the kernel's BTF (vmlinux, or a module's split BTF with --base)")
    Path targetFile;

    @Option(names = {"-B", "--base", "--base-btf", "--btf_base"}, paramLabel = "B", description = "base BTF of a split TARGET")
    Path base;

    @Override
    public Integer call() {
        Outputs.check(List.of(program, targetFile), Outputs.given(base), List.of(), false);
        LoadedInput prog = Inputs.load(program, null);
        if (prog.ext() == null) {
            throw new FileException(program, new BtfFormatException("no .BTF.ext section: not a BPF object built with -g"));
        }
        Btf local = Inputs.btf(prog);
        List<LocalRelo> relos;
        try {
            relos = LocalRelo.parseAll(local, prog.ext());
        } catch (BtfFormatException e) {
            throw new FileException(program, e);
        }
        Btf target = Inputs.asLoaded(targetFile, Inputs.base(base));
        // only the candidates these relocations can have are indexed (a vmlinux's 100,000 names are not)
        CoreRelocator relocator = new CoreRelocator(target, List.of(new CoreProgram(program.toString(), local, relos)));
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(Streams.out(), StandardCharsets.UTF_8));
        int unresolved = 0;
        for (LocalRelo r : relos) {
            ReloResult res = relocator.resolve(local, r);
            if (!res.isResolved()) {
                unresolved++;
            }
            out.println(line(local, res));
        }
        out.println(relos.size() + " relocation" + (relos.size() == 1 ? "" : "s") + ", " + unresolved + " unresolved");
        out.flush();
        return unresolved == 0 ? ExitCodes.OK : ExitCodes.FAILED;
    }

    /** {@code SECTION insn #N KIND LOCAL -> TARGET = VALUE}. */
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
            case POISONED -> sb.append(t == null ? "no match" : "[" + t.rootTypeId() + "] " + t.describe())
                    .append(": instruction poisoned");
            default -> sb.append("error: ").append(res.error());
        }
        return sb.toString();
    }
}
