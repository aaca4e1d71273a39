package io.btfkit.dedup;

import java.util.Arrays;

/**
 * The classes cyclic components made, by shape hash: where a new component looks for classes
 * it may match ({@link ClassTable}). One writer at a time (the holder of the table's cyclic
 * lock) adds entries; readers without the lock see the entries of <em>finished</em> components
 * only — those before the last {@link #publish()} — whose classes' columns are complete.
 *
 * <p>Why readers go without the lock: a link of thousands of units meets most of its cyclic
 * components (a struct and the pointers back to it) in many units, and nearly every one
 * matches classes made long before. Matching under the one lock serialised the parts' threads
 * (3,000 units: 5.5 M members in 148,510 components, the lock held 815 ms and waited for
 * 733 ms). A reader's view may be stale — it misses an entry being added, or a whole newer
 * chain — but every candidate it returns is a finished class, which a match confirms in full,
 * so a stale view can only miss a match, and the caller then decides again under the lock.
 *
 * <p>Entries are numbered in order of creation: per entry its class, the next (older) entry of
 * the same shape hash and the length of the chain from it on (the head's is the count of that
 * shape; chains of anonymous pointers are long, and a count is asked per member). Heads live in
 * an open-addressing table that is replaced, never rehashed in place, when it fills.
 */
final class ShapeIndex {
    private static final int NONE = -1;

    /** Entries [0, published) belong to finished components. */
    private volatile int published;
    private int count;
    private volatile int[] entryClass = new int[64];
    private volatile int[] nextEntry = new int[64];
    private volatile int[] chainLength = new int[64];
    private volatile Heads heads = new Heads(64);

    /** Shape hash -> newest entry of that hash. */
    private static final class Heads {
        final long[] keys;
        final int[] entry;
        final int mask;
        int used;

        Heads(int capacity) {
            keys = new long[capacity];
            entry = new int[capacity];
            Arrays.fill(entry, NONE);
            mask = capacity - 1;
        }

        int slot(long h) {
            int i = (int) (h ^ (h >>> 32)) * 0x9E3779B9 & mask;
            while (entry[i] != NONE && keys[i] != h) {
                i = (i + 1) & mask;
            }
            return i;
        }
    }

    /** Adds class {@code c} of shape hash {@code h} (the writer, under the table's cyclic lock). */
    void add(int c, long h) {
        if (count == entryClass.length) {
            int n = count * 2;
            // copies first, then the fields: a reader that sees a new array sees its contents
            int[] cls = Arrays.copyOf(entryClass, n);
            int[] next = Arrays.copyOf(nextEntry, n);
            int[] len = Arrays.copyOf(chainLength, n);
            entryClass = cls;
            nextEntry = next;
            chainLength = len;
        }
        Heads t = heads;
        if (2 * (t.used + 1) > t.entry.length) {
            t = grown(t);
        }
        int k = count++;
        int i = t.slot(h);
        int old = t.entry[i];
        entryClass[k] = c;
        nextEntry[k] = old;
        chainLength[k] = old == NONE ? 1 : chainLength[old] + 1;
        if (old == NONE) {
            t.keys[i] = h;
            t.used++;
        }
        t.entry[i] = k;
    }

    private Heads grown(Heads t) {
        Heads g = new Heads(t.entry.length * 2);
        for (int i = 0; i < t.entry.length; i++) {
            if (t.entry[i] != NONE) {
                int j = g.slot(t.keys[i]);
                g.keys[j] = t.keys[i];
                g.entry[j] = t.entry[i];
                g.used++;
            }
        }
        heads = g;
        return g;
    }

    /** Makes every entry added so far readable without the lock (its component is finished). */
    void publish() {
        published = count;
    }

    /** The newest entry of shape {@code h} a reader may use, NONE if none, or -2 when it cannot tell. */
    private int head(long h, boolean locked) {
        int limit = locked ? count : published; // (read before the arrays: they hold at least this many)
        Heads t = heads;
        int k = t.entry[t.slot(h)];
        if (k >= limit) {
            return -2; // a component of this shape being made, or one a stale view cannot follow
        }
        return k;
    }

    /**
     * How many classes of shape {@code h} there are; -1 when a reader without the lock cannot
     * tell ({@code locked}: the caller holds the table's cyclic lock and sees every entry).
     */
    int count(long h, boolean locked) {
        int k = head(h, locked);
        return k == -2 ? -1 : k == NONE ? 0 : chainLength[k];
    }

    /** Fills {@code out} with the classes of shape {@code h}, from {@code at}; returns how many there are (-1: cannot tell). */
    int candidates(long h, boolean locked, int[] out, int at) {
        int k = head(h, locked);
        if (k == -2) {
            return -1;
        }
        int[] cls = entryClass;
        int[] next = nextEntry;
        int n = 0;
        for (; k != NONE; k = next[k]) {
            if (at + n < out.length) {
                out[at + n] = cls[k];
            }
            n++;
        }
        return n;
    }
}
