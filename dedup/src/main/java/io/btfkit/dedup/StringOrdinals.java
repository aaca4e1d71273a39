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

    private static final java.lang.invoke.VarHandle LONGS =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;

    /**
     * Numbers the strings of {@code pool}: one starts at 0 and after every NUL. The NULs are found
     * eight bytes at a time (a module link's pool: 9.9 MB, a byte a step was 20 ms on C1).
     */
    StringOrdinals(byte[] pool) {
        int n = pool.length;
        starts = new long[(n >>> 6) + 1];
        before = new int[starts.length];
        if (n > 0) {
            starts[0] = 1L;
        }
        int p = 0;
        for (; p + 8 <= n; p += 8) {
            long x = (long) LONGS.get(pool, p);
            long zero = ~(((x & LOW7) + LOW7) | x | LOW7); // 0x80 in each byte that is 0
            if (zero != 0) {
                // bit i: byte p + i is a NUL, so a string starts at p + i + 1
                long nul = ((zero >>> 7) * 0x0102040810204080L) >>> 56;
                int q = p & 63;
                starts[p >>> 6] |= (nul << 1) << q;
                if (q == 56 && (nul & 0x80) != 0) {
                    starts[(p >>> 6) + 1] |= 1L;
                }
            }
        }
        for (; p < n; p++) {
            if (pool[p] == 0 && p + 1 < n) {
                starts[(p + 1) >>> 6] |= 1L << (p + 1);
            }
        }
        // (after a NUL that ends the pool no string starts)
        starts[n >>> 6] &= (1L << n) - 1;
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

    /** Pools from this many bytes are numbered on a thread of their own. */
    private static final int ORDINALS_APART = 1 << 20;

    /**
     * The numbering of {@code pool}'s strings, made on a thread of its own from the end of the
     * merge when the pool is large: only the output asks for it, and the partition before it is
     * one thread on a module link (a module link's 9.9 MB took 10-20 ms there). A small pool (a
     * module's dedup in a batch, a core per module already) is numbered when asked for.
     */
    static java.util.function.Supplier<StringOrdinals> meanwhile(byte[] pool) {
        if (pool.length < ORDINALS_APART) {
            return () -> new StringOrdinals(pool);
        }
        return io.btfkit.core.Background.start("btfkit-ordinals", () -> new StringOrdinals(pool));
    }
}
