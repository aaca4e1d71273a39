package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.gcc.BpfObjectFixup;
import io.btfkit.gcc.GccNormalizer;
import io.btfkit.gcc.GccQuirk;
import io.btfkit.gcc.QuirkCounts;
import io.btfkit.validate.Finding;
import io.btfkit.validate.Validator;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code btfkit validate}: the checks the kernel makes when it loads BTF; each finding is
 * printed as {@code type [id] KIND 'name': rule broken (detail)}; exit 1 when anything is found.
 *
 * <p>For BTF written by gcc 12 it also explains which of gcc's encodings the file has
 * ({@code quirk gcc-...: COUNT ...}, see {@link GccQuirk}) and ends with a {@code kernel:} line
 * saying whether the kernel accepts the file as it is and after {@code convert --fix} (validate has
 * no --fix of its own: its advice names the command that has it). An input
 * whose .BTF holds several blobs is checked blob by blob ({@code blob K: } before each line).
 */
@Command(name = "validate", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Check BTF the way the kernel does when it loads it; print each finding, exit 1 if any.",
            "For gcc -gbtf output, also list gcc 12's encodings found (quirk lines) and whether 'btfkit convert --fix'"
                + " (or 'link --fix') makes the BTF acceptable to the kernel (kernel: line).",
            "Many inputs run in parallel; each line is then prefixed with its file."},
        footer = {"", "Examples:",
            "  btfkit validate /sys/kernel/btf/vmlinux",
            "  btfkit validate mod.ko --base vmlinux.btf --first",
            "  btfkit validate --profile structural prog.bpf.o",
            "  btfkit validate kernel/fork.o        # gcc -gbtf object: quirks and kernel verdict"})
final class ValidateCommand implements Callable<Integer> {
    enum ProfileName { kernel, structural }

    @Parameters(paramLabel = "INPUT", arity = "1..*", description = "BTF to check, one or many (many run in parallel)")
    List<Path> inputs;

    @Option(names = {"-B", "--base", "--base-btf", "--btf_base"}, paramLabel = "B", description = "base BTF of split inputs")
    Path base;

    @Option(names = "--first", description = "stop at the first finding")
    boolean first;

    @Option(names = "--profile", paramLabel = "P",
            description = "kernel (what BPF_BTF_LOAD accepts, of the bytes as they are) or structural (rules every reader"
                + " relies on, as compilers write objects); default: kernel, and a BPF object judged as libbpf loads it"
                + " (DATASECs filled in from its ELF tables)")
    ProfileName profile;

    @Mixin
    BatchOptions batch;

    /** What one input gave: the lines to print and the number of findings. */
    private record Report(List<String> lines, int findings) {
    }

    @Override
    public Integer call() {
        Outputs.check(inputs, Outputs.given(base), List.of(), false);
        Btf baseBtf = Inputs.base(base);
        Validator.Options opts = new Validator.Options(first,
                profile == ProfileName.structural ? Validator.Profile.STRUCTURAL : Validator.Profile.KERNEL);
        boolean asLoaded = profile == null;
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(Streams.out(), StandardCharsets.UTF_8), true);
        if (inputs.size() == 1) {
            Report r = check(inputs.get(0), baseBtf, opts, asLoaded);
            r.lines().forEach(out::println);
            out.flush();
            return r.findings() == 0 ? ExitCodes.OK : ExitCodes.FAILED;
        }
        Object oneInputAtATime = new Object();
        return Batch.run("validate", inputs, in -> {
            Report r = check(in, baseBtf, opts, asLoaded);
            if (!r.lines().isEmpty()) {
                // (Streams.out() here, in the batch's thread, is the stream that clears the progress bar)
                PrintWriter o = new PrintWriter(new java.io.OutputStreamWriter(Streams.out(), StandardCharsets.UTF_8));
                StringBuilder text = new StringBuilder();
                r.lines().forEach(l -> text.append(Names.quote(in)).append(": ").append(l).append('\n'));
                synchronized (oneInputAtATime) {
                    o.print(text);
                    o.flush();
                }
            }
            if (r.findings() > 0) {
                throw new io.btfkit.core.OperationException(r.findings() + " finding(s)");
            }
        }, batch.quiet, batch.json);
    }

    /** {@code asLoaded}: judge a BPF object as libbpf loads it (no --profile given). */
    private static Report check(Path in, Btf baseBtf, Validator.Options opts, boolean asLoaded) {
        LoadedInput li = Inputs.load(in, baseBtf);
        List<String> lines = new ArrayList<>();
        List<Btf> units = li.units();
        if (asLoaded && BpfObjectFixup.isBpfObject(li)) {
            BpfObjectFixup.Result loaded;
            try {
                loaded = BpfObjectFixup.fix(li);
            } catch (io.btfkit.core.BtfException e) {
                throw new FileException(in, e);
            }
            if (loaded.problem() != null || loaded.changed() || !loaded.externSections().isEmpty()) {
                lines.add(loadedNote(loaded));
            }
            // libbpf writes the BTF out again before it loads it: contiguous, whatever the file's layout
            units = List.of(loaded.problem() != null ? loaded.btf() : loaded.btf().withFormat(loaded.btf().format()));
        }
        GccNormalizer.FileResult fixed;
        try {
            fixed = GccNormalizer.normalize(li, GccNormalizer.Level.FIX); // reads the ELF's symbols
        } catch (io.btfkit.core.BtfException e) {
            throw new FileException(in, e);
        }
        int findings = 0;
        for (int k = 0; k < units.size(); k++) {
            String prefix = units.size() == 1 ? "" : "blob " + (k + 1) + ": ";
            List<Finding> fs = Validator.validate(units.get(k), units.size() == 1 ? li.ext() : null, opts);
            findings += fs.size();
            fs.forEach(f -> lines.add(prefix + f));
            GccNormalizer.UnitResult u = fixed.units().get(k);
            QuirkCounts found = u.applied().plus(u.kept());
            if (found.isEmpty()) {
                continue;
            }
            for (GccQuirk q : GccQuirk.values()) {
                if (found.count(q) > 0) {
                    lines.add(prefix + quirkLine(units.get(k), q, found, u.applied()));
                }
            }
            lines.add(prefix + verdict(fs, u.btf(), opts));
        }
        return new Report(lines.stream().map(io.btfkit.core.Printable::oneLine).toList(), findings);
    }

    /** The note on a BPF object judged as libbpf loads it: what its object open filled in (not a finding). */
    private static String loadedNote(BpfObjectFixup.Result r) {
        if (r.problem() != null) {
            return "note: libbpf could not open this object (" + r.problem() + "); judged as written";
        }
        StringBuilder sb = new StringBuilder("note: judged as libbpf loads it");
        if (r.datasecs() > 0 || r.hidden() > 0) {
            sb.append(": ");
            if (r.datasecs() > 0) {
                sb.append(r.datasecs()).append(" DATASEC").append(r.datasecs() == 1 ? "" : "s")
                        .append(" given their ELF section's size and their variables' offsets");
            }
            if (r.hidden() > 0) {
                sb.append(r.datasecs() > 0 ? ", " : "").append(r.hidden()).append(" hidden variable")
                        .append(r.hidden() == 1 ? "" : "s").append(" made static");
            }
        }
        if (!r.externSections().isEmpty()) {
            sb.append(r.datasecs() > 0 || r.hidden() > 0 ? ", " : ": ").append("extern section")
                    .append(r.externSections().size() == 1 ? " " : "s ").append(String.join(" and ", r.externSections()))
                    .append(" laid out");
        }
        return sb.append(" (--profile kernel judges the bytes as they are)").toString();
    }

    /** {@code quirk gcc-x: N (first: type [id] KIND 'name'): what it is; kernel rejects|accepts it; treatment: repair}. */
    private static String quirkLine(Btf btf, GccQuirk q, QuirkCounts found, QuirkCounts fixable) {
        StringBuilder sb = new StringBuilder("quirk ").append(q.id()).append(": ").append(found.count(q));
        int id = found.firstId(q);
        if (id > 0 && id < btf.typeCount()) {
            String name = btf.strings().forMessage(btf.nameOff(id), StandardCharsets.ISO_8859_1);
            sb.append(" (first: type [").append(id).append("] ").append(io.btfkit.core.Kind.name(btf.kind(id))).append(" '")
                    .append(name == null || name.isEmpty() ? "(anon)" : name).append("')");
        }
        sb.append(": ").append(q.summary()).append("; kernel ").append(q.kernelRejects() ? "rejects" : "accepts")
                .append(" it; ").append(q.treatmentText(fixable.count(q), found.count(q)));
        return sb.toString();
    }

    /** {@code kernel: rejects it (N findings: rules); after convert --fix: accepts} (or the findings that remain). */
    private static String verdict(List<Finding> before, Btf fixed, Validator.Options opts) {
        List<Finding> after = Validator.validate(fixed, opts.withStopAtFirst(false));
        String who = opts.profile() == Validator.Profile.KERNEL ? "kernel: " : "structural rules: ";
        return who + (before.isEmpty() ? "accepts it" : "rejects it (" + count(before) + ")") + "; after convert --fix: "
                + (after.isEmpty() ? "accepts" : "rejects (" + count(after) + ")");
    }

    private static String count(List<Finding> fs) {
        TreeSet<String> rules = new TreeSet<>();
        fs.forEach(f -> rules.add(f.rule()));
        return fs.size() + " finding" + (fs.size() == 1 ? "" : "s") + ": " + String.join(", ", rules);
    }
}
