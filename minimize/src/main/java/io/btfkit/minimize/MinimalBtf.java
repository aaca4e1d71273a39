package io.btfkit.minimize;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.BtfType;
import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Map;

/**
 * Writes out the types {@link Minimizer} marked, as BTFGen does: the marked types in the
 * target's id order, renumbered; a struct or union with its name, size and marked members only
 * (at their bit offsets); any other type copied whole; every reference remapped, a reference to
 * an unmarked type becoming 0 ({@code void}). Strings are added in type order, each once (libbpf's
 * {@code btf__add_type}/{@code btf__add_str}).
 *
 * <p>For a split target (a module's BTF on vmlinux) two shapes: {@link #standalone} puts base
 * and split types in one BTF, which is what bpftool writes for the all-in-one blob of the two;
 * {@link #split} writes the marked base types as a minimal base and the marked split types as a
 * split BTF on it. Both number types in the same order, and a split BTF's strings continue the
 * base's string section and reuse the base's strings, so the pair joined (base types, then split
 * types, the two string sections end to end) is the standalone output byte for byte:
 *
 * <pre>
 * target: [1] INT 'int' ... [2] STRUCT 'task' (base) | [3] STRUCT 'mod' size=8 vlen=2 (split)
 *                                                       'a' type_id=1 'b' type_id=2
 * a relocation reads mod.a:
 *   minimal base:  [1] INT 'int'          strings "\0int\0"
 *   minimal split: [2] STRUCT 'mod' vlen=1 'a' type_id=1    strings "mod\0a\0" (offsets 5, 9)
 * </pre>
 */
public final class MinimalBtf {
    private MinimalBtf() {
    }

    /** A minimal base and a minimal split BTF on it. */
    public record Split(Btf base, Btf split) {
    }

    /**
     * One standalone BTF of the marked types of {@code target} (and of its base, when split).
     *
     * @param members marked member indices per struct/union id; a composite without an entry keeps
     *     no members
     */
    public static Btf standalone(Btf target, BitSet types, Map<Integer, BitSet> members) {
        int[] ids = new int[target.typeCount()];
        BtfBuilder b = new BtfBuilder();
        addRange(b, target, types, members, 1, target.typeCount(), ids);
        return remapped(b.build(), ids);
    }

    /**
     * The marked types of a split {@code target}: those below {@code target.firstId()} as a
     * standalone minimal base (ids from 1), the others as a split BTF on it (ids from the minimal
     * base's count), references into the base remapped to the minimal base's ids.
     */
    public static Split split(Btf target, BitSet types, Map<Integer, BitSet> members) {
        if (!target.isSplit()) {
            throw new IllegalArgumentException("target BTF is not split");
        }
        int[] ids = new int[target.typeCount()];
        BtfBuilder baseBuilder = new BtfBuilder();
        addRange(baseBuilder, target, types, members, 1, target.firstId(), ids);
        // the split builder reads the base's strings (to reuse them) but never its type words,
        // so remapping the base's references afterwards, in place, is safe
        Btf base = baseBuilder.build();
        BtfBuilder splitBuilder = new BtfBuilder(base);
        addRange(splitBuilder, target, types, members, target.firstId(), target.typeCount(), ids);
        Btf split = splitBuilder.build();
        return new Split(remapped(base, ids), remapped(split, ids));
    }

    /** Adds the marked types with ids in [from, to) to {@code b}, recording each new id in {@code ids}. */
    private static void addRange(BtfBuilder b, Btf target, BitSet types, Map<Integer, BitSet> members, int from, int to, int[] ids) {
        for (int id = types.nextSetBit(from); id >= 0 && id < to; id = types.nextSetBit(id + 1)) {
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
                ids[id] = copy(b, target, id);
            }
        }
    }

    /** Copies a type whole, its strings added to the new table in field order (btf__add_type). */
    private static int copy(BtfBuilder b, Btf target, int id) {
        int start = target.startOf(id);
        int[] src = target.owner(id).words();
        int count = target.wordCount(id);
        int[] words = Arrays.copyOfRange(src, start, start + count);
        TypeRefs.forEachStringSlot(words, 0, slot -> words[slot] = words[slot] == 0 ? 0 : b.addString(target.strings(), words[slot]));
        return b.addRaw(words, 0, count);
    }

    /** Rewrites the target ids {@code btf}'s types still carry to the new ids (0 where unmarked). */
    private static Btf remapped(Btf btf, int[] ids) {
        int[] w = btf.words();
        for (int id = btf.firstId(); id < btf.typeCount(); id++) {
            TypeRefs.forEachTypeIdSlot(w, btf.startOf(id), slot -> w[slot] = ids[w[slot]]);
        }
        return btf;
    }
}
