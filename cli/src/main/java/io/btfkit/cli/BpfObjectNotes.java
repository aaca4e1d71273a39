package io.btfkit.cli;

import io.btfkit.gcc.BpfObjectFixup;
import io.btfkit.gcc.GccNormalizer;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * What link says about BPF objects (clang's {@code .bpf.o}) whose DATASECs are left to the
 * loader: with {@code --fix} it fills them in as libbpf's object open does
 * ({@link BpfObjectFixup}) and says so in one line; without, one line says that the kernel
 * will reject the output and that {@code --fix} fills them in. A BPF object libbpf could not open
 * (a DATASEC without its ELF section, ...) gets a line of its own and is linked as written.
 */
final class BpfObjectNotes {
    private final String command;
    private final boolean fix;
    private final boolean quiet;
    private int objects;
    private int datasecs;
    private final List<String> problems = new ArrayList<>();

    BpfObjectNotes(String command, boolean fix, boolean quiet) {
        this.command = command;
        this.fix = fix;
        this.quiet = quiet;
    }

    /** The units of {@code f}, a BPF object's filled in when {@code --fix} is given. */
    List<GccNormalizer.UnitResult> fill(GccNormalizer.FileResult f) {
        if (!BpfObjectFixup.isBpfObject(f.input())) {
            return f.units();
        }
        BpfObjectFixup.Result r;
        try {
            r = BpfObjectFixup.fix(f.input());
        } catch (io.btfkit.core.BtfException e) { // a malformed symbol table: linked as written, and said so
            problems.add(Names.quote(f.input().path()) + ": DATASECs not filled in (" + e.getMessage() + ")");
            return f.units();
        }
        if (r.problem() != null) {
            problems.add(Names.quote(f.input().path()) + ": DATASECs not filled in (libbpf could not open it: " + r.problem() + ")");
            return f.units();
        }
        if (!r.changed()) {
            return f.units();
        }
        objects++;
        datasecs += r.datasecs() + r.externSections().size();
        if (!fix) {
            return f.units();
        }
        GccNormalizer.UnitResult u = f.units().get(0);
        return List.of(new GccNormalizer.UnitResult(r.btf(), u.applied(), u.kept(), u.idMap()));
    }

    /** The summary line (and a line per object libbpf could not open), unless -q. */
    void printSummary() {
        if (quiet || objects == 0 && problems.isEmpty()) {
            return;
        }
        PrintWriter err = Streams.err();
        problems.forEach(p -> err.println("btfkit: " + p));
        if (objects > 0) {
            String what = objects + " BPF object" + (objects == 1 ? "" : "s") + " (" + datasecs + " DATASEC"
                    + (datasecs == 1 ? "" : "s") + ")";
            err.println("btfkit: " + command + ": " + (fix
                    ? "filled in the DATASEC sizes and variable offsets of " + what + " from their ELF tables, as libbpf's"
                        + " object open does"
                    : what + (objects == 1 ? " leaves" : " leave") + " DATASEC sizes and variable offsets to the loader: the kernel rejects the output as it"
                        + " is; --fix fills them in from the ELF tables, as libbpf's object open does"));
        }
        err.flush();
    }
}
