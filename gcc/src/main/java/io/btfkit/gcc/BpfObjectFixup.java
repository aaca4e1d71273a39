package io.btfkit.gcc;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.elf.ElfConstants;
import io.btfkit.core.elf.ElfFile;
import io.btfkit.core.io.LoadedInput;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What libbpf's object open ({@code bpf_object__open}: {@code bpf_object__collect_externs},
 * {@code btf_fixup_datasec}) does to the BTF of a BPF object before it loads it. clang leaves
 * each DATASEC's size, and the offsets of its global variables, at 0 for the loader; the kernel
 * refuses both. The extern sections {@code .kconfig} and {@code .ksyms} are laid out as libbpf
 * lays them out ({@link ExternSections}); for every other DATASEC:
 * <ul>
 * <li>a size of 0 becomes the size of the ELF section of that name, and then each global or
 * weak variable's offset becomes its symbol's value;
 * <li>a global variable whose symbol is hidden (or internal) becomes static;
 * <li>the entries are sorted by offset.
 * </ul>
 * Static variables keep their offset: clang writes it in place (the {@code .rel.BTF}
 * relocation against the section symbol carries it as addend), and libbpf leaves it.
 *
 * <p>All or nothing, as libbpf's open: a DATASEC without its ELF section (or with an empty
 * one), an entry that is not a VAR, a global variable without an object symbol, or no symbol
 * table gives {@link Result#problem()} (the reason libbpf would refuse to open the object) and
 * the BTF as it was. Reuses the gcc repair's symbol table ({@link ObjectSymbols}); gcc 12's
 * objects, whose DATASECs need more than this, get {@link DatasecLayout} instead.
 *
 * <pre>
 * [14] DATASEC '.bss' size=0 vlen=3                  [14] DATASEC '.bss' size=24 vlen=3
 *         type_id=11 offset=0 size=4 (VAR 'z1')  -->         type_id=11 offset=0 size=4 (VAR 'z1')
 *         type_id=12 offset=8 size=8 (VAR 'z2')              type_id=12 offset=8 size=8 (VAR 'z2')
 *         type_id=13 offset=0 size=4 (VAR 'gz')              type_id=13 offset=16 size=4 (VAR 'gz')
 * </pre>
 */
public final class BpfObjectFixup {
    /** The sections libbpf fills from the kernel at load time (externs). */
    static final List<String> EXTERN_SECTIONS = List.of(".kconfig", ".ksyms");

    private BpfObjectFixup() {
    }

    /**
     * The outcome.
     *
     * @param btf            the filled-in BTF (the input's when nothing changed or on a problem)
     * @param datasecs       DATASECs given a size (and their variables' offsets)
     * @param hidden         variables made static because their symbol is hidden
     * @param externSections extern DATASECs laid out ({@code .kconfig}, {@code .ksyms})
     * @param problem        why libbpf would refuse to open the object, or null
     */
    public record Result(Btf btf, int datasecs, int hidden, List<String> externSections, String problem) {
        /** Whether anything was filled in. */
        public boolean changed() {
            return problem == null && (datasecs > 0 || hidden > 0 || !externSections.isEmpty());
        }
    }

    /**
     * Whether {@code in} is an object libbpf opens: an ELF relocatable object for the BPF
     * machine, with one BTF blob that is not gcc 12's.
     */
    public static boolean isBpfObject(LoadedInput in) {
        ElfFile elf = in.elf();
        return elf != null && elf.machine() == ElfConstants.EM_BPF && elf.type() == ElfConstants.ET_REL
                && in.units().size() == 1 && !GccNormalizer.isGccEncoded(in.units().get(0));
    }

    /** The BTF of BPF object {@code in} ({@link #isBpfObject}) as libbpf's open leaves it. */
    public static Result fix(LoadedInput in) {
        Btf u = in.units().get(0);
        ObjectSymbols syms = in.naming(() -> ObjectSymbols.of(in.elf()));
        if (syms == null) {
            return new Result(u, 0, 0, List.of(), "the object has no symbol table (stripped?)");
        }
        UnitRewriter r = new UnitRewriter(u);
        try {
            ExternSections.layOut(u, r, syms);
        } catch (ExternSections.Refused e) {
            return problem(u, e.getMessage());
        }
        int[] w = u.words();
        int datasecs = 0;
        int hidden = 0;
        boolean reordered = false;
        List<String> externs = new ArrayList<>();
        for (int id = u.firstId(); id < u.typeCount(); id++) {
            int s = u.startOf(id);
            if (Kind.kindOf(w[s + 1]) != Kind.DATASEC) {
                continue;
            }
            String name = u.strings().latin1(w[s]);
            if (EXTERN_SECTIONS.contains(name)) {
                externs.add(name);
                continue;
            }
            int vlen = Kind.vlenOf(w[s + 1]);
            boolean fill = w[s + 2] == 0;
            long size = w[s + 2] & 0xffffffffL;
            if (fill) {
                List<ElfFile.Section> secs = in.elf().sectionsNamed(name);
                size = secs.isEmpty() ? 0 : secs.get(0).size();
                if (size == 0 || size > 0xffffffffL) {
                    return problem(u, "DATASEC [" + id + "] '" + name + "' has size 0 and the object has "
                            + (secs.isEmpty() ? "no section of that name" : "an empty or oversized one") + " to take it from");
                }
                datasecs++;
            }
            long[][] entries = new long[vlen][];
            for (int k = 0; k < vlen; k++) {
                int e = s + 3 + 3 * k;
                int var = w[e];
                long offset = w[e + 1] & 0xffffffffL;
                if (var < u.firstId() || var >= u.typeCount() || u.kind(var) != Kind.VAR) {
                    return problem(u, "entry " + k + " of DATASEC [" + id + "] '" + name + "' is not a VAR");
                }
                int linkage = u.extra(var, 0);
                if (linkage != Kind.LINKAGE_STATIC && linkage != Kind.LINKAGE_EXTERN) {
                    ObjectSymbols.Symbol sym = globalObject(syms, u.strings().latin1(u.nameOff(var)));
                    if (sym == null) {
                        return problem(u, "variable [" + var + "] '" + u.name(var) + "' of DATASEC '" + name
                                + "' has no global object symbol");
                    }
                    if (fill) {
                        offset = sym.offset();
                    }
                    if (sym.visibility() == ObjectSymbols.STV_HIDDEN || sym.visibility() == ObjectSymbols.STV_INTERNAL) {
                        r.setWord(var, 3, Kind.LINKAGE_STATIC);
                        hidden++;
                    }
                }
                entries[k] = new long[] {var, offset, w[e + 2] & 0xffffffffL};
            }
            java.util.Arrays.sort(entries, Comparator.comparingLong(x -> x[1]));
            int[] words = new int[3 + 3 * vlen];
            System.arraycopy(w, s, words, 0, 3);
            words[2] = (int) size;
            for (int k = 0; k < vlen; k++) {
                words[3 + 3 * k] = (int) entries[k][0];
                words[4 + 3 * k] = (int) entries[k][1];
                words[5 + 3 * k] = (int) entries[k][2];
            }
            if (!java.util.Arrays.equals(words, 0, words.length, w, s, s + words.length)) {
                r.replace(id, words);
                reordered |= !fill;
            }
        }
        boolean same = datasecs + hidden == 0 && !reordered && externs.isEmpty();
        return new Result(same ? u : r.build(), datasecs, hidden, List.copyOf(externs), null);
    }

    private static Result problem(Btf u, String why) {
        return new Result(u, 0, 0, List.of(), why);
    }

    /** libbpf's {@code find_elf_var_sym}: the first object symbol of that name, global or weak. */
    private static ObjectSymbols.Symbol globalObject(ObjectSymbols syms, String name) {
        for (ObjectSymbols.Symbol s : syms.named(name)) {
            if (s.type() == ObjectSymbols.STT_OBJECT && (s.bind() == ObjectSymbols.STB_GLOBAL || s.bind() == ObjectSymbols.STB_WEAK)) {
                return s;
            }
        }
        return null;
    }
}
