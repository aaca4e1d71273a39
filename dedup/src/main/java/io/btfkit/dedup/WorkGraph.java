package io.btfkit.dedup;

import io.btfkit.core.TypeRefs;

/**
 * The type graph a dedup pass works on: own nodes with ids from {@code firstId}; ids below
 * {@code firstId} are external nodes whose equivalence classes are already known
 * ({@code extClass}, or the id itself when null — used when the external nodes are classes).
 *
 * <p>The "real" own nodes are a window of a type encoding (string offsets already canonical)
 * that the graph shares rather than copies — the merged graph of millions of types is
 * partitioned in parts and classified twice, and a copy per pass would double the memory.
 * After them come "extra" nodes that stand for something outside the window (a declaration
 * atom, another part's type): three words each, no references.
 *
 * <p>The referenced ids of every node are laid out once as adjacency arrays, so the hot loops
 * (component search, hash-consing, matching) read a node's children without decoding its
 * kind, and a pass can see references rewritten (to atoms, placeholders) without touching the
 * shared words: shapes never include referenced ids ({@link Shapes}).
 */
final class WorkGraph {
    /** Words per extra node. */
    static final int EXTRA_WORDS = 3;

    /** Rewrites a reference of a real node while the edges are laid out. */
    interface RefMap {
        int map(int ref);
    }

    private final int[] words;
    private final int[] starts;
    private final int startBase;
    private final int real;
    private int[] extraWords = new int[0];
    final int firstId;
    final int[] extClass;
    private final int[] edgeStart;
    private final int[] edges;

    /** All of {@code starts}' types as own nodes, references as written. */
    WorkGraph(int[] words, int[] starts, int firstId, int[] extClass) {
        this(words, starts, 0, starts.length - 1, firstId, extClass, ref -> ref);
    }

    /**
     * Own nodes: the {@code real} types of {@code words} starting at index {@code startBase} of
     * {@code starts} (then the extra nodes {@link #setExtras} adds); every reference of a real
     * node is passed through {@code refs}.
     */
    WorkGraph(int[] words, int[] starts, int startBase, int real, int firstId, int[] extClass, RefMap refs) {
        this.words = words;
        this.starts = starts;
        this.startBase = startBase;
        this.real = real;
        this.firstId = firstId;
        this.extClass = extClass;
        edgeStart = new int[real + 1];
        long total = 0;
        for (int i = 0; i < real; i++) {
            edgeStart[i] = (int) total;
            total += TypeRefs.typeIdCount(words, starts[startBase + i]);
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new io.btfkit.core.BtfException("too many references to deduplicate: " + total);
        }
        edgeStart[real] = (int) total;
        edges = new int[(int) total];
        for (int i = 0; i < real; i++) {
            int s = starts[startBase + i];
            int at = edgeStart[i];
            int count = edgeStart[i + 1] - at;
            for (int k = 0; k < count; k++) {
                edges[at + k] = refs.map(words[TypeRefs.typeIdSlot(words, s, k)]);
            }
        }
    }

    /**
     * Adds the extra nodes (their words, {@link #EXTRA_WORDS} each), known once the references
     * are laid out; called once, before the graph is used.
     */
    void setExtras(int[] extraWords) {
        this.extraWords = extraWords;
    }

    /** Rewrites the references laid out (a second numbering pass of the caller). */
    void remapEdges(RefMap refs) {
        for (int i = 0; i < edges.length; i++) {
            edges[i] = refs.map(edges[i]);
        }
    }

    int size() {
        return real + extraWords.length / EXTRA_WORDS;
    }

    /** Words holding {@code node}'s encoding, from {@link #start}. */
    int[] wordsOf(int node) {
        return node - firstId < real ? words : extraWords;
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
        int i = node - firstId;
        return i < real ? edgeStart[i + 1] - edgeStart[i] : 0;
    }

    int child(int node, int i) {
        return edges[edgeStart[node - firstId] + i];
    }

    /** Class of an external node. */
    int extClassOf(int id) {
        return extClass == null ? id : extClass[id];
    }
}
