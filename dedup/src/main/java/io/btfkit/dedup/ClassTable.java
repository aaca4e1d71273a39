package io.btfkit.dedup;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

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
 *
 * <p>Shared by the threads that partition parts of one graph at once ({@link SharedPartition}),
 * so that no union step has to unify their classes afterwards. The class graph stays minimal
 * because a class is only ever added where no equal one exists, checked under a lock: an
 * acyclic type's key ({@link #findOrAdd}) under the lock of its hash's stripe, a cyclic
 * component's make under one lock for all of them ({@link #cyclicLock}; only its classes can
 * match a component, see {@link #addCyclic}). Lookups without the lock — of a key, or of a
 * cyclic component's match — see only classes whose data was written before their index entry
 * was published; a miss is decided again under the lock. Class ids are handed out in order; a class's columns are written by the
 * thread that made it, before anyone can find it.
 */
final class ClassTable {
    private static final int NONE = -1;

    /** Classes per chunk of the representative and key-position columns. */
    private static final int CLASS_SHIFT = 14;
    private static final int CLASS_MASK = (1 << CLASS_SHIFT) - 1;
    /** Ints per chunk of children's classes: one class's key (at most 65,537 ints) fits. */
    private static final int KEY_CHUNK = 1 << 18;
    private static final int STRIPES = 64;

    private final ClassTable parent;
    /** First class id of this layer. */
    final int first;
    /** Graph whose nodes represent this layer's classes. */
    final WorkGraph graph;
    /**
     * Class of each own node of {@link #graph} (negative while unassigned: NONE, or what
     * {@link DefinitionSeeds} keeps there), written by the node's partitioning thread.
     */
    final int[] nodeClass;

    private final AtomicInteger size = new AtomicInteger();
    /** Per class: its representative node, and where its key is (key chunk << 18 | offset). */
    private volatile int[][] repChunks = new int[16][];
    private volatile int[][] keyAtChunks = new int[16][];
    /** Keys: per class its children count, then its children's classes (one cache line to confirm a hit). */
    private volatile int[][] keyChunks = new int[16][];
    private int keyChunkCount;
    private volatile ConcurrentHashIndex fullIndex;
    private final Object[] stripes = new Object[STRIPES];
    /** Held to allocate column chunks (never while taking another lock). */
    private final Object chunkLock = new Object();
    /** Held to grow the index (while taking every stripe's lock, in order). */
    private final Object growLock = new Object();
    /** Held while a cyclic component is matched or made into classes, and for the shape index. */
    final Object cyclicLock = new Object();
    /**
     * The shape index, of the classes a cyclic component made ({@link #addCyclic}) only: a
     * component can only match classes on a cycle of the class graph, and a class made for one
     * acyclic type never is (its children are older classes, and every edge of the class graph
     * goes to an older class or one made with it). Written under {@link #cyclicLock}; read
     * without it as well ({@link ShapeIndex}).
     */
    private ShapeIndex shapes = new ShapeIndex();
    /**
     * The groups of classes each cyclic component made, by their key (a class of the group per
     * key; {@link Partitioner.SccMinimizer#groupKey}): a component whose key no group has
     * matches none. Written and published as {@link #shapes} is.
     */
    private ShapeIndex groups = new ShapeIndex();

    ClassTable(ClassTable parent, WorkGraph graph) {
        this(parent, graph, 64);
    }

    /**
     * @param expected about how many classes the layer will have (its index is sized for that
     *                 many, and grows past it)
     */
    ClassTable(ClassTable parent, WorkGraph graph, int expected) {
        this(parent, graph, expected, null);
    }

    /**
     * ... whose node classes start as {@code nodeClass} (null: all unassigned) — negative for
     * every node, at least as long as the graph ({@link DefinitionSeeds#nodeClasses}).
     */
    ClassTable(ClassTable parent, WorkGraph graph, int expected, int[] nodeClass) {
        fullIndex = new ConcurrentHashIndex(expected);
        this.parent = parent;
        this.first = parent == null ? 1 : parent.classCount();
        this.graph = graph;
        if (nodeClass == null) {
            nodeClass = new int[graph.size()];
            Arrays.fill(nodeClass, NONE);
        }
        this.nodeClass = nodeClass;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Object();
        }
    }

    /**
     * Drops everything but the node-to-class map once the classes are final: the hash indexes
     * and class columns are tens of MB on a link of millions of types. Afterwards only
     * {@link #nodeClass}, {@link #classOfNode} and the class count answer.
     */
    void keepOnlyNodeClasses() {
        repChunks = null;
        keyAtChunks = null;
        keyChunks = null;
        fullIndex = null;
        shapes = null;
        groups = null;
        groupOfClass = null;
        classesOfGroup = null;
    }

    ClassTable parent() {
        return parent;
    }

    /** One past the highest class id of this layer. */
    int classCount() {
        return first + size.get();
    }

    int ownClassCount() {
        return size.get();
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
        int i = c - first;
        return repChunks[i >>> CLASS_SHIFT][i & CLASS_MASK];
    }

    /** Class of a node of this layer's graph, external nodes included. */
    int classOfNode(int id) {
        return id < graph.firstId ? graph.extClassOf(id) : nodeClass[id - graph.firstId];
    }

    /** Class of the {@code i}-th referenced type of class {@code c} (c in this layer). */
    int childClass(int c, int i) {
        int at = keyAt(c);
        return keyChunks[at >>> 18][(at & (KEY_CHUNK - 1)) + 1 + i];
    }

    /**
     * Whether class {@code c} (of this layer, its key written) has exactly the children's
     * classes {@code childClasses} — its key, shape aside.
     */
    boolean hasChildren(int c, int[] childClasses, int n) {
        int at = keyAt(c);
        if (at < 0) {
            return false;
        }
        int[] k = keyChunks[at >>> 18];
        int o = at & (KEY_CHUNK - 1);
        if (k[o] != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (k[o + 1 + i] != childClasses[i]) {
                return false;
            }
        }
        return true;
    }

    private int keyAt(int c) {
        int i = c - first;
        return keyAtChunks[i >>> CLASS_SHIFT][i & CLASS_MASK];
    }

    /**
     * Where a thread writes the keys of the classes it makes: its own chunk of the key column,
     * so that making a class takes no lock but the stripe's. One per thread.
     */
    final class KeyWriter {
        /** The chunk of the class columns this thread last made a class in (see {@link #newClass}). */
        private int classChunk = -1;
        /**
         * Per class of the layer, the member this thread met last (-1: none): the shape a hit is
         * confirmed against. The representative lies wherever its class was first met, far off
         * in memory by now; a member of a unit this thread just read is likely still in the cache
         * (links of units meet each type in many units).
         */
        private int[] near = new int[0];

        int near(int i) {
            return i < near.length ? near[i] : -1;
        }

        void near(int i, int node) {
            if (i >= near.length) {
                int old = near.length;
                near = Arrays.copyOf(near, Math.max(i + 1, Math.max(1024, old * 2)));
                Arrays.fill(near, old, near.length, -1);
            }
            near[i] = node;
        }
        private int chunk = -1;
        private int used = KEY_CHUNK;

        /** Stores {@code n} children's classes; returns where (chunk << 18 | offset). */
        int write(int[] children, int n) {
            if (used + n + 1 > KEY_CHUNK) {
                chunk = newKeyChunk();
                used = 0;
            }
            int[] k = keyChunks[chunk];
            k[used] = n;
            System.arraycopy(children, 0, k, used + 1, n);
            int at = (chunk << 18) | used;
            used += n + 1;
            return at;
        }
    }

    KeyWriter keyWriter() {
        return new KeyWriter();
    }

    private int newKeyChunk() {
        synchronized (chunkLock) {
            return newKeyChunkHolding();
        }
    }

    private int newKeyChunkHolding() {
        int k = keyChunkCount++;
        int[][] dir = keyChunks;
        if (k == dir.length) {
            dir = Arrays.copyOf(dir, dir.length * 2);
        }
        dir[k] = new int[KEY_CHUNK];
        keyChunks = dir; // (published before any class whose key is in it)
        return k;
    }

    /**
     * A new class id represented by {@code repNode}, its key written; not yet findable. The
     * first class a thread makes in a chunk of the columns takes the chunk lock (allocating the
     * chunk if no thread has), so that the chunk's directory entry the thread writes through is
     * one it saw under the lock, and a thread that later finds the class sees it too.
     */
    private int newClass(int repNode, int keyAt, KeyWriter writer) {
        int i = size.getAndIncrement();
        int ch = i >>> CLASS_SHIFT;
        if (writer.classChunk != ch) {
            synchronized (chunkLock) {
                allocateClassChunkHolding(ch);
            }
            writer.classChunk = ch;
        }
        repChunks[ch][i & CLASS_MASK] = repNode;
        keyAtChunks[ch][i & CLASS_MASK] = keyAt;
        return first + i;
    }

    private void allocateClassChunkHolding(int ch) {
        int[][] reps = repChunks;
        int[][] keys = keyAtChunks;
        if (ch >= reps.length) {
            int n = Math.max(reps.length * 2, ch + 1);
            reps = Arrays.copyOf(reps, n);
            keys = Arrays.copyOf(keys, n);
        }
        if (reps[ch] == null) {
            reps[ch] = new int[1 << CLASS_SHIFT];
            keys[ch] = new int[1 << CLASS_SHIFT];
        }
        keyAtChunks = keys;
        repChunks = reps;
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
     * {@code childClasses}, or NONE (possibly a miss of one made at this moment by another
     * thread: {@link #findOrAdd} decides under the lock). {@code writer} (may be null) is the
     * calling thread's, whose nearby members of this layer's classes it compares with.
     */
    int findFull(long h, int[] w, int s, int[] childClasses, int n, KeyWriter writer) {
        int c = findOwn(h, w, s, childClasses, n, writer);
        for (ClassTable t = parent; c == NONE && t != null; t = t.parent) {
            c = t.findOwn(h, w, s, childClasses, n, null);
        }
        return c;
    }

    private int findOwn(long h, int[] w, int s, int[] childClasses, int n, KeyWriter writer) {
        ConcurrentHashIndex idx = fullIndex;
        int at = idx.first(h);
        while (true) {
            long hit = idx.find(h, at);
            if (hit < 0) {
                return NONE;
            }
            int c = (int) hit;
            if (matches(c, w, s, childClasses, n, writer)) {
                return c;
            }
            at = idx.next((int) (hit >>> 32));
        }
    }

    /**
     * The class of an acyclic type: the one whose key it has, or a new one it represents
     * ({@code repNode}), made and indexed under the lock of its hash's stripe so that two
     * threads never make two classes of one key.
     */
    int findOrAdd(long h, int[] w, int s, int repNode, int[] childClasses, int n, KeyWriter keys) {
        int c = findFull(h, w, s, childClasses, n, keys);
        if (c == NONE) {
            makeRoom();
            synchronized (stripes[(int) (h >>> 32) & (STRIPES - 1)]) {
                c = findOwn(h, w, s, childClasses, n, keys);
                if (c == NONE) {
                    c = newClass(repNode, keys.write(childClasses, n), keys);
                    fullIndex.add(h, c);
                }
            }
        }
        if (c >= first) {
            keys.near(c - first, repNode);
        }
        return c;
    }

    /**
     * Adds a class made by a cyclic component (the caller holds {@link #cyclicLock}), indexed
     * by its shape hash now and by its full key with {@link #indexFull} once its children's
     * classes are known.
     */
    int addCyclic(int repNode, long shapeH, KeyWriter keys) {
        int c = newClass(repNode, -1, keys);
        shapes.add(c, shapeH);
        return c;
    }

    /**
     * Ends a component's classes (the caller holds {@link #cyclicLock}): their keys are written
     * and indexed, so matches without the lock may find them from now on.
     */
    void finishCyclic() {
        shapes.publish();
        groups.publish();
    }

    /** Cyclic class to its group (the group's first class), once keyed; written under {@link #cyclicLock}. */
    private it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap groupOfClass = newGroupMap();

    private static it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap newGroupMap() {
        it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap m = new it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap();
        m.defaultReturnValue(-1);
        return m;
    }

    /** Each group's classes, by the group's first class, once keyed; written under {@link #cyclicLock}. */
    private it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap<int[]> classesOfGroup =
            new it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap<>();

    /** The classes of group {@code group} (its first class), under the same conditions as {@link #groupOf}. */
    int[] groupClasses(int group) {
        return layerOf(group).classesOfGroup.get(group);
    }

    /**
     * The group of class {@code c} (-1: not a cyclic component's class), after
     * {@link #ensureKeyed} and under this layer's {@link #cyclicLock} (older layers are no
     * longer written).
     */
    int groupOf(int c) {
        return c <= 0 ? -1 : layerOf(c).groupOfClass.get(c);
    }

    /** The groups of this layer in order of creation (their classes); under {@link #cyclicLock}. */
    private final java.util.ArrayList<int[]> groupList = new java.util.ArrayList<>();
    /**
     * Whether every group of this layer is in {@link #groups}: keys are made only once a
     * component asks for them ({@link #ensureKeyed}), since most dedups never do (a vmlinux's
     * 347 groups took 4-5 ms to key, mostly in the interpreter).
     */
    private volatile boolean keyed;

    /**
     * Records the group of classes a cyclic component made ({@code classes}, the first naming
     * the group; their children's classes known), keyed at once if this layer is keyed (under
     * {@link #cyclicLock}).
     */
    void addGroup(int[] classes) {
        groupList.add(classes);
        if (keyed) {
            index(classes);
        }
    }

    /** Indexes a group: its key, its classes by its first, its classes' group. */
    private void index(int[] classes) {
        int group = classes[0];
        groups.add(group, groupKey(classes));
        classesOfGroup.put(group, classes);
        for (int c : classes) {
            groupOfClass.put(c, group);
        }
    }

    /** Keys every group of this layer and of its parents (the caller holds this layer's {@link #cyclicLock}). */
    void ensureKeyed() {
        if (parent != null && !parent.keyed) {
            // (lock order: a layer, then its parent; a parent is no longer written otherwise)
            synchronized (parent.cyclicLock) {
                parent.ensureKeyed();
            }
        }
        if (!keyed) {
            for (int[] classes : groupList) {
                index(classes);
            }
            groups.publish();
            keyed = true;
        }
    }

    /** Per class of the group being keyed: its position, and its hash this round and the next. */
    private final it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap keyPos = new it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap();
    private long[] keyHash = new long[16];
    private long[] keyNext = new long[16];

    /**
     * {@link Partitioner.SccMinimizer#groupKey} of a group, from its classes: each class is a
     * block, its representative's shape, its children's classes (internal: a class of the
     * group). The same formula on the same graph, so a component equal to the group gets the
     * same key.
     */
    private long groupKey(int[] classes) {
        int colors = classes.length;
        if (keyHash.length < colors) {
            keyHash = new long[Math.max(colors, 2 * keyHash.length)];
            keyNext = new long[keyHash.length];
        }
        keyPos.clear();
        keyPos.defaultReturnValue(-1);
        for (int b = 0; b < colors; b++) {
            keyPos.put(classes[b], b);
        }
        long[] h = keyHash;
        long[] h2 = keyNext;
        for (int b = 0; b < colors; b++) {
            int c = classes[b];
            int node = rep(c);
            long x = Shapes.hash(graph.wordsOf(node), graph.start(node), node);
            int n = graph.childCount(node);
            for (int j = 0; j < n; j++) {
                int cc = childClass(c, j);
                x = Shapes.mix(x + (keyPos.get(cc) >= 0 ? Partitioner.SccMinimizer.KEY_INTERNAL
                        : Partitioner.SccMinimizer.KEY_EXTERNAL * (cc + 1L)));
            }
            h[b] = x;
        }
        for (int r = Partitioner.SccMinimizer.keyRounds(colors); r > 0; r--) {
            for (int b = 0; b < colors; b++) {
                int c = classes[b];
                long x = Shapes.mix(h[b] + Partitioner.SccMinimizer.KEY_ROUND);
                int n = graph.childCount(rep(c));
                for (int j = 0; j < n; j++) {
                    int at = keyPos.get(childClass(c, j));
                    if (at >= 0) {
                        x = Shapes.mix(x + Partitioner.SccMinimizer.KEY_CHILD * h[at]);
                    }
                }
                h2[b] = x;
            }
            long[] t = h;
            h = h2;
            h2 = t;
        }
        return Partitioner.SccMinimizer.keyOf(h, colors);
    }

    /**
     * Number of groups (all layers) whose key is {@code key}; -1 when a caller without
     * {@link #cyclicLock} cannot tell.
     */
    int groupsWithKey(long key, boolean locked) {
        int count = 0;
        for (ClassTable t = this; t != null; t = t.parent) {
            if (!t.keyed) {
                return -1; // a caller without the lock; with it, ensureKeyed came first
            }
            int n = t.groups.count(key, locked);
            if (n < 0) {
                return -1;
            }
            count += n;
        }
        return count;
    }

    /** Records the children's classes of cyclic component class {@code c} and indexes its full key. */
    void indexFull(int c, long h, int[] children, int n, KeyWriter keys) {
        int i = c - first;
        keyAtChunks[i >>> CLASS_SHIFT][i & CLASS_MASK] = keys.write(children, n);
        makeRoom();
        synchronized (stripes[(int) (h >>> 32) & (STRIPES - 1)]) {
            fullIndex.add(h, c);
        }
    }

    /**
     * Grows the index when it is half full, before an insert and while no stripe's lock is held:
     * the grower takes every stripe's lock, in order, so that no insert runs while it copies
     * (between this check and the insert another thread may add one entry of its own: the index
     * keeps room for that).
     */
    private void makeRoom() {
        if (!fullIndex.needsRoom()) {
            return;
        }
        synchronized (growLock) {
            ConcurrentHashIndex old = fullIndex;
            if (old.needsRoom()) {
                growHolding(0, old);
            }
        }
    }

    private void growHolding(int stripe, ConcurrentHashIndex old) {
        if (stripe == STRIPES) {
            fullIndex = old.grown();
            return;
        }
        synchronized (stripes[stripe]) {
            growHolding(stripe + 1, old);
        }
    }

    private boolean matches(int c, int[] w, int s, int[] childClasses, int n, KeyWriter writer) {
        if (!hasChildren(c, childClasses, n)) {
            return false;
        }
        int r = writer == null ? -1 : writer.near(c - first);
        if (r < 0) {
            r = rep(c);
        }
        return Shapes.equal(w, s, graph.wordsOf(r), graph.start(r));
    }

    /**
     * Number of cyclic components' classes (all layers) whose shape hash is {@code h}; -1 when
     * a caller without {@link #cyclicLock} ({@code locked} false) cannot tell.
     */
    int shapeCandidates(long h, boolean locked) {
        int count = 0;
        for (ClassTable t = this; t != null; t = t.parent) {
            int n = t.shapes.count(h, locked);
            if (n < 0) {
                return -1;
            }
            count += n;
        }
        return count;
    }

    /**
     * Fills {@code out} with the cyclic components' classes whose shape hash is {@code h};
     * returns how many there are (-1: a caller without the lock cannot tell).
     */
    int shapeCandidates(long h, boolean locked, int[] out) {
        int count = 0;
        for (ClassTable t = this; t != null; t = t.parent) {
            int n = t.shapes.candidates(h, locked, out, count);
            if (n < 0) {
                return -1;
            }
            count += n;
        }
        return count;
    }

    /** Words and start of the representative of class {@code c}, for shape comparison. */
    int[] repWords(int c) {
        ClassTable t = layerOf(c);
        return t.graph.wordsOf(t.rep(c));
    }

    int repStart(int c) {
        ClassTable t = layerOf(c);
        return t.graph.start(t.rep(c));
    }
}
