package io.btfkit.dedup;

import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import java.util.Arrays;

/**
 * Equivalence classes found so far — the canonical graph — hash-consed two ways: by full key
 * (shape plus the classes of the referenced types, for acyclic types) and by shape alone (to
 * find candidates for a cyclic component). Every hash hit is confirmed by full comparison.
 *
 * <p>Layered: a frozen parent layer (a base BTF's classes, shared read-only by many split dedups
 * in parallel) and this table's own classes, numbered after the parent's. Class 0 is void.
 * Each class is represented by one of its nodes (its representative for comparisons) in the
 * layer's graph; the class's children are that node's children's classes, which are the same
 * for every member by construction.
 */
final class ClassTable {
    private static final int NONE = -1;

    private final ClassTable parent;
    /** First class id of this layer. */
    final int first;
    /** Graph whose nodes represent this layer's classes. */
    final WorkGraph graph;
    /** Class of each own node of {@link #graph} (NONE while unassigned). */
    final int[] nodeClass;

    private int size;
    private int[] rep;
    /** The children's classes of every class, contiguous (one cache line to confirm a hit). */
    private int[] childKey;
    private int[] childStart;
    private int childUsed;
    private HashIndex fullIndex;
    /**
     * The shape index, of the classes a cyclic component made ({@link #addCyclic}) only: a
     * component can only match classes on a cycle of the class graph, and a class made for one
     * acyclic type never is (its children are older classes, and every edge of the class graph
     * goes to an older class or one made with it). Numbered in order of creation: the class of
     * each, the next of the same shape hash (-1: none), and the length of the chain from it on
     * (the head's is the layer's count of that shape: chains of anonymous pointers are long,
     * and a count is asked per member).
     */
    private int cyclicCount;
    private int[] cyclicClass;
    private int[] nextShape;
    private int[] chainLength;
    private Long2IntOpenHashMap shapeHead;

    ClassTable(ClassTable parent, WorkGraph graph) {
        this(parent, graph, 64);
    }

    /**
     * @param expected about how many classes the layer will have (its columns and indexes are
     *                 sized for that many, and grow past it): a union graph's node count, whose
     *                 classes are most of its nodes, spares it the growing
     */
    ClassTable(ClassTable parent, WorkGraph graph, int expected) {
        int cap = Math.max(64, expected);
        rep = new int[cap];
        childStart = new int[cap + 1];
        childKey = new int[4 * cap];
        fullIndex = new HashIndex(expected);
        cyclicClass = new int[64];
        nextShape = new int[64];
        chainLength = new int[64];
        shapeHead = new Long2IntOpenHashMap();
        this.parent = parent;
        this.first = parent == null ? 1 : parent.classCount();
        this.graph = graph;
        this.nodeClass = new int[graph.size()];
        Arrays.fill(nodeClass, NONE);
        shapeHead.defaultReturnValue(NONE);
    }

    /**
     * Drops everything but the node-to-class map, once a layer's classes have been copied into
     * a union graph ({@link PartitionRun}): a part's hash indexes and class columns are tens of
     * MB on a link of millions of types, and the union step would otherwise hold them too.
     * Afterwards only {@link #nodeClass}, {@link #classOfNode} and the class count answer.
     */
    void keepOnlyNodeClasses() {
        rep = null;
        cyclicClass = null;
        nextShape = null;
        childKey = null;
        childStart = null;
        fullIndex = null;
        shapeHead = null;
        chainLength = null;
    }

    ClassTable parent() {
        return parent;
    }

    /** One past the highest class id of this layer. */
    int classCount() {
        return first + size;
    }

    int ownClassCount() {
        return size;
    }

    /** Layer that owns class {@code c}. */
    ClassTable layerOf(int c) {
        ClassTable t = this;
        while (c < t.first) {
            t = t.parent;
        }
        return t;
    }

    /** Representative node of a class of this layer (a node of {@link #graph}). */
    int rep(int c) {
        return rep[c - first];
    }

    /** Class of a node of this layer's graph, external nodes included. */
    int classOfNode(int id) {
        return id < graph.firstId ? graph.extClassOf(id) : nodeClass[id - graph.firstId];
    }

    /** Class of the {@code i}-th referenced type of class {@code c} (c in this layer). */
    int childClass(int c, int i) {
        return childKey[childStart[c - first] + i];
    }

    /** Adds a class represented by {@code repNode} (index it by full key with {@link #indexFull}). */
    int add(int repNode) {
        if (size == rep.length) {
            int n = size * 2;
            rep = Arrays.copyOf(rep, n);
            childStart = Arrays.copyOf(childStart, n + 1);
        }
        int i = size++;
        rep[i] = repNode;
        return first + i;
    }

    /** {@link #add} for a class made by a cyclic component, also indexed by its shape hash. */
    int addCyclic(int repNode, long shapeH) {
        int c = add(repNode);
        if (cyclicCount == cyclicClass.length) {
            int n = cyclicCount * 2;
            cyclicClass = Arrays.copyOf(cyclicClass, n);
            nextShape = Arrays.copyOf(nextShape, n);
            chainLength = Arrays.copyOf(chainLength, n);
        }
        int k = cyclicCount++;
        cyclicClass[k] = c;
        int next = shapeHead.put(shapeH, k);
        nextShape[k] = next;
        chainLength[k] = next == NONE ? 1 : chainLength[next] + 1;
        return c;
    }

    /**
     * Records the children's classes of class {@code c} (the last one added) and indexes it by
     * its full key hash.
     */
    void indexFull(int c, long h, int[] children, int n) {
        int i = c - first;
        if (childUsed + n > childKey.length) {
            childKey = Arrays.copyOf(childKey, Math.max(childUsed + n, childKey.length * 2));
        }
        childStart[i] = childUsed;
        System.arraycopy(children, 0, childKey, childUsed, n);
        childUsed += n;
        childStart[i + 1] = childUsed;
        fullIndex.add(h, c);
    }

    /** Full key hash: the shape hash combined with the children's classes in order. */
    static long fullHash(long shapeH, int[] childClasses, int n) {
        long h = shapeH;
        for (int i = 0; i < n; i++) {
            h = Shapes.mix(h + 0x632BE59BD9B4E019L * (childClasses[i] + 1L));
        }
        return h;
    }

    /**
     * The class whose shape equals the type at {@code w[s]} and whose children are
     * {@code childClasses}, or NONE.
     */
    int findFull(long h, int[] w, int s, int[] childClasses, int n) {
        for (ClassTable t = this; t != null; t = t.parent) {
            HashIndex idx = t.fullIndex;
            int at = idx.first(h);
            while (true) {
                long hit = idx.find(h, at);
                if (hit < 0) {
                    break;
                }
                int c = (int) hit;
                if (t.matches(c, w, s, childClasses, n)) {
                    return c;
                }
                at = idx.next((int) (hit >>> 32));
            }
        }
        return NONE;
    }

    private boolean matches(int c, int[] w, int s, int[] childClasses, int n) {
        int k = childStart[c - first];
        if (childStart[c - first + 1] - k != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (childKey[k + i] != childClasses[i]) {
                return false;
            }
        }
        int r = rep[c - first];
        return Shapes.equal(w, s, graph.wordsOf(r), graph.start(r));
    }

    /** Number of cyclic components' classes (all layers) whose shape hash is {@code h}. */
    int shapeCandidates(long h) {
        int count = 0;
        for (ClassTable t = this; t != null; t = t.parent) {
            int head = t.shapeHead.get(h);
            count += head == NONE ? 0 : t.chainLength[head];
        }
        return count;
    }

    /** Fills {@code out} with the cyclic components' classes whose shape hash is {@code h}; returns how many. */
    int shapeCandidates(long h, int[] out) {
        int count = 0;
        for (ClassTable t = this; t != null; t = t.parent) {
            for (int k = t.shapeHead.get(h); k != NONE; k = t.nextShape[k]) {
                if (count < out.length) {
                    out[count] = t.cyclicClass[k];
                }
                count++;
            }
        }
        return count;
    }

    /** Words and start of the representative of class {@code c}, for shape comparison. */
    int[] repWords(int c) {
        ClassTable t = layerOf(c);
        return t.graph.wordsOf(t.rep[c - t.first]);
    }

    int repStart(int c) {
        ClassTable t = layerOf(c);
        return t.graph.start(t.rep[c - t.first]);
    }
}
