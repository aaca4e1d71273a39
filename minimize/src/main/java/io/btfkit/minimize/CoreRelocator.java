package io.btfkit.minimize;

import io.btfkit.core.Btf;
import io.btfkit.core.NameProbe;
import io.btfkit.core.ext.BtfExt;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Resolves CO-RE relocations against one target BTF (vmlinux, or a module's split BTF on its
 * base), as libbpf does when it loads a program: candidates by essential name and kind, each
 * matched against the local spec; every matching candidate must give the same value and (for
 * fields) the same bit offset, else the relocation is ambiguous; when none matches, the kind
 * decides between the value 0 and a poisoned instruction. An object's relocations are resolved
 * together, in order ({@link #resolveAll(CoreProgram)}): each narrows the candidates of the next
 * on the same local type, as libbpf's per-object candidate lists do. Stateless apart from its
 * candidate index (the lists live for one call); safe to share between threads.
 */
public final class CoreRelocator {
    private final Btf target;
    private final CandidateIndex index;

    /** A relocator for any relocation: every named type of {@code target} is indexed. */
    public CoreRelocator(Btf target) {
        this.target = target;
        this.index = new CandidateIndex(target);
    }

    /**
     * A relocator for the relocations of {@code programs}: only the target types named as their
     * local types, of compatible kinds, are indexed (a vmlinux has about 100,000 named types, a program's relocations
     * a few dozen names). It still resolves any other relocation, indexing the rest on first need.
     */
    public CoreRelocator(Btf target, List<CoreProgram> programs) {
        this.target = target;
        this.index = CandidateIndex.forPrograms(target, programs);
    }

    /**
     * {@link #CoreRelocator(Btf, List)} for a standalone target read with
     * {@link #candidateProbe candidateProbe(programs)} set on the reader's scratch, from the ids
     * the reader listed ({@link io.btfkit.core.BtfReader.Scratch#probedIds()} and
     * {@code probedCount()}, which must not be -1): the candidate index then looks at those
     * types only instead of every type again.
     */
    public CoreRelocator(Btf target, List<CoreProgram> programs, int[] probedIds, int probedCount) {
        if (probedCount < 0) {
            throw new IllegalArgumentException("the target was not probed");
        }
        this.target = target;
        this.index = CandidateIndex.forPrograms(target, programs, probedIds, probedCount);
    }

    /**
     * The test on kind and first name bytes that selects the possible candidates of the
     * relocations of {@code programs}, for a reader to apply while it indexes a target.
     */
    public static NameProbe candidateProbe(List<CoreProgram> programs) {
        return CandidateIndex.probe(programs);
    }

    public Btf target() {
        return target;
    }

    /**
     * Parses and resolves every relocation of a BPF object's {@code .BTF}/{@code .BTF.ext}, in
     * order, as one object ({@link #resolveAll(CoreProgram)}; its instructions are not known).
     */
    public List<ReloResult> resolveAll(Btf local, BtfExt ext) {
        return resolveAll(new CoreProgram("", local, LocalRelo.parseAll(local, ext)));
    }

    /**
     * Resolves every relocation of one object in {@code .BTF.ext} order, as libbpf does when it
     * loads the object and bpftool when it minimizes for it: one candidate list per local type
     * for the whole object, cut down to the candidates that matched after each relocation
     * ({@link CandidateLists}); and, when the object's instructions are known, what libbpf then
     * does to each instruction ({@link InsnPatch}). Every call starts afresh: nothing carries
     * over from one object, or one call, to the next.
     */
    public List<ReloResult> resolveAll(CoreProgram program) {
        CandidateLists lists = new CandidateLists(index);
        List<ReloResult> out = new ArrayList<>(program.relos().size());
        for (LocalRelo r : program.relos()) {
            if (program.code().isKnown() && r.insnOff() % Insn.SIZE != 0) {
                out.add(error(r, List.of(), "insn_off " + Integer.toUnsignedString(r.insnOff()) + " is not a multiple of 8"));
                continue;
            }
            out.add(resolve(program.local(), r, lists, program.code().at(r)));
        }
        return out;
    }

    /**
     * Resolves one relocation on its own: as the first relocation of its object on its local
     * type would be, against every candidate, without looking at its instruction.
     */
    public ReloResult resolve(Btf local, LocalRelo relo) {
        return resolve(local, relo, new CandidateLists(index), null);
    }

    /** libbpf's {@code bpf_core_calc_relo_insn}, then {@code bpf_core_patch_insn} when {@code insn} is known. */
    private ReloResult resolve(Btf local, LocalRelo relo, CandidateLists lists, Insn insn) {
        if (relo.spec() == null) {
            return error(relo, List.of(), relo.error());
        }
        CoreSpec localSpec = relo.spec();
        ReloKind kind = relo.kind();
        boolean bigEndian = local.format().order() == ByteOrder.BIG_ENDIAN;
        List<Integer> candList = new ArrayList<>();
        try {
            if (kind == ReloKind.TYPE_ID_LOCAL) {
                ReloValue.Calc id = ReloValue.of(kind, localSpec, bigEndian);
                return patched(new ReloResult(relo, ReloResult.Status.LOCAL, null, List.of(), List.of(), id.value(), null),
                        insn, id, id, false);
            }
            String name = TypeOps.nameOrEmpty(local, relo.typeId());
            if (name.isEmpty()) {
                return error(relo, List.of(), "<" + kind.label() + "> relocation doesn't support anonymous types");
            }
            ReloValue.Calc orig = ReloValue.of(kind, localSpec, bigEndian);
            int[] cands = lists.of(local, relo.typeId());
            int[] matching = new int[cands.length];
            int matched = 0;
            CoreSpec first = null;
            ReloValue.Calc res = null;
            for (int i = 0; i < cands.length; i++) {
                int cand = cands[i];
                candList.add(cand);
                CoreSpec spec;
                try {
                    spec = SpecMatcher.match(localSpec, target, cand);
                } catch (ReloFailure e) {
                    throw new ReloFailure("error matching candidate #" + i + " [" + cand + "]: " + e.getMessage());
                }
                if (spec == null) {
                    continue;
                }
                ReloValue.Calc value = ReloValue.of(kind, spec, bigEndian);
                if (first == null) {
                    first = spec;
                    res = value;
                } else if (spec.bitOffset() != first.bitOffset()) {
                    return error(relo, candList, "field offset ambiguity: " + spec.bitOffset() + " != " + first.bitOffset()
                            + " (bit offsets in candidates [" + cand + "] and [" + first.rootTypeId() + "])");
                } else if (value.poison() != res.poison() || value.value() != res.value()) {
                    return error(relo, candList, "relocation decision ambiguity: " + show(value) + " != " + show(res)
                            + " (candidates [" + cand + "] and [" + first.rootTypeId() + "])");
                }
                matching[matched++] = cand;
            }
            if (matched > 0) {
                lists.keepOnly(relo.typeId(), java.util.Arrays.copyOf(matching, matched));
            } else {
                res = ReloValue.of(kind, null, bigEndian);
            }
            List<Integer> matchList = java.util.Arrays.stream(matching, 0, matched).boxed().toList();
            ReloResult.Status status = matched > 0 ? ReloResult.Status.MATCHED
                    : res.poison() ? ReloResult.Status.POISONED : ReloResult.Status.NOT_FOUND;
            boolean memSizeUnsafe = !res.poison() && orig.memSize() != res.memSize()
                    && !ReloValue.memSizeAdjustable(local, orig.memTypeId(), target, res.memTypeId());
            ReloResult r = new ReloResult(relo, status, first, List.copyOf(candList), matchList, res.poison() ? 0 : res.value(),
                    res.poison() ? "no matching targets found" : null);
            return patched(r, insn, orig, res, memSizeUnsafe);
        } catch (ReloFailure e) {
            return error(relo, candList, e.getMessage());
        }
    }

    /** {@code r} after libbpf's patching of {@code insn} (unchanged when the instruction is not known). */
    private static ReloResult patched(ReloResult r, Insn insn, ReloValue.Calc orig, ReloValue.Calc res, boolean memSizeUnsafe) {
        if (insn == null) {
            return r;
        }
        InsnPatch.Outcome o = InsnPatch.apply(insn, r.relo().insnIndex(), orig, res, memSizeUnsafe);
        return switch (o.kind()) {
            case PATCHED -> r;
            case POISONED -> new ReloResult(r.relo(), ReloResult.Status.POISONED, r.target(), r.candidates(), r.matching(),
                    r.value(), o.why());
            case FAILED -> new ReloResult(r.relo(), ReloResult.Status.INSN_ERROR, r.target(), r.candidates(), r.matching(),
                    r.value(), o.why());
        };
    }

    private static String show(ReloValue.Calc c) {
        return c.poison() ? "failure" : "success " + Long.toUnsignedString(c.value());
    }

    private static ReloResult error(LocalRelo relo, List<Integer> cands, String why) {
        return new ReloResult(relo, ReloResult.Status.ERROR, null, List.copyOf(cands), List.of(), 0, why);
    }
}
