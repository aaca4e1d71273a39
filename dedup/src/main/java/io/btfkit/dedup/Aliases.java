package io.btfkit.dedup;

import java.util.Arrays;
import java.util.BitSet;

/**
 * For each merged type (index from 0), the node a resolved declaration stands for, or -1.
 *
 * <p>Few types are aliases (a 300-unit link: 109,000 of 1.5 M; a module link: 5,000 of 941,000),
 * and the two largest passes run while there are none yet (the definitions pass, which the rules
 * reason from) or no more are made (the partition, after the references are redirected). So the
 * table holds nothing until the first declaration is resolved, then one entry per type while the
 * rules run, and once {@link #settle settled} only the aliases, in order: 6 MB of a 300-unit link
 * are not held at either pass's peak.
 */
final class Aliases {
    private static final int NONE = -1;

    private final int size;
    /**
     * While the rules run: every type's target, NONE if none; null until the first. (Rules
     * resolve in parallel: the first of them to need it makes it, under the lock.)
     */
    private volatile int[] dense;
    /** Once settled: which types are aliases, and their targets in index order. */
    private BitSet aliased;
    private int[] keys;
    private int[] targets;

    /** No alias among {@code size} types. */
    Aliases(int size) {
        this.size = size;
    }

    int size() {
        return size;
    }

    /** The node type {@code i} stands for, or -1 when it is no alias. */
    int target(int i) {
        int[] d = dense;
        if (d != null) {
            return d[i];
        }
        if (aliased == null || !aliased.get(i)) {
            return NONE;
        }
        return targets[Arrays.binarySearch(keys, i)];
    }

    /** Whether any type is an alias. */
    boolean any() {
        return dense != null || keys != null && keys.length > 0;
    }

    boolean isAlias(int i) {
        return target(i) >= 0;
    }

    /** Makes type {@code i} an alias of node {@code node}. */
    void set(int i, int node) {
        if (aliased != null) {
            throw new IllegalStateException("aliases are settled");
        }
        int[] d = dense;
        (d != null ? d : made())[i] = node;
    }

    private synchronized int[] made() {
        if (dense == null) {
            int[] d = new int[size];
            Arrays.fill(d, NONE);
            dense = d;
        }
        return dense;
    }

    /** Keeps only the aliases from now on: no more are made. */
    void settle() {
        if (aliased != null) {
            return;
        }
        aliased = new BitSet();
        int[] d = dense;
        int count = 0;
        if (d != null) {
            for (int t : d) {
                if (t >= 0) {
                    count++;
                }
            }
        }
        keys = new int[count];
        targets = new int[count];
        for (int i = 0, k = 0; k < count; i++) {
            if (d[i] >= 0) {
                aliased.set(i);
                keys[k] = i;
                targets[k++] = d[i];
            }
        }
        dense = null;
    }
}
