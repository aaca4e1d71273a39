package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.core.validate.Finding;
import io.btfkit.core.validate.Validator;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code btfkit validate}: the checks the kernel makes when it loads BTF; each finding is
 * printed as {@code type [id] KIND 'name': rule broken (detail)}; exit 1 when anything is found.
 */
@Command(name = "validate", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Check BTF the way the kernel does when it loads it; print each finding, exit 1 if any.",
            "Many inputs run in parallel; each finding line is then prefixed with its file."},
        footer = {"", "Examples:",
            "  btfkit validate /sys/kernel/btf/vmlinux",
            "  btfkit validate mod.ko --base vmlinux.btf --first",
            "  btfkit validate --profile structural prog.bpf.o"})
final class ValidateCommand implements Callable<Integer> {
    enum ProfileName { kernel, structural }

    @Parameters(paramLabel = "INPUT", arity = "1..*")
    List<Path> inputs;

    @Option(names = "--base", paramLabel = "B", description = "base BTF of split inputs")
    Path base;

    @Option(names = "--first", description = "stop at the first finding")
    boolean first;

    @Option(names = "--profile", paramLabel = "P", defaultValue = "kernel",
            description = "kernel (what BPF_BTF_LOAD accepts) or structural (rules every reader relies on, as compilers "
                + "write objects); default: ${DEFAULT-VALUE}")
    ProfileName profile;

    @Mixin
    BatchOptions batch;

    @Override
    public Integer call() {
        Btf baseBtf = Inputs.base(base);
        Validator.Options opts = new Validator.Options(first,
                profile == ProfileName.structural ? Validator.Profile.STRUCTURAL : Validator.Profile.KERNEL);
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(Streams.out(), StandardCharsets.UTF_8), true);
        if (inputs.size() == 1) {
            List<Finding> findings = check(inputs.get(0), baseBtf, opts);
            findings.forEach(f -> out.println(io.btfkit.core.Printable.oneLine(f.toString())));
            out.flush();
            return findings.isEmpty() ? ExitCodes.OK : ExitCodes.FAILED;
        }
        return Batch.run("validate", inputs, in -> {
            List<Finding> findings = check(in, baseBtf, opts);
            if (!findings.isEmpty()) {
                synchronized (out) {
                    findings.forEach(f -> out.println(in + ": " + io.btfkit.core.Printable.oneLine(f.toString())));
                    out.flush();
                }
                throw new io.btfkit.core.OperationException(findings.size() + " finding(s)");
            }
        }, batch.quiet, batch.json);
    }

    private static List<Finding> check(Path in, Btf baseBtf, Validator.Options opts) {
        LoadedInput li = Inputs.load(in, baseBtf);
        return Validator.validate(li.btf(), li.ext(), opts);
    }
}
