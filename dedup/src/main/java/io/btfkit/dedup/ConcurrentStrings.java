package io.btfkit.dedup;

import io.btfkit.core.StringPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The interning table that gives every string of the merged inputs one canonical offset,
 * filled by several threads at once: an append-only byte arena (space claimed with an atomic
 * bump) and an open-addressing table whose slots are claimed with compare-and-set. Two threads
 * adding the same string race for the same first free slot of its probe sequence, so an equal
 * string is never stored twice.
 *
 * <p>The table never grows while shared: when its bounds are reached {@link #add} returns -1,
 * and the caller, once no thread adds, takes a larger copy ({@link #withRoom}) holding the same
 * strings at the same offsets and adds the rest there. Kept at most half full, and no larger
 * than the distinct strings need (a probe that misses the cache is the cost of interning).
 *
 * <p>Offsets only identify strings here; the output lays its string section out itself. A
 * thread that loses the race for a slot to the same string leaves the copy it appended unused
 * in the arena (a few bytes, never referenced), so the arena's size may differ between runs;
 * the canonical offsets do not depend on which copy won.
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
        return grown(bytes, strings);
    }

    /** A copy with at least twice the room, and room for {@code bytes} and {@code strings} more. */
    ConcurrentStrings grown(long bytes, long strings) {
        int used = size.get();
        ConcurrentStrings g = new ConcurrentStrings(Math.max(2L * data.length, used + bytes),
                Math.max(2 * maxStrings, count.get() + strings));
        System.arraycopy(data, 0, g.data, 0, used);
        // plain reads and writes: no thread adds now, and the tasks that use the copy are
        // started after this returns (a volatile write per entry fenced each: 2 M slots of a
        // module link's last copy)
        for (int i = 0; i < table.length(); i++) {
            long e = table.getPlain(i);
            if (e != 0) {
                int h = (int) (e >>> 32) & g.mask;
                while (g.table.getPlain(h) != 0) {
                    h = (h + 1) & g.mask;
                }
                g.table.setPlain(h, e);
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
        return add(s, from, len, StringPool.hash(s, from, len));
    }

    /** {@link #add(byte[], int, int)} with the string's {@link StringPool#hash} already known. */
    int add(byte[] s, int from, int len, int full) {
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
        int off;
        do {
            off = size.get();
            if ((long) off + len + 1 > data.length) {
                return -1; // (size stays exact, so a larger copy can take over)
            }
        } while (!size.compareAndSet(off, off + len + 1));
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

    /** Strings, bytes and table slots, for timing output. */
    String describe() {
        return count.get() + " strings, " + size.get() + " bytes, " + table.length() + " slots";
    }

    /** The arena (valid up to {@link #size()}). */
    byte[] bytes() {
        return data;
    }

    int size() {
        return size.get();
    }

    /** Number of distinct strings. */
    int count() {
        return count.get();
    }
}
