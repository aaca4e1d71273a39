package io.btfkit.dedup;

import java.util.Arrays;

/**
 * The coarsest refinement of a cyclic component's initial blocks in which members of one block
 * have, at each reference position, members of one block (Hopcroft's algorithm, in Valmari's
 * form of a refinable partition): a block is a <em>splitter</em>; the members referencing one of
 * its members at position j are marked, and every block holding marked and unmarked members is
 * cut in two, the smaller half becoming a splitter in turn. Each member is in at most log n
 * splitters, so the work is O(m log n) for m internal references — where Moore's rounds, which
 * walk every member each time, take n/2 of them on a ring of n structs in which one differs.
 *
 * <p>Every initial block starts as a splitter (the references are partial: a block may have a
 * position no other block has, so the usual "all but the largest" does not hold). The result
 * is numbered as Moore's would be — blocks in the order of their first member — so the classes
 * made from it are the same, in the same order.
 */
final class BlockRefinement {
    private final Partitioner p;
    private final WorkGraph g;
    private final int first;

    /** Per member: its internal references' sources, by target (CSR), and their positions. */
    private int[] inStart = new int[16];
    private int[] inFrom = new int[16];
    private int[] inPosition = new int[16];
    /** The partition: members ordered by block, each member's index there, each block's range. */
    private int[] elems = new int[16];
    private int[] where = new int[16];
    private int[] blockStart = new int[16];
    private int[] blockSize = new int[16];
    /** Per block: how many of its members are marked (at the front of its range). */
    private int[] marked = new int[16];
    private int[] touched = new int[16];
    private int[] work = new int[16];
    private boolean[] inWork = new boolean[16];
    /** A splitter's incoming references: position << 32 | source member (first, the references as met). */
    private long[] pairs = new long[16];
    private int[] metPosition = new int[16];
    /** Incoming references of every splitter so far: the work, O(m log n) (tests bound it). */
    long scanned;

    BlockRefinement(Partitioner p, WorkGraph g, int first) {
        this.p = p;
        this.g = g;
        this.first = first;
    }

    /**
     * Refines {@code color} (per member index, blocks {@code 0..colors-1}) of the component
     * {@code members[0..k)} ({@code pos}: member index of each own node in it); returns the
     * number of blocks, {@code color} renumbered in the order of first members.
     */
    int refine(int[] members, int k, int[] pos, int[] color, int colors) {
        int m = reverseReferences(members, k, pos);
        reserveBlocks(k);
        // blocks' ranges by counting
        Arrays.fill(blockSize, 0, k, 0);
        for (int i = 0; i < k; i++) {
            blockSize[color[i]]++;
        }
        for (int b = 0, at = 0; b < colors; b++) {
            blockStart[b] = at;
            at += blockSize[b];
            marked[b] = 0;
        }
        int[] fill = touched; // (free until the splitting starts)
        System.arraycopy(blockStart, 0, fill, 0, colors);
        for (int i = 0; i < k; i++) {
            int at = fill[color[i]]++;
            elems[at] = i;
            where[i] = at;
        }
        int top = 0;
        for (int b = 0; b < colors; b++) {
            work[top++] = b;
            inWork[b] = true;
        }
        while (top > 0) {
            int splitter = work[--top];
            inWork[splitter] = false;
            // its members' incoming references, by position (a snapshot: the splitter may split)
            int n = 0;
            for (int e = blockStart[splitter], end = e + blockSize[splitter]; e < end; e++) {
                int v = elems[e];
                for (int r = inStart[v]; r < inStart[v + 1]; r++) {
                    pairs[n++] = (long) inPosition[r] << 32 | inFrom[r];
                }
            }
            scanned += n;
            Arrays.sort(pairs, 0, n);
            for (int from = 0; from < n; ) {
                int to = from;
                long position = pairs[from] >>> 32;
                int t = 0;
                while (to < n && pairs[to] >>> 32 == position) {
                    t = mark((int) pairs[to], color, t);
                    to++;
                }
                for (int i = 0; i < t; i++) {
                    int b = touched[i];
                    if (marked[b] < blockSize[b]) {
                        colors = split(b, colors, color);
                        if (!inWork[colors - 1]) {
                            work[top++] = colors - 1;
                            inWork[colors - 1] = true;
                        }
                    }
                    marked[b] = 0;
                }
                from = to;
            }
        }
        return renumber(color, k, colors);
    }

    /** Marks member {@code u} in its block; returns the touched blocks' count. */
    private int mark(int u, int[] color, int t) {
        int b = color[u];
        int i = where[u];
        int j = blockStart[b] + marked[b];
        if (i < j) {
            return t; // (already marked)
        }
        int w = elems[j];
        elems[j] = u;
        where[u] = j;
        elems[i] = w;
        where[w] = i;
        if (marked[b]++ == 0) {
            touched[t++] = b;
        }
        return t;
    }

    /** Cuts block {@code b} into its marked and unmarked members; the smaller part becomes block {@code colors}. */
    private int split(int b, int colors, int[] color) {
        int nb = colors;
        int start = blockStart[b];
        int size = blockSize[b];
        int mk = marked[b];
        if (mk <= size - mk) {
            blockStart[nb] = start;
            blockSize[nb] = mk;
            blockStart[b] = start + mk;
            blockSize[b] = size - mk;
        } else {
            blockStart[nb] = start + mk;
            blockSize[nb] = size - mk;
            blockSize[b] = mk;
        }
        for (int e = blockStart[nb], end = e + blockSize[nb]; e < end; e++) {
            color[elems[e]] = nb;
        }
        marked[nb] = 0;
        inWork[nb] = false;
        return colors + 1;
    }

    /** Blocks numbered in the order of their first member (as Moore's rounds number them). */
    private int renumber(int[] color, int k, int colors) {
        int[] id = touched;
        Arrays.fill(id, 0, colors, -1);
        int next = 0;
        for (int i = 0; i < k; i++) {
            int b = color[i];
            if (id[b] < 0) {
                id[b] = next++;
            }
            color[i] = id[b];
        }
        return next;
    }

    /** Fills the reverse references; returns their count. */
    private int reverseReferences(int[] members, int k, int[] pos) {
        if (inStart.length < k + 1) {
            inStart = new int[Math.max(k + 1, 2 * inStart.length)];
        }
        Arrays.fill(inStart, 0, k + 1, 0);
        // the references as met (source << 32 | target, and their positions), counted by target
        int m = 0;
        for (int i = 0; i < k; i++) {
            int node = members[i] + first;
            int n = g.childCount(node);
            for (int j = 0; j < n; j++) {
                int ch = g.child(node, j);
                if (p.internal(ch, pos)) {
                    if (m == pairs.length) {
                        pairs = Arrays.copyOf(pairs, 2 * m);
                        metPosition = Arrays.copyOf(metPosition, 2 * m);
                    }
                    int target = pos[ch - first];
                    pairs[m] = (long) i << 32 | target;
                    metPosition[m++] = j;
                    inStart[target + 1]++;
                }
            }
        }
        for (int i = 0; i < k; i++) {
            inStart[i + 1] += inStart[i];
        }
        // then by target (a counting sort)
        if (inFrom.length < m) {
            inFrom = new int[Math.max(m, 2 * inFrom.length)];
            inPosition = new int[inFrom.length];
        }
        if (where.length < k) {
            where = new int[Math.max(k, 2 * where.length)];
        }
        int[] cursor = where; // (free until the partition is laid out)
        System.arraycopy(inStart, 0, cursor, 0, k);
        for (int e = 0; e < m; e++) {
            int r = cursor[(int) pairs[e]]++;
            inFrom[r] = (int) (pairs[e] >>> 32);
            inPosition[r] = metPosition[e];
        }
        return m;
    }

    private void reserveBlocks(int k) {
        if (elems.length < k) {
            int n = Math.max(k, 2 * elems.length);
            elems = new int[n];
            where = Arrays.copyOf(where, Math.max(n, where.length));
            blockStart = new int[n];
            blockSize = new int[n];
            marked = new int[n];
            touched = new int[n];
            work = new int[n];
            inWork = new boolean[n];
        }
    }
}
