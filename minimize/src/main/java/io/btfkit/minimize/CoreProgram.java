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
 * @param relos  its relocation records, section by section in file order
 */
public record CoreProgram(String name, Btf local, List<LocalRelo> relos) {
    public CoreProgram {
        relos = List.copyOf(relos);
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
