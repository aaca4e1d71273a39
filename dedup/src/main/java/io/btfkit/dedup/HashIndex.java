package io.btfkit.dedup;

/**
 * A multimap from 64-bit hashes (already well mixed) to class ids, insert-only, open
 * addressing. A slot is one {@code long}: the hash's upper 32 bits (which also choose the
 * position) beside the value — half the memory of storing the whole hash, so more of the
 * index stays in cache on a link of millions of types; a 32-bit match is only a candidate
 * anyway, since callers confirm every candidate by full comparison. Equal hashes are kept as
 * separate entries.
 */
final class HashIndex {
    private long[] slots;
    private int mask;
    private int size;

    HashIndex() {
        this(512);
    }

    /** An index that holds {@code expected} entries without growing. */
    HashIndex(int expected) {
        int cap = Integer.highestOneBit(Math.max(1024, 2 * expected - 1)) << 1;
        slots = new long[cap];
        mask = cap - 1;
    }

    private static int tag(long hash) {
        return (int) (hash >>> 32);
    }

    /** Adds an entry (duplicate hashes allowed). */
    void add(long hash, int value) {
        if (++size * 2 > mask + 1) {
            grow();
        }
        put(slots, mask, ((long) tag(hash) << 32) | (value + 1L));
    }

    private static void put(long[] s, int mask, long entry) {
        int i = (int) (entry >>> 32) & mask;
        while (s[i] != 0) {
            i = (i + 1) & mask;
        }
        s[i] = entry;
    }

    private void grow() {
        long[] old = slots;
        int cap = (mask + 1) * 2;
        long[] s = new long[cap];
        int m = cap - 1;
        for (long e : old) {
            if (e != 0) {
                put(s, m, e);
            }
        }
        slots = s;
        mask = m;
    }

    /** First probe position for {@code hash}; iterate with {@link #next}. */
    int first(long hash) {
        return tag(hash) & mask;
    }

    /**
     * The value at or after probe position {@code i} whose hash's upper half is
     * {@code hash}'s, as {@code (position << 32) | value}, or -1 when the probe sequence ends.
     */
    long find(long hash, int i) {
        long[] s = slots;
        int m = mask;
        int tag = tag(hash);
        while (true) {
            long v = s[i];
            if (v == 0) {
                return -1;
            }
            if ((int) (v >>> 32) == tag) {
                return ((long) i << 32) | ((int) v - 1);
            }
            i = (i + 1) & m;
        }
    }

    /** Probe position after {@code i}. */
    int next(int i) {
        return (i + 1) & mask;
    }
}
