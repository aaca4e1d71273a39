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
 * decides between the value 0 and a poisoned instruction. Stateless apart from its candidate
 * index; safe to share between threads.
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

    /** Parses and resolves every relocation of a BPF object's {@code .BTF}/{@code .BTF.ext}. */
    public List<ReloResult> resolveAll(Btf local, BtfExt ext) {
        List<ReloResult> out = new ArrayList<>();
        for (LocalRelo r : LocalRelo.parseAll(local, ext)) {
            out.add(resolve(local, r));
        }
        return out;
    }

    /** Resolves one parsed relocation of {@code local}. */
    public ReloResult resolve(Btf local, LocalRelo relo) {
        if (relo.spec() == null) {
            return error(relo, List.of(), relo.error());
        }
        CoreSpec localSpec = relo.spec();
        ReloKind kind = relo.kind();
        boolean bigEndian = local.format().order() == ByteOrder.BIG_ENDIAN;
        try {
            if (kind == ReloKind.TYPE_ID_LOCAL) {
                return new ReloResult(relo, ReloResult.Status.LOCAL, null, List.of(), List.of(), localSpec.rootTypeId(), null);
            }
            String name = TypeOps.nameOrEmpty(local, relo.typeId());
            if (name.isEmpty()) {
                return error(relo, List.of(), "local type [" + relo.typeId() + "] is anonymous: no candidates can be searched");
            }
            int[] cands = index.candidates(TypeOps.essentialName(name), local.kind(relo.typeId()));
            List<Integer> candList = new ArrayList<>(cands.length);
            List<Integer> matching = new ArrayList<>();
            CoreSpec first = null;
            Long firstValue = null;
            for (int cand : cands) {
                candList.add(cand);
                CoreSpec spec = SpecMatcher.match(localSpec, target, cand);
                if (spec == null) {
                    continue;
                }
                Long value = ReloValue.of(kind, spec, bigEndian);
                if (first == null) {
                    first = spec;
                    firstValue = value;
                } else if (spec.bitOffset() != first.bitOffset()) {
                    return error(relo, candList, "field offset ambiguity: " + first.bitOffset() / 8 + " != "
                            + spec.bitOffset() / 8 + " ([" + first.rootTypeId() + "] and [" + cand + "] disagree)");
                } else if (!java.util.Objects.equals(value, firstValue)) {
                    return error(relo, candList, "relocation decision ambiguity: " + show(firstValue) + " != " + show(value)
                            + " ([" + first.rootTypeId() + "] and [" + cand + "] disagree)");
                }
                matching.add(cand);
            }
            if (first != null) {
                return new ReloResult(relo, firstValue == null ? ReloResult.Status.POISONED : ReloResult.Status.MATCHED,
                        first, List.copyOf(candList), List.copyOf(matching), firstValue == null ? 0 : firstValue, null);
            }
            Long value = ReloValue.of(kind, null, bigEndian);
            return new ReloResult(relo, value == null ? ReloResult.Status.POISONED : ReloResult.Status.NOT_FOUND, null,
                    List.copyOf(candList), List.of(), value == null ? 0 : value, null);
        } catch (ReloFailure e) {
            return error(relo, List.of(), e.getMessage());
        }
    }

    private static String show(Long v) {
        return v == null ? "poison" : Long.toUnsignedString(v);
    }

    private static ReloResult error(LocalRelo relo, List<Integer> cands, String why) {
        return new ReloResult(relo, ReloResult.Status.ERROR, null, List.copyOf(cands), List.of(), 0, why);
    }
}
