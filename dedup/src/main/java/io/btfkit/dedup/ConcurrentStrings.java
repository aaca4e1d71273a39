package io.btfkit.dedup;

import io.btfkit.core.StringPool;
import io.btfkit.core.StringTable;
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
 *
 * <p>On a base, {@link #add} gives a string of the base its offset there (the first, as
 * {@link StringTable#find} does) and a new one its arena offset after the base's strings. A
 * pool {@link #seeded} with the base's strings answers both in one probe; an unseeded one looks
 * in the base first (its own index: a second probe per string). Seeding costs a probe per base
 * string, so it pays only when the inputs look up many more strings than the base holds (the
 * module link: 1.47 M lookups, 102 K base strings; one module: a few thousand).
 */
final class ConcurrentStrings {
    /** The lower half of a base string's slot: this bit, then its offset in the base + 1. */
    private static final int BASE_ENTRY = Integer.MIN_VALUE;

    private final byte[] data;
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicInteger count = new AtomicInteger();
    private final long maxStrings;
    /**
     * Slot = (hash << 32) | (arena offset + 1), or (hash << 32) | BASE_ENTRY | (base offset + 1),
     * published in one atomic write; 0 = empty.
     */
    private final AtomicLongArray table;
    private final int mask;
    /** The base's strings (null: none), and where the arena's offsets start (the base's end). */
    private final StringTable base;
    private final int start;
    /** Whether every string of the base has its slot ({@link #seeded}); else the base is searched first. */
    private final boolean seeded;
    /** Slots that base strings take. */
    private final int baseEntries;

    /**
     * A pool of its own (no base).
     *
     * @param maxBytes   an upper bound of the bytes all distinct strings need (NULs included)
     * @param maxStrings an upper bound of the number of distinct strings
     */
    ConcurrentStrings(long maxBytes, long maxStrings) {
        this(maxBytes, maxStrings, null, false, 0);
    }

    /** A pool on {@code base}'s strings, searched before the pool (not seeded). */
    static ConcurrentStrings onBase(long maxBytes, long maxStrings, StringTable base) {
        return new ConcurrentStrings(maxBytes, maxStrings, base, false, 0);
    }

    /** A pool holding every string of {@code base} first: a string costs one probe, base or not. */
    static ConcurrentStrings seeded(long maxBytes, long maxStrings, StringTable base) {
        int n = 0;
        for (StringTable t = base; t != null; t = t.base()) {
            n += t.count();
        }
        ConcurrentStrings p = new ConcurrentStrings(maxBytes, maxStrings, base, true, n);
        p.seed(base);
        return p;
    }

    private ConcurrentStrings(long maxBytes, long maxStrings, StringTable base, boolean seeded, int baseEntries) {
        if (maxBytes > Integer.MAX_VALUE - 16) {
            throw new io.btfkit.core.BtfException("inputs have more than 2 GiB of strings");
        }
        data = new byte[(int) Math.max(16, maxBytes)];
        this.maxStrings = Math.max(64, maxStrings);
        this.base = base;
        this.start = base == null ? 0 : base.end();
        this.seeded = seeded;
        this.baseEntries = baseEntries;
        long slots = Math.max(64, (this.maxStrings + baseEntries) * 2);
        int cap = Integer.highestOneBit((int) Math.min(1 << 30, slots) * 2 - 1);
        table = new AtomicLongArray(cap);
        mask = cap - 1;
    }

    /**
     * A slot for each string start of {@code t}'s chain, the deepest base first, the first
     * occurrence of equal strings winning: the offsets {@link StringTable#find} gives.
     */
    private void seed(StringTable t) {
        if (t.base() != null) {
            seed(t.base());
        }
        byte[] b = t.bytes();
        int i = 0;
        while (i < b.length) {
            long lh = StringPool.lengthAndHash(b, i);
            int len = (int) (lh >>> 32);
            if (i + len >= b.length) {
                break; // an unterminated tail is not a string
            }
            int full = (int) lh;
            int h = full & mask;
            while (true) {
                long e = table.getPlain(h);
                if (e == 0) {
                    table.setPlain(h, ((long) full << 32) | (BASE_ENTRY | (t.start() + i + 1)) & 0xffffffffL);
                    break;
                }
                if ((int) (e >>> 32) == full && baseEqualsAt(((int) e & ~BASE_ENTRY) - 1, b, i, len)) {
                    break; // (an earlier copy keeps its offset)
                }
                h = (h + 1) & mask;
            }
            i += len + 1;
        }
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

    /**
     * A copy with {@code factor} (2 to 4) times the room when the strings so far came from
     * {@code merged} of {@code total} input words and that share of the rest would need more:
     * linked units share most strings and need little more once a few rounds are in, and
     * modules keep adding their own (a pool grown only twofold from the first round's needs
     * grew 8 times on 4,023 modules, each a copy of the table and the bytes).
     */
    ConcurrentStrings grownFor(long merged, long total) {
        double factor = merged <= 0 ? 4 : Math.min(4, Math.max(2, (double) total / merged));
        return grown((long) (factor * data.length) - size.get(), (long) (factor * maxStrings) - count.get());
    }

    /** A copy with at least twice the room, and room for {@code bytes} and {@code strings} more. */
    ConcurrentStrings grown(long bytes, long strings) {
        int used = size.get();
        ConcurrentStrings g = new ConcurrentStrings(Math.max(2L * data.length, used + bytes),
                Math.max(2 * maxStrings, count.get() + strings), base, seeded, baseEntries);
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
     * Canonical offset of the string {@code s[from, from+len)}: its offset in the base, else in
     * the arena after the base ({@code base.end()} + arena offset), adding it when new; -1 when
     * it is new and the bounds given to the constructor are used up. Thread-safe.
     */
    int add(byte[] s, int from, int len) {
        return add(s, from, len, StringPool.hash(s, from, len));
    }

    /** {@link #add(byte[], int, int)} with the string's {@link StringPool#hash} already known. */
    int add(byte[] s, int from, int len, int full) {
        if (base != null && !seeded) {
            int b = base.find(s, from, len, full);
            if (b >= 0) {
                return b;
            }
        }
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
                    return start + mine;
                }
                e = table.get(h); // another thread claimed this slot first: look at its string
            }
            if ((int) (e >>> 32) == full) {
                int low = (int) e;
                if (low < 0) {
                    int off = (low & ~BASE_ENTRY) - 1;
                    if (baseEqualsAt(off, s, from, len)) {
                        return off;
                    }
                } else if (equalsAt(low - 1, s, from, len)) {
                    return start + low - 1; // (our appended copy, if any, stays unused)
                }
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

    /** Whether the base's string at {@code off} is {@code s[from, from+len)}. */
    private boolean baseEqualsAt(int off, byte[] s, int from, int len) {
        StringTable t = base.tableOf(off);
        byte[] b = t.bytes();
        int i = off - t.start();
        return i + len < b.length && b[i + len] == 0 && java.util.Arrays.equals(b, i, i + len, s, from, from + len);
    }

    /** Strings, bytes and table slots, for timing output. */
    String describe() {
        return count.get() + " strings, " + size.get() + " bytes, " + table.length() + " slots"
                + (seeded ? " (" + baseEntries + " of the base)" : "");
    }

    /** Whether the base's strings were put in first ({@link #seeded}). */
    boolean isSeeded() {
        return seeded;
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
