package io.btfkit.dedup;

import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;

/**
 * Rule 2 on whole inputs: whether the places prove every use of a declaration node in its input.
 *
 * <p>A module's BTF is many compilation units already deduplicated, so its one {@code FWD 'foo'}
 * stands for the declaration of every unit that declared {@code foo}, and two units may mean
 * different {@code foo}s. A proof at a place of an enclosing definition (a named struct, union,
 * typedef or shared function whose copies in other inputs agree on the full type there) binds
 * the units holding that definition, and by the same premise as for units, all of them: they
 * hold one C definition. It binds the node when every type of the input that reaches the node
 * does so under such a proof. Walking up from the node through the types that only pass a
 * reference on (pointers, qualifiers, type tags, arrays, prototypes, anonymous structs and
 * unions), every path must end in an enclosing definition whose walk proved the node's
 * definition. A path that ends in a variable, a section, a decl tag, a function only this input
 * has, an enclosing definition without that proof, or a type nothing refers to is a use no
 * place proves, and the node stays (DEDUP.md has the witness).
 *
 * <pre>
 * [1] FWD 'foo' fwd_kind=struct          proven: every path from [1] ends in 'holder'
 * [2] PTR '(anon)' type_id=1
 * [3] STRUCT 'holder' size=8 vlen=1      (another module's 'holder' has the full 'foo' there)
 *         'f' type_id=2 bits_offset=0
 * [4] VAR 'p' type_id=2, linkage=global  ...unless a variable also holds [2]: then unproven
 * </pre>
 */
final class EveryUseProven {
    private final Merger.Merged m;
    private final ContextResolver.Enclosing enclosing;
    /** Per declaration (merged id), the enclosing types of its input whose walk proved its definition. */
    private final Int2ObjectOpenHashMap<IntOpenHashSet> provenRoots;

    EveryUseProven(Merger.Merged m, ContextResolver.Enclosing enclosing,
                   Int2ObjectOpenHashMap<IntOpenHashSet> provenRoots) {
        this.m = m;
        this.enclosing = enclosing;
        this.provenRoots = provenRoots;
    }

    /** Whether every type of its input that reaches declaration {@code decl} (a merged id) is proven. */
    boolean proven(int decl) {
        IntOpenHashSet roots = provenRoots.get(decl);
        if (roots == null) {
            return false;
        }
        int[] w = m.words;
        int[] st = m.starts;
        int first = m.firstId;
        int input = inputOf(decl);
        int a = m.inputFirst[input] - first;
        int b = m.inputFirst[input + 1] - first;
        // the types that pass a reference on to decl, each with who refers to it (PROVEN: a proven root)
        Int2ObjectOpenHashMap<IntArrayList> referrers = new Int2ObjectOpenHashMap<>();
        referrers.put(decl, new IntArrayList());
        boolean grew = true;
        while (grew) {
            grew = false;
            for (int i = a; i < b; i++) {
                int id = first + i;
                int s = st[i];
                int n = TypeRefs.typeIdCount(w, s);
                boolean reaches = false;
                for (int k = 0; k < n && !reaches; k++) {
                    reaches = referrers.containsKey(w[TypeRefs.typeIdSlot(w, s, k)]);
                }
                if (!reaches) {
                    continue;
                }
                if (roots.contains(id)) {
                    addReferrer(referrers, w, s, n, PROVEN);
                } else if (referrers.containsKey(id)) {
                    addReferrer(referrers, w, s, n, id);
                } else if (passesOn(w, s)) {
                    referrers.put(id, new IntArrayList());
                    addReferrer(referrers, w, s, n, id);
                    grew = true;
                } else {
                    return false;
                }
            }
        }
        return covered(referrers).contains(decl);
    }

    private static final int PROVEN = -1;

    private static void addReferrer(Int2ObjectOpenHashMap<IntArrayList> referrers, int[] w, int s, int n, int from) {
        for (int k = 0; k < n; k++) {
            IntArrayList r = referrers.get(w[TypeRefs.typeIdSlot(w, s, k)]);
            if (r != null && !r.contains(from)) {
                r.add(from);
            }
        }
    }

    /**
     * The least set of collected types each referred to at least once and only by proven roots
     * or members of the set: a ring of pointers that nothing outside refers to stays out.
     */
    private static IntOpenHashSet covered(Int2ObjectOpenHashMap<IntArrayList> referrers) {
        IntOpenHashSet covered = new IntOpenHashSet();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (Int2ObjectOpenHashMap.Entry<IntArrayList> e : referrers.int2ObjectEntrySet()) {
                if (covered.contains(e.getIntKey()) || e.getValue().isEmpty()) {
                    continue;
                }
                boolean all = true;
                for (int k = 0; k < e.getValue().size() && all; k++) {
                    int r = e.getValue().getInt(k);
                    all = r == PROVEN || covered.contains(r);
                }
                if (all) {
                    covered.add(e.getIntKey());
                    grew = true;
                }
            }
        }
        return covered;
    }

    /**
     * A type that only passes a reference on: not an enclosing definition, not a named tag, not
     * a variable, section, function or decl tag (uses that are their own).
     */
    private boolean passesOn(int[] w, int s) {
        int kind = Kind.kindOf(w[s + 1]);
        return !enclosing.is(w, s) && Definitions.tagOf(w, s) < 0 && kind != Kind.VAR && kind != Kind.DATASEC
                && kind != Kind.FUNC && kind != Kind.DECL_TAG;
    }

    private int inputOf(int id) {
        int[] f = m.inputFirst;
        int lo = 0;
        int hi = f.length - 2;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (f[mid] <= id) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }
}
