package io.btfkit.dedup;

import io.btfkit.core.StringPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The interning table that gives every string of the merged inputs one canonical offset,
 * filled by several threads at once: an append-only byte arena (space claimed with an atomic
 * bump) and an open-addressing table whose slots are claimed with compare-and-set. Two threads
 * adding the same string race for the same first free slot of its probe sequence, so an equal
 * string is never stored twice. Sized up front from the inputs (no rehash while shared).
 *
 * <p>The table never grows while shared: callers add strings in rounds, and between rounds
 * make room for the next round's upper bounds ({@link #withRoom}); should the bounds still be
 * passed, {@link #add} returns -1.
 *
 * <p>Offsets only identify strings here; the output lays its string section out itself.
 */
final class ConcurrentStrings {
    private final byte[] data;
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicInteger count = new AtomicInteger();
    private final long maxStrings;
    /** Slot = (hash << 32) | (offset + 1), published in one atomic write; 0 = empty. */
    private final AtomicLongArray table;
    private final int mask;

    /**
     * @param maxBytes   an upper bound of the bytes all distinct strings need (NULs included)
     * @param maxStrings an upper bound of the number of distinct strings
     */
    ConcurrentStrings(long maxBytes, long maxStrings) {
        if (maxBytes > Integer.MAX_VALUE - 16) {
            throw new io.btfkit.core.BtfException("inputs have more than 2 GiB of strings");
        }
        data = new byte[(int) Math.max(16, maxBytes)];
        this.maxStrings = Math.max(64, maxStrings);
        int cap = Integer.highestOneBit((int) Math.min(1 << 30, Math.max(64, maxStrings * 2)) * 2 - 1);
        table = new AtomicLongArray(cap);
        mask = cap - 1;
    }

    /** Whether {@code bytes} more bytes and {@code strings} more strings surely fit. */
    boolean hasRoom(long bytes, long strings) {
        return size.get() + bytes <= data.length && count.get() + strings <= maxStrings;
    }

    /**
     * This pool if it has room for {@code bytes} more bytes and {@code strings} more strings,
     * else a larger pool holding the same strings at the same offsets. Not thread-safe: call
     * it between rounds of {@link #add}.
     */
    ConcurrentStrings withRoom(long bytes, long strings) {
        if (hasRoom(bytes, strings)) {
            return this;
        }
        int used = size.get();
        ConcurrentStrings g = new ConcurrentStrings(Math.max(2L * data.length, used + bytes),
                Math.max(2 * maxStrings, count.get() + strings));
        System.arraycopy(data, 0, g.data, 0, used);
        for (int i = 0; i < table.length(); i++) {
            long e = table.get(i);
            if (e != 0) {
                int h = (int) (e >>> 32) & g.mask;
                while (g.table.get(h) != 0) {
                    h = (h + 1) & g.mask;
                }
                g.table.set(h, e);
            }
        }
        g.size.set(used);
        g.count.set(count.get());
        return g;
    }

    /**
     * Offset of the string {@code s[from, from+len)}, adding it when new; -1 when it is new
     * and the bounds given to the constructor are used up. Thread-safe.
     */
    int add(byte[] s, int from, int len) {
        int full = StringPool.hash(s, from, len);
        int h = full & mask;
        int mine = -1;
        while (true) {
            long e = table.get(h);
            if (e == 0) {
                if (mine < 0) {
                    // load stays at most about a half: the table has 2 slots per allowed string
                    if (count.get() >= maxStrings) {
                        return -1;
                    }
                    mine = append(s, from, len);
                    if (mine < 0) {
                        return -1;
                    }
                }
                long claim = ((long) full << 32) | (mine + 1L);
                if (table.compareAndSet(h, 0, claim)) {
                    count.incrementAndGet();
                    return mine;
                }
                e = table.get(h); // another thread claimed this slot first: look at its string
            }
            int off = (int) e - 1;
            if ((int) (e >>> 32) == full && equalsAt(off, s, from, len)) {
                return off; // (our appended copy, if any, stays unused)
            }
            h = (h + 1) & mask;
        }
    }

    private int append(byte[] s, int from, int len) {
        int off = size.getAndAdd(len + 1);
        if (off < 0 || (long) off + len + 1 > data.length) {
            size.set(Integer.MAX_VALUE / 2); // stays past the end for every later claim
            return -1;
        }
        System.arraycopy(s, from, data, off, len);
        data[off + len] = 0;
        return off;
    }

    private boolean equalsAt(int off, byte[] s, int from, int len) {
        if (off + len >= data.length || data[off + len] != 0) {
            return false;
        }
        return java.util.Arrays.equals(data, off, off + len, s, from, from + len);
    }

    /** The arena (valid up to {@link #size()}). */
    byte[] bytes() {
        return data;
    }

    int size() {
        return size.get();
    }
}
