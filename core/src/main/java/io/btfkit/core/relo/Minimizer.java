package io.btfkit.core.relo;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.BtfException;
import io.btfkit.core.BtfType;
import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * The smallest BTF a set of CO-RE relocations needs from one target, built as bpftool's
 * {@code gen min_core_btf} (BTFGen) builds it, so the bytes are the same: every relocation's
 * target spec marks types and members; then the marked types are copied in id order (structs
 * and unions with only their marked members, at their bit offsets), and every reference to a
 * type that was not marked becomes 0 ({@code void}). See docs/MINIMIZE.md for the rules.
 *
 * <p>Not thread-safe: one instance collects the relocations of any number of objects for one
 * target, then {@link #build()}.
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
    /** Deepest reference chain walked; deeper is refused, never a stack overflow. */
    static final int MAX_DEPTH = 1000;

    public Minimizer(Btf target) {
        if (target.isSplit()) {
            throw new IllegalArgumentException("split target BTF is not supported");
        }
        this.target = target;
    }

    /**
     * Marks what one resolved relocation uses. A relocation that matched no candidate, or needs
     * no target ({@code local_type_id}), marks nothing.
     *
     * @throws BtfException a relocation that is an error (bpftool fails on it too), or a kept
     *     type of a kind BTFGen cannot keep
     */
    public void record(ReloResult res) throws BtfException {
        if (res.status() == ReloResult.Status.ERROR) {
            throw new BtfException(res.relo().section() + " relo #" + res.relo().index() + ": " + res.error());
        }
        CoreSpec spec = res.target();
        if (spec == null || res.status() == ReloResult.Status.LOCAL) {
            return;
        }
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
     * minimizer's) and marks what each uses.
     *
     * @throws BtfException as {@link #record}, for the first relocation that is an error
     */
    public void recordAll(CoreRelocator relocator, CoreProgram program) throws BtfException {
        if (relocator.target() != target) {
            throw new IllegalArgumentException("the relocator resolves against another target");
        }
        for (LocalRelo r : program.relos()) {
            record(relocator.resolve(program.local(), r));
        }
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
     * The minimized BTF: marked types in target id order; a struct/union with its name, size and
     * marked members only; any other type copied whole; references remapped, unmarked ones to 0.
     */
    public Btf build() {
        int n = target.typeCount();
        int[] ids = new int[n];
        BtfBuilder b = new BtfBuilder();
        for (int id = types.nextSetBit(1); id >= 0 && id < n; id = types.nextSetBit(id + 1)) {
            int k = target.kind(id);
            if (Kind.isComposite(k)) {
                BtfType t = target.type(id);
                ids[id] = k == Kind.STRUCT ? b.addStruct(t.name(), t.size()) : b.addUnion(t.name(), t.size());
                BitSet kept = members.getOrDefault(id, new BitSet());
                var ms = t.members();
                for (int i = kept.nextSetBit(0); i >= 0; i = kept.nextSetBit(i + 1)) {
                    BtfType.Member m = ms.get(i);
                    b.addMember(m.name(), m.type(), m.bitOffset(), m.bitfieldSize());
                }
            } else {
                ids[id] = copy(b, id);
            }
        }
        Btf raw = b.build();
        int[] w = raw.words();
        for (int id = raw.firstId(); id < raw.typeCount(); id++) {
            TypeRefs.forEachTypeIdSlot(w, raw.startOf(id), slot -> w[slot] = ids[w[slot]]);
        }
        return raw;
    }

    /** Copies a type whole, its strings added to the new table in field order (btf__add_type). */
    private int copy(BtfBuilder b, int id) {
        int start = target.startOf(id);
        int[] src = target.owner(id).words();
        int count = target.wordCount(id);
        int[] words = java.util.Arrays.copyOfRange(src, start, start + count);
        TypeRefs.forEachStringSlot(words, 0, slot -> words[slot] = words[slot] == 0 ? 0 : b.addString(target.strings(), words[slot]));
        return b.addRaw(words, 0, count);
    }
}
