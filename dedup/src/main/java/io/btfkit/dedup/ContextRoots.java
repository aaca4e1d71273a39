package io.btfkit.dedup;

import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import java.util.BitSet;

/**
 * The enclosing definitions the context rule can learn from, found before the definitions pass
 * on whole inputs so that it classifies only those: the ones that reach, through types that are
 * not named tags (pointers, qualifiers, arrays, prototypes, anonymous composites), a declaration
 * whose name several definitions carry — where {@link ContextResolver}'s first walk records
 * places — and every enclosing definition of the same name (the copies its second walk compares).
 * A module link's declared names with several definitions reach a few hundred of its 300,000
 * enclosing definitions. Where a loop of such types makes the search uncertain the definition
 * is taken: a root too many only costs its classification.
 */
final class ContextRoots {
    private static final byte UNKNOWN = 0;
    private static final byte OPEN = 1;
    private static final byte NO = 2;
    private static final byte YES = 3;

    /** Whether a declaration of {@code name} (a struct/union FWD when {@code composite}) is ambiguous. */
    interface Ambiguity {
        boolean test(int name, boolean composite);
    }

    private ContextRoots() {
    }

    /** The own types (index from 0) to classify for the context rule; empty when no place can be found. */
    static BitSet of(Merger.Merged m, ContextResolver.Enclosing enclosing, Ambiguity ambiguous) {
        int[] w = m.words;
        int[] st = m.starts;
        byte[] kinds = m.kinds;
        int n = st.length - 1;
        byte[] state = new byte[n];
        BitSet roots = new BitSet(n);
        IntOpenHashSet names = new IntOpenHashSet();
        IntArrayList stackNode = new IntArrayList();
        IntArrayList stackEdge = new IntArrayList();
        // a type reaches only types of its own input (and the base): only inputs holding such a
        // declaration are searched
        int[] inputFirst = m.inputFirst;
        int first = m.firstId;
        for (int u = 0; u + 1 < inputFirst.length; u++) {
            int a = inputFirst[u] - first;
            int b = inputFirst[u + 1] - first;
            if (!holdsAmbiguousDeclaration(w, st, kinds, a, b, ambiguous)) {
                continue;
            }
            for (int i = a; i < b; i++) {
                if (enclosing.is(kinds[i], w, st[i]) && childrenReach(m, i, state, ambiguous, stackNode, stackEdge)) {
                    roots.set(i);
                    names.add(w[st[i]]);
                }
            }
        }
        if (!roots.isEmpty()) {
            for (int i = 0; i < n; i++) {
                if (enclosing.is(kinds[i], w, st[i]) && names.contains(w[st[i]])) {
                    roots.set(i);
                }
            }
        }
        return roots;
    }

    private static boolean holdsAmbiguousDeclaration(int[] w, int[] st, byte[] kinds, int a, int b, Ambiguity ambiguous) {
        for (int i = a; i < b; i++) {
            int s = st[i];
            if (TypeKinds.isNamedDeclaration(kinds[i]) && ambiguous.test(w[s], TypeKinds.kind(kinds[i]) == Kind.FWD)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a child of own type {@code i} reaches such a declaration (memoised in {@code state} for types that are not tags). */
    private static boolean childrenReach(Merger.Merged m, int i, byte[] state, Ambiguity ambiguous,
                                         IntArrayList stackNode, IntArrayList stackEdge) {
        int[] w = m.words;
        int[] st = m.starts;
        int first = m.firstId;
        stackNode.clear();
        stackEdge.clear();
        stackNode.add(i);
        stackEdge.add(0);
        boolean found = false;
        while (!stackNode.isEmpty()) {
            int top = stackNode.size() - 1;
            int y = stackNode.getInt(top);
            int e = stackEdge.getInt(top);
            int s = st[y];
            if (found || e >= TypeRefs.typeIdCount(w, s)) {
                stackNode.removeInt(top);
                stackEdge.removeInt(top);
                if (top > 0) { // (the root's own state is left alone: it may be a tag)
                    state[y] = found ? YES : NO;
                }
                continue;
            }
            stackEdge.set(top, e + 1);
            int c = w[TypeRefs.typeIdSlot(w, s, e)] - first;
            if (c < 0) {
                continue; // void, or a type of the base: it reaches no declaration of an input
            }
            int cs = st[c];
            if (Definitions.tagOf(w, cs) >= 0) {
                found = Declarations.isDeclaration(w, cs) && ambiguous.test(w[cs], Kind.kindOf(w[cs + 1]) == Kind.FWD);
                continue;
            }
            byte k = state[c];
            if (k == YES || k == OPEN) {
                found = true; // (OPEN: a loop of such types; taken as reaching)
            } else if (k == UNKNOWN) {
                state[c] = OPEN;
                stackNode.add(c);
                stackEdge.add(0);
            }
        }
        return found;
    }
}
