package io.btfkit.minimize;

import io.btfkit.core.Btf;
import io.btfkit.core.ext.BtfExt;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A BPF object's BTF and its CO-RE relocations, parsed once: what resolving the object against
 * any number of targets needs ({@link CoreRelocator}, {@link Minimizer#recordAll}). Immutable,
 * safe to share between threads.
 *
 * @param name   the object's name, for messages
 * @param local  the object's {@code .BTF}
 * @param relos  its relocation records, section by section in file order (libbpf's order)
 * @param code   the instructions the records patch, or {@link ProgramCode#NONE}
 */
public record CoreProgram(String name, Btf local, List<LocalRelo> relos, ProgramCode code) {
    public CoreProgram {
        relos = List.copyOf(relos);
        java.util.Objects.requireNonNull(code);
    }

    /** An object whose instructions are not at hand. */
    public CoreProgram(String name, Btf local, List<LocalRelo> relos) {
        this(name, local, relos, ProgramCode.NONE);
    }

    /**
     * Parses every relocation record of a BPF object.
     *
     * @throws io.btfkit.core.BtfFormatException when a record names a type or string {@code local} does not have
     */
    public static CoreProgram parse(String name, Btf local, BtfExt ext) {
        return new CoreProgram(name, local, LocalRelo.parseAll(local, ext));
    }

    /**
     * Parses every relocation record of a BPF object read from {@code elf}, and keeps the
     * instructions they patch.
     *
     * @throws io.btfkit.core.BtfFormatException as {@link #parse(String, Btf, BtfExt)}
     */
    public static CoreProgram parse(String name, Btf local, BtfExt ext, io.btfkit.core.elf.ElfFile elf) {
        List<LocalRelo> relos = LocalRelo.parseAll(local, ext);
        return new CoreProgram(name, local, relos, elf == null ? ProgramCode.NONE : ProgramCode.of(elf, relos));
    }

    /**
     * The essential names (before any {@code ___flavour}) of the local types whose candidates
     * resolving will search: those of the relocations that need a target.
     */
    public Set<String> essentialNames() {
        Set<String> out = new LinkedHashSet<>();
        for (LocalRelo r : relos) {
            if (CandidateIndex.needsCandidates(r)) {
                out.add(TypeOps.essentialName(TypeOps.nameOrEmpty(local, r.typeId())));
            }
        }
        return out;
    }
}
