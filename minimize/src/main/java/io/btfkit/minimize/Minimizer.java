package io.btfkit.minimize;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.BtfType;
import io.btfkit.core.Kind;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The smallest BTF a set of CO-RE relocations needs from one target, built as bpftool's
 * {@code gen min_core_btf} (BTFGen) builds it, so the bytes are the same: every relocation's
 * target spec marks types and members; then the marked types are copied in id order (structs
 * and unions with only their marked members, at their bit offsets), and every reference to a
 * type that was not marked becomes 0 ({@code void}). See docs/MINIMIZE.md for the rules.
 * This class marks; {@link MinimalBtf} writes the marked types out (standalone, or as a
 * minimal base and split for a module's split BTF).
 *
 * <p>bpftool's bytes are the output unless they would not resolve as the target does
 * ({@link #widened()}).
 *
 * <p>Not thread-safe: one instance collects the relocations of any number of objects for one
 * target, then {@link #build()} (or {@link #buildSplit()} for a module's split target).
 */
public final class Minimizer {
    private final Btf target;
    private final BitSet types = new BitSet();
    /** Marked member indices per struct/union id. */
    private final Map<Integer, BitSet> members = new HashMap<>();
    /**
     * Types already walked, per walk and flag: marking again adds nothing, and skipping the
     * repeat keeps a walk linear on shared (or, in broken BTF, cyclic) references.
     */
    private final BitSet walked = new BitSet();
    private final BitSet walkedFollowing = new BitSet();
    private final BitSet matched = new BitSet();
    private final BitSet matchedBehindPointer = new BitSet();
    /** The objects resolved by {@link #recordAll}, with their results, for the check of {@link #build}. */
    private final List<SameOutcomes.Resolved> recorded = new ArrayList<>();
    private boolean checked;
    private List<Widened> widened = List.of();
    /** Deepest reference chain walked; deeper is refused, never a stack overflow. */
    static final int MAX_DEPTH = 1000;

    /** @param target standalone BTF, or split BTF on its base (a module's; marking crosses into the base) */
    public Minimizer(Btf target) {
        this.target = target;
    }

    /**
     * Marks what one resolved relocation uses: its target spec (the first matching candidate's,
     * as bpftool keeps it), also when libbpf then poisons or refuses the instruction (bpftool does
     * not look at instructions). A relocation that matched no candidate, or needs no target
     * ({@code local_type_id}), marks nothing.
     *
     * @throws BtfException a relocation that is an error (bpftool fails on it too), or a kept
     *     type of a kind BTFGen cannot keep
     */
    public void record(ReloResult res) throws BtfException {
        if (res.status() == ReloResult.Status.ERROR) {
            throw new BtfException(res.relo().section() + " relo #" + res.relo().index() + ": " + res.why());
        }
        if (res.target() != null && res.status() != ReloResult.Status.LOCAL) {
            markSpec(res.target());
        }
    }

    private void markSpec(CoreSpec spec) throws BtfException {
        checked = false;
        ReloKind kind = spec.kind();
        if (kind.isFieldBased()) {
            recordField(spec);
        } else if (kind == ReloKind.TYPE_MATCHES) {
            markMatch(spec.rootTypeId(), false, 0);
        } else if (kind.isTypeBased()) {
            mark(spec.rootTypeId(), true, 0);
        } else {
            mark(spec.rootTypeId(), false, 0); // enum value relocations: the whole enum
        }
    }

    /**
     * Resolves every relocation of {@code program} with {@code relocator} (whose target is this
     * minimizer's), as one object in order ({@link CoreRelocator#resolveAll(CoreProgram)}), and
     * marks what each uses; the results are kept for the check of {@link #build}.
     *
     * @throws BtfException as {@link #record}, for the first relocation that is an error
     */
    public void recordAll(CoreRelocator relocator, CoreProgram program) throws BtfException {
        if (relocator.target() != target) {
            throw new IllegalArgumentException("the relocator resolves against another target");
        }
        List<ReloResult> results = relocator.resolveAll(program);
        for (ReloResult r : results) {
            record(r);
        }
        recorded.add(new SameOutcomes.Resolved(program, results));
    }

    /** Root type, then each struct/union member on the raw path and its type (not behind pointers). */
    private void recordField(CoreSpec spec) throws BtfException {
        int id = spec.rootTypeId();
        mark(id, false, 0);
        int[] raw = spec.rawSpec();
        for (int i = 1; i < raw.length; i++) {
            id = skipModsAndTypedefs(id);
            int k = target.kind(id);
            if (Kind.isComposite(k)) {
                members.computeIfAbsent(id, x -> new BitSet()).set(raw[i]);
                id = target.type(id).members().get(raw[i]).type();
                mark(id, false, 0);
            } else if (k == Kind.ARRAY) {
                id = target.type(id).array().type();
            } else {
                throw new BtfException("target type [" + id + "] " + Kind.name(k) + ": unsupported kind on a field path");
            }
        }
    }

    private int skipModsAndTypedefs(int id) throws BtfException {
        for (int depth = 0;; depth++) {
            checkDepth(id, depth);
            int k = target.kind(id);
            if (k != Kind.CONST && k != Kind.VOLATILE && k != Kind.RESTRICT && k != Kind.TYPE_TAG && k != Kind.TYPEDEF) {
                return id;
            }
            id = target.sizeOrType(id);
        }
    }

    /** A type and what it needs: modifier/typedef targets, array element and index, prototype types; pointees only when asked. */
    private void mark(int id, boolean followPointers, int depth) throws BtfException {
        BitSet seen = followPointers ? walkedFollowing : walked;
        if (id == 0 || seen.get(id)) {
            return;
        }
        checkDepth(id, depth);
        seen.set(id);
        types.set(id);
        int k = target.kind(id);
        switch (k) {
            case Kind.INT, Kind.FLOAT, Kind.ENUM, Kind.ENUM64, Kind.STRUCT, Kind.UNION -> { }
            case Kind.PTR -> {
                if (followPointers) {
                    mark(target.sizeOrType(id), true, depth + 1);
                }
            }
            case Kind.CONST, Kind.VOLATILE, Kind.RESTRICT, Kind.TYPEDEF -> mark(target.sizeOrType(id), followPointers, depth + 1);
            case Kind.ARRAY -> {
                BtfType.Array a = target.type(id).array();
                mark(a.type(), followPointers, depth + 1);
                mark(a.indexType(), followPointers, depth + 1);
            }
            case Kind.FUNC_PROTO -> {
                BtfType t = target.type(id);
                mark(t.typeId(), followPointers, depth + 1);
                for (BtfType.Param p : t.params()) {
                    mark(p.type(), followPointers, depth + 1);
                }
            }
            default -> throw unsupported(id, k);
        }
    }

    /**
     * {@code type_matches}: the type with all members, recursively, but composites reached
     * through a pointer keep no members.
     */
    private void markMatch(int id, boolean behindPointer, int depth) throws BtfException {
        BitSet seen = behindPointer ? matchedBehindPointer : matched;
        if (id == 0 || seen.get(id)) {
            return;
        }
        checkDepth(id, depth);
        seen.set(id);
        types.set(id);
        int k = target.kind(id);
        switch (k) {
            case Kind.INT, Kind.FLOAT, Kind.ENUM, Kind.ENUM64 -> { }
            case Kind.STRUCT, Kind.UNION -> {
                if (!behindPointer) {
                    var ms = target.type(id).members();
                    BitSet bits = members.computeIfAbsent(id, x -> new BitSet());
                    for (int i = 0; i < ms.size(); i++) {
                        bits.set(i);
                        markMatch(ms.get(i).type(), false, depth + 1);
                    }
                }
            }
            case Kind.CONST, Kind.VOLATILE, Kind.RESTRICT, Kind.TYPEDEF, Kind.FWD -> markMatch(target.sizeOrType(id), behindPointer, depth + 1);
            case Kind.PTR -> markMatch(target.sizeOrType(id), true, depth + 1);
            case Kind.ARRAY -> {
                BtfType.Array a = target.type(id).array();
                markMatch(a.type(), false, depth + 1);
                markMatch(a.indexType(), false, depth + 1);
            }
            case Kind.FUNC_PROTO -> {
                BtfType t = target.type(id);
                markMatch(t.typeId(), false, depth + 1);
                for (BtfType.Param p : t.params()) {
                    markMatch(p.type(), false, depth + 1);
                }
            }
            default -> throw unsupported(id, k);
        }
    }

    private static void checkDepth(int id, int depth) throws BtfException {
        if (depth > MAX_DEPTH) {
            throw new BtfException("target type [" + id + "]: type references nested deeper than " + MAX_DEPTH);
        }
    }

    private static BtfException unsupported(int id, int kind) {
        return new BtfException("target type [" + id + "] " + Kind.name(kind) + ": kind not supported by minimize (as bpftool's gen min_core_btf)");
    }

    /** Number of types marked so far. */
    public int markedTypes() {
        return types.cardinality();
    }

    /**
     * The minimized BTF, standalone (bpftool's output): the marked types of the target, base
     * types first when the target is split; see {@link MinimalBtf#standalone}. Checked as
     * {@link #widened()} says.
     *
     * @throws BtfException when even with every matching candidate kept a relocation would
     *     resolve differently on the output
     */
    public Btf build() throws BtfException {
        checked();
        return MinimalBtf.standalone(target, types, members);
    }

    /**
     * The minimized BTF of a split target as a pair: a minimal base of the marked base types and
     * a minimal split on it of the marked split types; see {@link MinimalBtf#split}. Checked as
     * {@link #build()} is.
     *
     * @throws IllegalStateException the target is not split
     */
    public MinimalBtf.Split buildSplit() throws BtfException {
        if (!target.isSplit()) {
            throw new IllegalStateException("target BTF is not split");
        }
        checked();
        return MinimalBtf.split(target, types, members);
    }

    /**
     * The relocations that resolved differently on bpftool's output than on the full target, for
     * which {@link #build} kept every matching candidate's members instead of the first one's
     * only; empty when the output is bpftool's.
     *
     * <p>bpftool keeps the first matching candidate's spec of each relocation. When several
     * candidates match one relocation, the others may lose members a later relocation on the
     * same local type needs in order to keep them in libbpf's candidate list: on the output,
     * libbpf then resolves that later relocation against fewer candidates and may find none.
     * So whenever a relocation matched several candidates, the output is resolved again as
     * libbpf would resolve it ({@link SameOutcomes}); if any relocation differs, every matching
     * candidate's spec is marked too, which keeps each candidate list as it was on the target.
     */
    public List<Widened> widened() {
        return widened;
    }

    /** A relocation of {@code object} that bpftool's output would resolve otherwise ({@link #widened()}). */
    public record Widened(String object, ReloResult relocation) {
    }

    private void checked() throws BtfException {
        if (checked) {
            return;
        }
        SameOutcomes same = new SameOutcomes(target, recorded);
        List<Widened> differ = same.needed() ? same.differences(output()) : List.of();
        if (differ.isEmpty()) {
            checked = true;
            return;
        }
        for (SameOutcomes.Resolved r : recorded) {
            for (ReloResult res : r.results()) {
                for (int i = 1; i < res.matching().size(); i++) {
                    markSpec(SpecMatcher.match(res.relo().spec(), target, res.matching().get(i)));
                }
            }
        }
        List<Widened> still = same.differences(output());
        if (!still.isEmpty()) {
            ReloResult r = still.get(0).relocation();
            throw new BtfException(r.relo().section() + " relo #" + r.relo().index()
                    + ": resolves differently on the minimal BTF than on the target, even with every matching candidate kept");
        }
        widened = List.copyOf(differ);
        checked = true;
    }

    /** The output as libbpf reads it: the standalone BTF, or for a split target the minimal split on its minimal base. */
    private Btf output() {
        return target.isSplit() ? MinimalBtf.split(target, types, members).split() : MinimalBtf.standalone(target, types, members);
    }
}
