package io.btfkit.dedup;

/**
 * A multimap from 64-bit hashes (already well mixed) to class ids, insert-only, open
 * addressing with key and value side by side in one array so a probe touches one cache line.
 * Equal hashes are kept as separate entries; callers confirm every candidate.
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
        slots = new long[2 * cap];
        mask = cap - 1;
    }

    /** Adds an entry (duplicate hashes allowed). */
    void add(long hash, int value) {
        if (++size * 2 > mask + 1) {
            grow();
        }
        put(slots, mask, hash, value);
    }

    private static void put(long[] s, int mask, long hash, int value) {
        int i = (int) hash & mask;
        while (s[2 * i + 1] != 0) {
            i = (i + 1) & mask;
        }
        s[2 * i] = hash;
        s[2 * i + 1] = value + 1L;
    }

    private void grow() {
        long[] old = slots;
        int cap = (mask + 1) * 2;
        long[] s = new long[2 * cap];
        int m = cap - 1;
        for (int i = 0; i < old.length; i += 2) {
            if (old[i + 1] != 0) {
                put(s, m, old[i], (int) old[i + 1] - 1);
            }
        }
        slots = s;
        mask = m;
    }

    /** First probe position for {@code hash}; iterate with {@link #next}. */
    int first(long hash) {
        return (int) hash & mask;
    }

    /**
     * The value at or after probe position {@code i} whose hash is {@code hash}, as
     * {@code (position << 32) | value}, or -1 when the probe sequence ends.
     */
    long find(long hash, int i) {
        long[] s = slots;
        int m = mask;
        while (true) {
            long v = s[2 * i + 1];
            if (v == 0) {
                return -1;
            }
            if (s[2 * i] == hash) {
                return ((long) i << 32) | (v - 1);
            }
            i = (i + 1) & m;
        }
    }

    /** Probe position after {@code i}. */
    int next(int i) {
        return (i + 1) & mask;
    }
}
