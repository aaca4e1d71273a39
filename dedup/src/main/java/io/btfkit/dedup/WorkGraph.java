package io.btfkit.dedup;

import io.btfkit.core.TypeRefs;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;

/**
 * The type graph a dedup pass works on: own nodes with ids from {@code firstId}; ids below
 * {@code firstId} are external nodes whose equivalence classes are already known
 * ({@code extClass}, or the id itself when null — used when the external nodes are classes).
 *
 * <p>The "real" own nodes are a window of a type encoding (string offsets already canonical)
 * that the graph shares rather than copies — the merged graph of millions of types is
 * partitioned in parts and classified twice, and a copy per pass would double the memory.
 * After them come "extra" nodes that stand for something outside the window (a declaration
 * atom): three words each, no references.
 *
 * <p>A node's children are read from its type-id fields in place (they are evenly spaced,
 * {@link TypeRefs#firstTypeIdSlot}) and rewritten on the way, never stored: a reference to a
 * named tag goes to its atom when the graph has atoms ({@link #setAtoms}).
 * An adjacency array would cost as much memory as the references themselves — 24 MB for the
 * 4.4 M references of a 300-unit link — in each of the two passes. Shapes never include
 * referenced ids ({@link Shapes}), so nothing else sees the rewriting.
 */
final class WorkGraph {
    /** Words per extra node. */
    static final int EXTRA_WORDS = 3;

    private final int[] words;
    private final int[] starts;
    private final int startBase;
    private final int real;
    final int firstId;
    final int[] extClass;
    /** Ids from here on are types of the same encoding (this window or other parts); below: external. */
    private final int encodingFirst;
    private final int ownEnd;

    private int[] extraWords = new int[0];
    /** Atom index of each type of the encoding (from {@code encodingFirst}), -1 if none; null: no atoms. */
    private int[] atomOfType;
    /** Atom index of each external id referenced, -1 if none; null: none. */
    private Int2IntOpenHashMap atomOfExternal;
    /** Node id of atom 0. */
    private int atomBase;

    /** All of {@code starts}' types as own nodes, references as written. */
    WorkGraph(int[] words, int[] starts, int firstId, int[] extClass) {
        this(words, starts, 0, starts.length - 1, firstId, firstId, extClass);
    }

    /**
     * Own nodes: the {@code real} types of {@code words} starting at index {@code startBase} of
     * {@code starts}, whose first type has id {@code encodingFirst} (ids below it are external),
     * then the extra nodes added by {@link #setAtoms}.
     */
    WorkGraph(int[] words, int[] starts, int startBase, int real, int firstId, int encodingFirst, int[] extClass) {
        this.words = words;
        this.starts = starts;
        this.startBase = startBase;
        this.real = real;
        this.firstId = firstId;
        this.encodingFirst = encodingFirst;
        this.ownEnd = firstId + real;
        this.extClass = extClass;
        this.plainSpanFlipped = real ^ Integer.MIN_VALUE;
    }

    /** Real nodes' count, unsigned-flipped, while no atoms rewrite references (else 0 flipped). */
    private int plainSpanFlipped;

    /**
     * References to named tags go to atoms: type {@code t} of the encoding to atom
     * {@code atomOfType[t - encodingFirst]}, external {@code e} to {@code atomOfExternal.get(e)}
     * (-1: not a tag; the map holds every external id referenced). {@code atomWords} ({@link #EXTRA_WORDS} per atom) become the first extra
     * nodes.
     */
    void setAtoms(int[] atomOfType, Int2IntOpenHashMap atomOfExternal, int[] atomWords) {
        this.atomOfType = atomOfType;
        this.atomOfExternal = atomOfExternal;
        this.atomBase = ownEnd + extraWords.length / EXTRA_WORDS;
        this.plainSpanFlipped = Integer.MIN_VALUE;
        appendExtras(atomWords);
    }

    private void appendExtras(int[] more) {
        int[] all = java.util.Arrays.copyOf(extraWords, extraWords.length + more.length);
        System.arraycopy(more, 0, all, extraWords.length, more.length);
        extraWords = all;
    }

    int size() {
        return real + extraWords.length / EXTRA_WORDS;
    }

    /** Words holding {@code node}'s encoding, from {@link #start}. */
    int[] wordsOf(int node) {
        return node < ownEnd ? words : extraWords;
    }

    int start(int node) {
        int i = node - firstId;
        return i < real ? starts[startBase + i] : EXTRA_WORDS * (i - real);
    }

    /** Length in words of {@code node}'s encoding. */
    int wordLength(int node) {
        int i = node - firstId;
        return i < real ? starts[startBase + i + 1] - starts[startBase + i] : EXTRA_WORDS;
    }

    int childCount(int node) {
        return node < ownEnd ? TypeRefs.typeIdCount(words, starts[startBase + node - firstId]) : 0;
    }

    int child(int node, int i) {
        int s = starts[startBase + node - firstId];
        return ref(TypeRefs.typeIdSlot(words, s, i));
    }

    /** Word index of the first reference of real node {@code node} (see {@link #childStride}). */
    int childSlot(int node) {
        return TypeRefs.firstTypeIdSlot(words, starts[startBase + node - firstId]);
    }

    /** Words between consecutive references of real node {@code node}. */
    int childStride(int node) {
        return TypeRefs.typeIdStride(words, starts[startBase + node - firstId]);
    }

    /** The node referenced by the type-id field at word {@code slot}, rewritten. */
    int ref(int slot) {
        int ref = words[slot];
        // (short, so that C1 inlines it: a reference to an own real node, when no atoms rewrite
        // references, is the common case; plainSpan is 0 when they do, and the compare is unsigned)
        return ((ref - firstId) ^ Integer.MIN_VALUE) < plainSpanFlipped ? ref : rewritten(ref);
    }

    /** Words of the real nodes (see {@link #realStart}). */
    int[] realWords() {
        return words;
    }

    /** Start of real node {@code node} in {@link #realWords}, or -1 for an extra node. */
    int realStart(int node) {
        int i = node - firstId;
        return i < real ? starts[startBase + i] : -1;
    }

    private int rewritten(int ref) {
        if (ref < encodingFirst) {
            if (atomOfExternal != null) {
                int a = atomOfExternal.get(ref);
                if (a >= 0) {
                    return atomBase + a;
                }
            }
            return ref;
        }
        if (atomOfType != null) {
            int a = atomOfType[ref - encodingFirst];
            if (a >= 0) {
                return atomBase + a;
            }
        }
        return ref;
    }

    /** Class of an external node. */
    int extClassOf(int id) {
        return extClass == null ? id : extClass[id];
    }
}
