package io.btfkit.minimize;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;

/**
 * One search for the target member a named local accessor stands for (libbpf's
 * {@code bpf_core_match_member}): the members of a target struct/union in order, descending
 * into every anonymous member; the first member of the wanted name decides (its field type must
 * be compatible, else the struct holding it gives up and the search goes on above it).
 *
 * <p>Why memoised: libbpf walks every path through anonymous members, and bounds only their
 * depth (the 64 indices of a raw spec). When anonymous types are shared — 4 anonymous members
 * of one anonymous struct, which has 4 of the next, 16 levels — that is 4^16 paths, and a 1 KB
 * target keeps libbpf (and this search, before) busy for minutes. What the walk does below an
 * anonymous type does not depend on how it was reached, so each type is walked once per search
 * and its {@link Outcome} replayed wherever the type appears again.
 *
 * <p>Replaying must give exactly libbpf's spec, quirks included: a struct that holds a member
 * of the wanted name whose type is incompatible gives up without undoing its last raw index and
 * bit offset, and the struct above it then pops only one index, so the stale entry stays in the
 * raw spec (and its bits in the offset) if a later anonymous member holds the field. An outcome
 * therefore records everything the walk left on the spec, relative to where it began. The two
 * limits that depend on where the walk began — the raw spec's 64 indices and the nesting of
 * anonymous members ({@link TypeOps#MAX_DEPTH}) — are checked against the outcome's peaks
 * whenever it is replayed. Memory: at most 64 indices per walked type.
 */
final class MemberSearch {
    /**
     * What walking below one type did to the spec: the raw indices and bits it left, the member
     * found ({@code found} null when none), and the peaks reached on the way — {@code rawPeak}
     * the longest raw path (relative) at which a member was tried (-1: none tried),
     * {@code nesting} the deepest anonymous member descended into (0: none).
     */
    private record Outcome(int[] raw, long bits, Accessor found, int memberType, int rawPeak, int nesting) {
    }

    private static final Outcome NOTHING = new Outcome(new int[0], 0, null, 0, -1, 0);

    private final Btf local;
    private final Accessor wanted;
    private final int localMemberType;
    private final Btf target;
    private final Int2ObjectOpenHashMap<Outcome> walked = new Int2ObjectOpenHashMap<>();
    private final IntOpenHashSet walking = new IntOpenHashSet();

    private MemberSearch(Btf local, Accessor wanted, Btf target) {
        this.local = local;
        this.wanted = wanted;
        this.localMemberType = TypeOps.memberType(local, wanted.typeId(), wanted.index());
        this.target = target;
    }

    /**
     * Finds the member {@code wanted} names in target type {@code targId} (a struct or union after
     * typedefs and modifiers, else nothing is found). On success adds the raw indices and bits of
     * the path and the target accessor to {@code spec} and returns the member's type id (-1 for
     * void); returns 0 when nothing matches (the spec is then not to be used).
     */
    static int find(Btf local, Accessor wanted, Btf target, int targId, CoreSpec spec) {
        Outcome o = new MemberSearch(local, wanted, target).walk(targId, spec.rawLength(), 0);
        if (o.found == null) {
            return 0;
        }
        for (int index : o.raw) {
            spec.pushRaw(index);
        }
        spec.addBits(o.bits);
        spec.addAccessor(o.found);
        return o.memberType == 0 ? -1 : o.memberType;
    }

    /**
     * The outcome of walking type {@code id}, reached with {@code rawAt} raw indices on the spec
     * and {@code depth} anonymous members deep; computed once per type, then replayed.
     */
    private Outcome walk(int id, int rawAt, int depth) {
        if (depth > TypeOps.MAX_DEPTH) {
            throw nestedTooDeep();
        }
        Outcome o = walked.get(id);
        if (o == null) {
            if (!walking.add(id)) {
                // an anonymous member that contains itself: libbpf would descend until a limit
                throw nestedTooDeep();
            }
            o = walkMembers(id, rawAt, depth);
            walking.remove(id);
            walked.put(id, o);
        }
        if (rawAt + o.rawPeak >= CoreSpec.MAX_LEN) {
            throw pathTooLong();
        }
        if (depth + o.nesting > TypeOps.MAX_DEPTH) {
            throw nestedTooDeep();
        }
        return o;
    }

    private Outcome walkMembers(int id, int rawAt, int depth) {
        int owner = TypeOps.skipModsAndTypedefs(target, id);
        if (owner <= 0 || !Kind.isComposite(target.kind(owner))) {
            return NOTHING;
        }
        IntArrayList raw = new IntArrayList();
        long bits = 0;
        int rawPeak = -1;
        int nesting = 0;
        for (int i = 0; i < target.vlen(owner); i++) {
            rawPeak = Math.max(rawPeak, raw.size());
            if (rawAt + raw.size() >= CoreSpec.MAX_LEN) {
                throw pathTooLong();
            }
            int memberBits = TypeOps.memberBitOffset(target, owner, i);
            bits += memberBits;
            raw.add(i);
            String name = TypeOps.memberName(target, owner, i);
            int mtype = TypeOps.memberType(target, owner, i);
            if (name.isEmpty()) {
                Outcome inner = walk(mtype, rawAt + raw.size(), depth + 1);
                rawPeak = Math.max(rawPeak, raw.size() + inner.rawPeak);
                nesting = Math.max(nesting, 1 + inner.nesting);
                raw.addElements(raw.size(), inner.raw);
                bits += inner.bits;
                if (inner.found != null) {
                    return new Outcome(raw.toIntArray(), bits, inner.found, inner.memberType, rawPeak, nesting);
                }
            } else if (name.equals(wanted.name())) {
                if (!TypeCompat.fieldsAreCompatible(local, localMemberType, target, mtype)) {
                    // libbpf gives up here and leaves this member's index and bits behind
                    return new Outcome(raw.toIntArray(), bits, null, 0, rawPeak, nesting);
                }
                return new Outcome(raw.toIntArray(), bits, new Accessor(owner, i, name), mtype, rawPeak, nesting);
            }
            // not this member: undo one index (the top one, which an inner walk may have left) and its bits
            raw.removeInt(raw.size() - 1);
            bits -= memberBits;
        }
        return new Outcome(raw.toIntArray(), bits, null, 0, rawPeak, nesting);
    }

    private static ReloFailure nestedTooDeep() {
        return new ReloFailure("anonymous members nested deeper than " + TypeOps.MAX_DEPTH);
    }

    private static ReloFailure pathTooLong() {
        return new ReloFailure("target access path longer than " + CoreSpec.MAX_LEN);
    }
}
