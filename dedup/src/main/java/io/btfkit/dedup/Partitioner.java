package io.btfkit.dedup;

import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.Arrays;

/**
 * Assigns every own node of a graph to its equivalence class — the coarsest bisimulation:
 * two types are equivalent when their shapes are equal and their referenced types are
 * equivalent position by position, cycles included.
 *
 * <p>Components are taken leaves first ({@link SccFinder}), so all types a component references
 * outside itself are already classified, and the classes found so far always form a minimal
 * graph (no two classes are equivalent). Then:
 * <ul>
 *   <li>an acyclic type is hash-consed: its key is its shape plus its children's classes; an
 *       equal key is the same class, no equal key means a new class;</li>
 *   <li>a cyclic component either maps entirely onto existing classes or not at all (every
 *       member is reachable from every other, and equivalence propagates along references).
 *       It is matched from one member against each existing class of the same shape by a
 *       side-by-side walk that pairs each member with the class its position forces (the class
 *       graph is minimal and references are ordered, so the pairing is a function); a
 *       contradiction rejects the candidate. If no candidate fits, the component is new: it is
 *       minimised on its own (Moore partition refinement with its external references fixed)
 *       and each block becomes a new class.</li>
 * </ul>
 * Because the class graph stays minimal, this yields the exact coarsest equivalence, each node
 * processed about once.
 */
final class Partitioner {
    private static final int NONE = -1;

    private final WorkGraph g;
    private final ClassTable table;
    /** Where this thread writes the keys of the classes it makes. */
    private final ClassTable.KeyWriter keys;
    private final int[] cls;
    private final int first;

    private int[] childBuf = new int[64];
    private int[] scratch;
    private final IntArrayList work = new IntArrayList();
    private final IntArrayList touched = new IntArrayList();
    private int[] candidates = new int[16];
    /** A component's members while it is matched or minimised (the search's stack moves on). */
    private int[] memberBuf = new int[16];
    /** Their definition classes, read before they are classified ({@link DefinitionSeeds}). */
    private int[] defBuf = new int[0];
    private final SccMinimizer minimizer;
    /** The classes to try first (null: none), {@link DefinitionSeeds}. */
    private final DefinitionSeeds seeds;

    /**
     * @param table the layer being built (its graph is {@code g}); its parent holds the classes
     *              of external nodes
     */
    Partitioner(ClassTable table) {
        this(table, null);
    }

    /** ... trying first for each node the class {@code seeds} guesses (null: none). */
    Partitioner(ClassTable table, DefinitionSeeds seeds) {
        this.seeds = seeds;
        this.g = table.graph;
        this.table = table;
        this.keys = table.keyWriter();
        this.cls = table.nodeClass;
        this.first = g.firstId;
        this.minimizer = new SccMinimizer(this);
    }

    /** Classifies every own node; afterwards {@code table.nodeClass} is complete. */
    void run() {
        SccFinder.run(g, this::component);
    }

    /** Classifies the own nodes reachable from {@code roots} (own-node indexes); others stay unclassified. */
    void run(java.util.BitSet roots) {
        SccFinder.run(g, this::component, roots);
    }

    /** {@link #run(java.util.BitSet)} within {@code scope}, searching with {@code rindex} ({@link SccFinder}). */
    void run(java.util.BitSet roots, SccFinder.Scope scope, int[] rindex) {
        SccFinder.run(g, this::component, roots, scope, rindex);
    }

    private int classOf(int id) {
        return id < first ? g.extClassOf(id) : cls[id - first];
    }

    private void component(int[] members, int from, int to, int[] free) {
        // per-member scratch (pairings, positions): NONE between uses
        scratch = free;
        for (int i = from; i < to; i++) {
            scratch[members[i]] = NONE;
        }
        if (to - from == 1) {
            int node = members[from] + first;
            int n = readChildren(node);
            if (!selfLoop(node, n)) {
                acyclic(node, n);
                return;
            }
        }
        int k = to - from;
        if (memberBuf.length < k) {
            memberBuf = new int[Math.max(k, 2 * memberBuf.length)];
        }
        System.arraycopy(members, from, memberBuf, 0, k);
        cyclic(memberBuf, k);
    }

    /** Reads {@code node}'s children into {@link #childBuf}; returns how many. */
    private int readChildren(int node) {
        int s = g.realStart(node);
        if (s < 0) {
            return 0;
        }
        int info = g.realWords()[s + 1];
        int kind = Kind.kindOf(info);
        int n = TypeRefs.typeIdCountOf(kind, Kind.vlenOf(info));
        if (childBuf.length < n) {
            childBuf = new int[Math.max(n, childBuf.length * 2)];
        }
        int[] buf = childBuf;
        for (int i = 0, slot = s + TypeRefs.firstTypeIdOffset(kind), stride = TypeRefs.typeIdStrideOf(kind); i < n;
                i++, slot += stride) {
            buf[i] = g.ref(slot);
        }
        return n;
    }

    private boolean selfLoop(int node, int n) {
        for (int i = 0; i < n; i++) {
            if (childBuf[i] == node) {
                return true;
            }
        }
        return false;
    }

    // --- acyclic types: hash-consing ---

    /** Classifies {@code node}, whose {@code n} children are in {@link #childBuf}. */
    private void acyclic(int node, int n) {
        int s = g.start(node);
        for (int i = 0; i < n; i++) {
            childBuf[i] = classOf(childBuf[i]);
        }
        int d = seeds == null ? NONE : DefinitionSeeds.definition(cls[node - first]);
        if (d >= 0) {
            int c = seeds.guess(d);
            // (the guess's shape is the node's: DefinitionSeeds)
            if (c >= 0 && table.layerOf(c).hasChildren(c, childBuf, n)) {
                assert Shapes.equal(g.wordsOf(node), s, table.repWords(c), table.repStart(c));
                cls[node - first] = c;
                return;
            }
        }
        long shapeH = Shapes.hash(g.wordsOf(node), s, node);
        long h = ClassTable.fullHash(shapeH, childBuf, n);
        int c = table.findOrAdd(h, g.wordsOf(node), s, node, childBuf, n, keys);
        cls[node - first] = c;
        if (d >= 0) {
            seeds.record(d, c);
        }
    }

    // --- cyclic components: match against existing classes, else minimise ---

    /**
     * Matches a component against the classes of finished components without the lock (the
     * common case in a link: most components were met in another unit), else matches and makes
     * classes under it, one component at a time among all threads sharing the table: a match
     * seen without the lock is the class the component would get under it (the class graph is
     * minimal, so a member has one equivalent class at most), and only a miss is decided again.
     */
    private void cyclic(int[] members, int k) {
        minimizer.forget();
        int guess = NONE;
        if (seeds != null) {
            if (defBuf.length < k) {
                defBuf = new int[memberBuf.length];
            }
            for (int i = 0; i < k; i++) {
                defBuf[i] = DefinitionSeeds.definition(cls[members[i]]);
            }
            guess = seeds.guess(defBuf[0]);
        }
        // (a component maps onto existing classes whole or not at all: one member's guess decides)
        if (!(guess >= 0 && tryMatch(members[0] + first, guess, k)) && !match(members, k, false)) {
            synchronized (table.cyclicLock) {
                if (!match(members, k, true)) {
                    minimizer.minimize(members, k);
                }
                table.finishCyclic();
            }
        }
        if (seeds != null) {
            for (int i = 0; i < k; i++) {
                seeds.record(defBuf[i], cls[members[i]]);
            }
        }
    }

    /**
     * Candidates from which a component is first checked against the keys of the groups of
     * classes ({@link SccMinimizer#groupKey}) rather than walked against each: many distinct
     * rings of one shape (1,000 rings of 100 structs named s or t) made every new ring walk
     * against every class of its root's shape, R squared times in all. Below this, the walks
     * are cheaper than refining the component first. (-Dbtfkit.dedup.keyedFrom=N; tests set it
     * to 0 or to never.)
     */
    static int KEYED_FROM = Integer.getInteger("btfkit.dedup.keyedFrom", 64);

    /**
     * Tries the classes of the shape of the member with the fewest, from that member; false
     * when none fits, or when a caller without the lock cannot see them all.
     */
    private boolean match(int[] members, int k, boolean locked) {
        int root = NONE;
        int best = Integer.MAX_VALUE;
        long rootShape = 0;
        for (int mi = 0; mi < k; mi++) {
            int node = members[mi] + first;
            long sh = Shapes.hash(g.wordsOf(node), g.start(node), node);
            int count = table.shapeCandidates(sh, locked);
            if (count <= 0) {
                return false;
            }
            if (count < best) {
                best = count;
                root = node;
                rootShape = sh;
            }
        }
        int only = 0;
        if (best >= KEYED_FROM) {
            if (locked) {
                table.ensureKeyed();
            }
            int groups = table.groupsWithKey(minimizer.groupKey(members, k), locked);
            if (groups < 0) {
                return false; // a caller without the lock cannot tell, and decides again under it
            }
            if (groups == 0) {
                // no group has the component's key: only the groups it refers to outside itself
                // may still hold its classes (SccMinimizer#groupKey), whose classes' groups are
                // read under the lock
                if (!locked) {
                    return false;
                }
                only = outsideGroups(members, k);
                if (only == 0) {
                    return false;
                }
            }
        }
        if (only > 0) {
            // the classes of those groups, or the candidates of the root's shape that are among
            // them: whichever list is shorter
            long size = 0;
            for (int i = 0; i < only; i++) {
                size += table.groupClasses(groupBuf[i]).length;
            }
            if (size < best) {
                for (int i = 0; i < only; i++) {
                    for (int c : table.groupClasses(groupBuf[i])) {
                        if (tryMatch(root, c, k)) {
                            return true;
                        }
                    }
                }
                return false;
            }
        }
        if (candidates.length < best) {
            candidates = new int[best];
        }
        int n = Math.min(table.shapeCandidates(rootShape, locked, candidates), candidates.length);
        for (int i = 0; i < n; i++) {
            if ((only == 0 || inOutsideGroups(table.groupOf(candidates[i]), only)) && tryMatch(root, candidates[i], k)) {
                return true;
            }
        }
        return false;
    }

    /** The groups of cyclic classes the component refers to outside itself ({@link #outsideGroups}). */
    private int[] groupBuf = new int[8];

    /**
     * Collects in {@link #groupBuf} the groups (ClassTable#groupOf) of the cyclic classes the
     * component's members refer to outside it; returns how many (the caller holds the lock).
     */
    private int outsideGroups(int[] members, int k) {
        int count = 0;
        for (int mi = 0; mi < k; mi++) {
            int node = members[mi] + first;
            int n = g.childCount(node);
            for (int i = 0; i < n; i++) {
                int ch = g.child(node, i);
                if (ch != 0 && (ch < first || cls[ch - first] >= 0)) {
                    int group = table.groupOf(classOf(ch));
                    if (group >= 0 && !inOutsideGroups(group, count)) {
                        if (count == groupBuf.length) {
                            groupBuf = Arrays.copyOf(groupBuf, 2 * count);
                        }
                        groupBuf[count++] = group;
                    }
                }
            }
        }
        return count;
    }

    private boolean inOutsideGroups(int group, int count) {
        for (int i = 0; i < count; i++) {
            if (groupBuf[i] == group) {
                return true;
            }
        }
        return false;
    }

    /**
     * Pairs {@code root} with class {@code c} and follows references side by side; succeeds
     * when every member of the component gets a class without contradiction.
     */
    private boolean tryMatch(int root, int c, int memberCount) {
        touched.clear();
        work.clear();
        scratch[root - first] = c;
        touched.add(root - first);
        work.add(root);
        boolean ok = true;
        while (ok && !work.isEmpty()) {
            int y = work.popInt();
            int d = scratch[y - first];
            ClassTable layer = table.layerOf(d);
            int ys = g.start(y);
            if (!Shapes.equal(g.wordsOf(y), ys, table.repWords(d), table.repStart(d))) {
                ok = false;
                break;
            }
            int n = g.childCount(y);
            for (int i = 0; i < n; i++) {
                int cy = g.child(y, i);
                int cd = layer.childClass(d, i);
                if (cy < first || cls[cy - first] >= 0) {
                    if (classOf(cy) != cd) {
                        ok = false;
                        break;
                    }
                    continue;
                }
                int k = cy - first;
                if (cd == 0) {
                    // the class refers to void where a member of the component stands (e.g. a
                    // CONST cycle against a CONST of void): a member is never void
                    ok = false;
                    break;
                }
                if (scratch[k] == NONE) {
                    scratch[k] = cd;
                    touched.add(k);
                    work.add(cy);
                } else if (scratch[k] != cd) {
                    ok = false;
                    break;
                }
            }
        }
        ok = ok && touched.size() == memberCount;
        for (int i = 0; i < touched.size(); i++) {
            int k = touched.getInt(i);
            if (ok) {
                cls[k] = scratch[k];
            }
            scratch[k] = NONE;
        }
        return ok;
    }

    /** References {@link BlockRefinement} has scanned in this partitioner's components (tests bound it). */
    long refinementWork() {
        return minimizer.hopcroft.scanned;
    }

    /** Whether own node {@code ch} is a member of the component being minimised ({@code pos} set). */
    boolean internal(int ch, int[] pos) {
        return ch >= first && pos[ch - first] != NONE && cls[ch - first] < 0;
    }

    /**
     * Moore partition refinement of one new cyclic component: blocks start as (shape, external
     * references, which references are internal) and split by the blocks of internal
     * references until stable. Each final block becomes a class.
     */
    static final class SccMinimizer {
        private final Partitioner p;
        /** Per member: its block, the next round's block; per block: chain, first member, class, shape. */
        private int[] color = new int[16];
        private int[] next = new int[16];
        private int[] chain = new int[16];
        private int[] repOf = new int[16];
        private int[] blockClass = new int[16];
        private long[] blockShape = new long[16];
        /** Block keys (hash -> first block of that hash), reused: a link minimises a million components of two. */
        private long[] keys = new long[16];
        private int[] heads = new int[16];
        private int mask;
        /** Per block, for {@link #groupKey}: its hash this round and the next, its first member's node. */
        private long[] blockHash = new long[16];
        private long[] nextHash = new long[16];
        private int[] blockRep = new int[16];

        SccMinimizer(Partitioner p) {
            this.p = p;
            this.hopcroft = new BlockRefinement(p, p.g, p.first);
        }

        /**
         * Components of this many members or more are refined by {@link BlockRefinement}: a
         * round of Moore's refinement walks every member, and a ring of n structs in which one
         * differs takes n/2 rounds (a ring of 20,000 took 62 s to dedup). Smaller ones, millions
         * of them in a link and most of two members, take Moore's few rounds.
         * (-Dbtfkit.dedup.hopcroftFrom=N; tests set it to run every component through either.)
         */
        static int hopcroftFrom = Integer.getInteger("btfkit.dedup.hopcroftFrom", 64);

        private final BlockRefinement hopcroft;

        private void reserve(int k) {
            if (color.length < k) {
                int n = Math.max(k, 2 * color.length);
                color = new int[n];
                next = new int[n];
                chain = new int[n];
                repOf = new int[n];
                blockClass = new int[n];
                blockShape = new long[n];
            }
        }

        /** Empties the block keys for a component of {@code k} members. */
        private void resetKeys(int k) {
            int cap = Math.max(16, Integer.highestOneBit(Math.max(1, 2 * k - 1)) << 1);
            if (keys.length < cap) {
                keys = new long[cap];
                heads = new int[cap];
            }
            mask = cap - 1;
            Arrays.fill(heads, 0, cap, NONE);
        }

        /** The first block of hash {@code h} (NONE if none), made {@code block} from now on. */
        private int putHead(long h, int block) {
            int i = (int) (h ^ (h >>> 32)) & mask;
            while (heads[i] != NONE && keys[i] != h) {
                i = (i + 1) & mask;
            }
            int old = heads[i];
            keys[i] = h;
            heads[i] = block;
            return old;
        }

        private int head(long h) {
            int i = (int) (h ^ (h >>> 32)) & mask;
            while (heads[i] != NONE) {
                if (keys[i] == h) {
                    return heads[i];
                }
                i = (i + 1) & mask;
            }
            return NONE;
        }

        /** The component's blocks after refinement ({@link #refined}), NONE until refined. */
        private int refinedColors = NONE;
        /** A new component is being taken: the blocks refined for the last one are not its. */
        void forget() {
            refinedColors = NONE;
        }

        /**
         * Refines the component (its members' {@code pos} set) to its coarsest stable
         * partition; returns the number of blocks, each member's in {@link #color}. Refined
         * once per component: a keyed match may have done it before {@link #minimize}.
         */
        private int refined(int[] members, int k, int[] pos) {
            if (refinedColors != NONE) {
                return refinedColors;
            }
            reserve(k);
            int colors = initialColors(members, k, pos, color);
            if (k >= hopcroftFrom) {
                colors = hopcroft.refine(members, k, pos, color, colors);
            } else {
                while (true) {
                    int c2 = refine(members, k, pos, color, next);
                    int[] t = color;
                    color = next;
                    next = t;
                    if (c2 == colors) {
                        break;
                    }
                    colors = c2;
                }
            }
            refinedColors = colors;
            return colors;
        }

        /**
         * Rounds of {@link #groupKey} (at most one per block: the same for a component and a
         * group that match). Each round reaches one reference further: on rings of structs
         * through PTRs, 16 rounds compare windows of 9 names (with 4 rounds, windows of 3, one
         * new ring in 8 of 1,000 random ones met a group of its key and was walked as before).
         */
        private static final int KEY_ROUNDS = 16;
        /**
         * Groups of this many blocks or more are keyed by their blocks' own hashes (shape,
         * external classes, which references are internal), without rounds: a vmlinux's one
         * component of 3,536 structs took 1-2.7 ms in 4 rounds, 0.3 ms in none (its whole
         * partition takes 45 ms), and few groups are that large.
         */
        private static final int KEY_LARGE = 1024;
        /** The key's constants, shared with {@link ClassTable}'s keys of groups. */
        static final long KEY_INTERNAL = 0x7FEB352DL;
        static final long KEY_EXTERNAL = 0x846CA68BL;
        static final long KEY_ROUND = 0x632BE59BD9B4E019L;
        static final long KEY_CHILD = 0x9E3779B97F4A7C15L;

        /** Rounds of the key of a group or component of {@code blocks} blocks. */
        static int keyRounds(int blocks) {
            return blocks >= KEY_LARGE ? 0 : Math.min(KEY_ROUNDS, blocks);
        }

        /** The key from the blocks' hashes after the rounds. */
        static long keyOf(long[] h, int blocks) {
            long sum = 0;
            for (int b = 0; b < blocks; b++) {
                sum += Shapes.mix(h[b]);
            }
            return Shapes.mix(sum + 0xD6E8FEB86659FD93L * blocks);
        }

        /**
         * A key of the component's minimal quotient that does not depend on where one enters
         * it: the number of blocks and the multiset of each block's hash after
         * {@link #KEY_ROUNDS} rounds (shape, external classes, then the hashes of internal
         * references in order).
         *
         * <p>What it rules out: let a member be equivalent to class X of group B (the classes
         * one component made; every cycle of the class graph through X lies in B, since
         * classes only refer to older ones or to their own group's). A reference the
         * component keeps inside itself corresponds to a reference of B's classes inside B. A
         * reference outside the component, to class Z, corresponds to the same Z — inside B
         * when Z is one of B's classes, outside it otherwise. So unless the component refers
         * outside itself to a class of B, its blocks correspond one to one to B's classes with
         * equal hashes, and B's key, made the same way when B's component was minimised, is
         * the component's. A component whose key no group has can therefore only match a group
         * it refers to from outside ({@link Partitioner#outsideGroups}): a struct pointing to
         * itself through a new PTR and through the PTR of an older equal struct is that struct,
         * yet its component has one internal reference where the group has two. Rings that
         * differ only in length differ in their number of blocks.
         */
        long groupKey(int[] members, int k) {
            int[] pos = p.scratch;
            for (int i = 0; i < k; i++) {
                pos[members[i]] = i;
            }
            long key = groupKey(members, k, pos, refined(members, k, pos));
            for (int i = 0; i < k; i++) {
                pos[members[i]] = NONE;
            }
            return key;
        }

        private long groupKey(int[] members, int k, int[] pos, int colors) {
            WorkGraph g = p.g;
            int first = p.first;
            if (blockHash.length < colors) {
                blockHash = new long[Math.max(colors, 2 * blockHash.length)];
                nextHash = new long[blockHash.length];
                blockRep = new int[blockHash.length];
            }
            Arrays.fill(blockRep, 0, colors, NONE);
            for (int i = 0; i < k; i++) {
                if (blockRep[color[i]] == NONE) {
                    blockRep[color[i]] = members[i] + first;
                }
            }
            long[] h = blockHash;
            long[] h2 = nextHash;
            for (int b = 0; b < colors; b++) {
                int node = blockRep[b];
                long x = Shapes.hash(g.wordsOf(node), g.start(node), node);
                int n = g.childCount(node);
                for (int j = 0; j < n; j++) {
                    int ch = g.child(node, j);
                    x = Shapes.mix(x + (p.internal(ch, pos) ? KEY_INTERNAL : KEY_EXTERNAL * (p.classOf(ch) + 1L)));
                }
                h[b] = x;
            }
            for (int r = keyRounds(colors); r > 0; r--) {
                for (int b = 0; b < colors; b++) {
                    int node = blockRep[b];
                    long x = Shapes.mix(h[b] + KEY_ROUND);
                    int n = g.childCount(node);
                    for (int j = 0; j < n; j++) {
                        int ch = g.child(node, j);
                        if (p.internal(ch, pos)) {
                            x = Shapes.mix(x + KEY_CHILD * h[color[pos[ch - first]]]);
                        }
                    }
                    h2[b] = x;
                }
                long[] t = h;
                h = h2;
                h2 = t;
            }
            return keyOf(h, colors);
        }

        void minimize(int[] members, int k) {
            WorkGraph g = p.g;
            int first = p.first;
            int[] pos = p.scratch;
            for (int i = 0; i < k; i++) {
                pos[members[i]] = i;
            }
            int colors = refined(members, k, pos);
            // one class per block; representative = first member of the block
            Arrays.fill(blockClass, 0, colors, NONE);
            ClassTable table = p.table;
            for (int i = 0; i < k; i++) {
                int node = members[i] + first;
                int b = color[i];
                if (blockClass[b] == NONE) {
                    blockShape[b] = Shapes.hash(g.wordsOf(node), g.start(node), node);
                    blockClass[b] = table.addCyclic(node, blockShape[b], p.keys);
                }
                p.cls[members[i]] = blockClass[b];
            }

            for (int b = 0; b < colors; b++) {
                int c = blockClass[b];
                int rep = table.rep(c);
                int n = g.childCount(rep);
                if (p.childBuf.length < n) {
                    p.childBuf = new int[Math.max(n, p.childBuf.length * 2)];
                }
                for (int i = 0; i < n; i++) {
                    p.childBuf[i] = p.classOf(g.child(rep, i));
                }
                table.indexFull(c, ClassTable.fullHash(blockShape[b], p.childBuf, n), p.childBuf, n, p.keys);
            }
            table.addGroup(Arrays.copyOf(blockClass, colors));
            for (int i = 0; i < k; i++) {
                pos[members[i]] = NONE;
            }
        }

        /** Round 0: (shape, classes of external references, positions of internal ones). */
        private int initialColors(int[] members, int k, int[] pos, int[] color) {
            WorkGraph g = p.g;
            int first = p.first;
            resetKeys(k);
            int colors = 0;
            for (int i = 0; i < k; i++) {
                int node = members[i] + first;
                long h = Shapes.hash(g.wordsOf(node), g.start(node), node);
                int n = g.childCount(node);
                for (int j = 0; j < n; j++) {
                    int ch = g.child(node, j);
                    boolean internal = ch >= first && pos[ch - first] != NONE && p.cls[ch - first] < 0;
                    h = Shapes.mix(h + (internal ? 0x7FEB352DL : 0x846CA68BL * (p.classOf(ch) + 1L)));
                }
                int found = NONE;
                for (int c = head(h); c != NONE; c = chain[c]) {
                    if (sameInitial(members[repOf[c]] + first, node, pos)) {
                        found = c;
                        break;
                    }
                }
                if (found == NONE) {
                    found = colors++;
                    repOf[found] = i;
                    chain[found] = putHead(h, found);
                }
                color[i] = found;
            }
            return colors;
        }

        private boolean sameInitial(int a, int b, int[] pos) {
            WorkGraph g = p.g;
            int first = p.first;
            if (!Shapes.equal(g.wordsOf(a), g.start(a), g.wordsOf(b), g.start(b))) {
                return false;
            }
            int n = g.childCount(a);
            for (int j = 0; j < n; j++) {
                int ca = g.child(a, j);
                int cb = g.child(b, j);
                boolean ia = ca >= first && pos[ca - first] != NONE && p.cls[ca - first] < 0;
                boolean ib = cb >= first && pos[cb - first] != NONE && p.cls[cb - first] < 0;
                if (ia != ib || (!ia && p.classOf(ca) != p.classOf(cb))) {
                    return false;
                }
            }
            return true;
        }

        /** One round: new block = (old block, old blocks of internal references in order). */
        private int refine(int[] members, int k, int[] pos, int[] color, int[] next) {
            WorkGraph g = p.g;
            int first = p.first;
            resetKeys(k);
            int colors = 0;
            for (int i = 0; i < k; i++) {
                int node = members[i] + first;
                long h = Shapes.mix(0x2545F4914F6CDD1DL + color[i]);
                int n = g.childCount(node);
                for (int j = 0; j < n; j++) {
                    int ch = g.child(node, j);
                    if (ch >= first && pos[ch - first] != NONE && p.cls[ch - first] < 0) {
                        h = Shapes.mix(h + 0x9E3779B97F4A7C15L * (color[pos[ch - first]] + 1L));
                    }
                }
                int found = NONE;
                for (int c = head(h); c != NONE; c = chain[c]) {
                    if (sameRound(repOf[c], i, members, pos, color)) {
                        found = c;
                        break;
                    }
                }
                if (found == NONE) {
                    found = colors++;
                    repOf[found] = i;
                    chain[found] = putHead(h, found);
                }
                next[i] = found;
            }
            return colors;
        }

        private boolean sameRound(int a, int b, int[] members, int[] pos, int[] color) {
            if (color[a] != color[b]) {
                return false;
            }
            WorkGraph g = p.g;
            int first = p.first;
            int na = members[a] + first;
            int nb = members[b] + first;
            int n = g.childCount(na);
            for (int j = 0; j < n; j++) {
                int ca = g.child(na, j);
                int cb = g.child(nb, j);
                if (ca >= first && pos[ca - first] != NONE && p.cls[ca - first] < 0) {
                    if (color[pos[ca - first]] != color[pos[cb - first]]) {
                        return false;
                    }
                }
            }
            return true;
        }
    }
}
