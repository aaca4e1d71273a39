package io.btfkit.dedup;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * {@link HashIndex} for several threads: the multimap from 64-bit hashes to class ids that a
 * shared {@link ClassTable} indexes its classes by. A slot (the hash's upper 32 bits beside the
 * value) is claimed with compare-and-set, so inserts of different keys may run at once; readers
 * take no lock and see an entry only after the data it names was written. It does not grow
 * itself: its owner replaces it by {@link #grown} while no insert runs, once {@link #needsRoom}
 * says it is half full (it stays usable past that: the inserts racing with the check add a few
 * entries more).
 */
final class ConcurrentHashIndex {
    private final AtomicLongArray slots;
    private final int mask;
    private final AtomicInteger size = new AtomicInteger();

    /** An index that holds {@code expected} entries before it needs room. */
    ConcurrentHashIndex(int expected) {
        int cap = Integer.highestOneBit(Math.max(1024, 2 * expected - 1)) << 1;
        slots = new AtomicLongArray(cap);
        mask = cap - 1;
    }

    private static int tag(long hash) {
        return (int) (hash >>> 32);
    }

    /** Whether the index is half full: grow it before the next insert. */
    boolean needsRoom() {
        return size.get() * 2L > mask + 1L;
    }

    /** Adds an entry (duplicate hashes allowed). */
    void add(long hash, int value) {
        size.incrementAndGet();
        long entry = ((long) tag(hash) << 32) | (value + 1L);
        int i = tag(hash) & mask;
        while (!slots.compareAndSet(i, 0, entry)) {
            i = (i + 1) & mask;
        }
    }

    /** A copy twice the size; only while nothing is added. */
    ConcurrentHashIndex grown() {
        ConcurrentHashIndex g = new ConcurrentHashIndex((mask + 1) / 2 + 1);
        // (plain accesses, as in ConcurrentStrings.grown: no thread adds now)
        for (int i = 0; i <= mask; i++) {
            long e = slots.getPlain(i);
            if (e != 0) {
                int j = (int) (e >>> 32) & g.mask;
                while (g.slots.getPlain(j) != 0) {
                    j = (j + 1) & g.mask;
                }
                g.slots.setPlain(j, e);
            }
        }
        g.size.set(size.get());
        return g;
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
        AtomicLongArray s = slots;
        int m = mask;
        int tag = tag(hash);
        while (true) {
            long v = s.get(i);
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
