package io.btfkit.dedup;

/**
 * The strings of a pool of NUL-terminated strings numbered in order, looked up by the offset
 * where one starts: a bit per byte marks the starts, and a count per 64 bytes of the starts
 * before them gives the rank. A map from offsets to output offsets then needs an int per string,
 * not per byte (a module link's pool: 9.9 MB, 524,304 strings), and the bits and counts, 1.6 MB
 * there, stay in the cache where a hash map's probes of 8 MB did not.
 */
final class StringOrdinals {
    /** Bit {@code p}: a string starts at byte {@code p}. */
    private final long[] starts;
    /** Per 64 bytes: the strings that start before them. */
    private final int[] before;
    private final int count;

    /** Numbers the strings of {@code pool}: one starts at 0 and after every NUL. */
    StringOrdinals(byte[] pool) {
        starts = new long[(pool.length >>> 6) + 1];
        before = new int[starts.length];
        boolean atStart = true;
        for (int p = 0; p < pool.length; p++) {
            if (atStart) {
                starts[p >>> 6] |= 1L << p;
            }
            atStart = pool[p] == 0;
        }
        int c = 0;
        for (int k = 0; k < starts.length; k++) {
            before[k] = c;
            c += Long.bitCount(starts[k]);
        }
        count = c;
    }

    /** Number of strings. */
    int count() {
        return count;
    }

    /** The ordinal of the string that starts at byte {@code p}. */
    int of(int p) {
        return before[p >>> 6] + Long.bitCount(starts[p >>> 6] & ((1L << p) - 1));
    }
}
