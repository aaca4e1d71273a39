package io.btfkit.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growing string section with one entry per distinct string (hash-consed like ASM's
 * SymbolTable): {@link #add} returns the offset of an equal string already present, or appends
 * the string and its NUL. The bytes are the section exactly as it will be written.
 */
public final class StringPool {
    private byte[] data;
    private int size;
    /** Open-addressing table of (offset + 1); 0 means empty. */
    private int[] table;
    /** Full hash of each table entry: compared before the bytes, reused when the table grows. */
    private int[] hashes;
    private int count;

    public StringPool() {
        this(256);
    }

    public StringPool(int expectedBytes) {
        data = new byte[Math.max(16, expectedBytes)];
        // about one string per 16 bytes, table at most half full
        int cap = Integer.highestOneBit(Math.max(64, Math.min(1 << 26, expectedBytes / 4)));
        table = new int[cap];
        hashes = new int[cap];
    }

    /** Bytes used so far; the offset the next new string will get. */
    public int size() {
        return size;
    }

    /** Number of distinct strings. */
    public int count() {
        return count;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(data, size);
    }

    /** The bytes of the pool; valid up to {@link #size()}; callers must not modify them. */
    public byte[] rawBytes() {
        return data;
    }

    public int add(String s) {
        return add(s.getBytes(StandardCharsets.UTF_8));
    }

    public int add(byte[] s) {
        return add(s, 0, s.length);
    }

    /** Offset of the string {@code s[from, from+len)}, appending it when it is new. */
    public int add(byte[] s, int from, int len) {
        int mask = table.length - 1;
        int full = hash(s, from, len);
        int h = full & mask;
        while (true) {
            int e = table[h];
            if (e == 0) {
                break;
            }
            int off = e - 1;
            if (hashes[h] == full && matches(off, s, from, len)) {
                return off;
            }
            h = (h + 1) & mask;
        }
        int off = append(s, from, len);
        table[h] = off + 1;
        hashes[h] = full;
        if (++count * 2 > table.length) {
            rehash();
        }
        return off;
    }

    /** Offset of an equal string, or -1. */
    public int find(byte[] s, int from, int len) {
        int mask = table.length - 1;
        int full = hash(s, from, len);
        int h = full & mask;
        while (true) {
            int e = table[h];
            if (e == 0) {
                return -1;
            }
            if (hashes[h] == full && matches(e - 1, s, from, len)) {
                return e - 1;
            }
            h = (h + 1) & mask;
        }
    }

    /**
     * Appends a string without looking for an equal one (for sections that must keep
     * duplicates); later {@link #add} calls may return either copy.
     */
    public int appendUnique(byte[] s, int from, int len) {
        return append(s, from, len);
    }

    private boolean matches(int off, byte[] s, int from, int len) {
        return off + len < size
                && Arrays.equals(data, off, off + len, s, from, from + len)
                && data[off + len] == 0;
    }

    private int append(byte[] s, int from, int len) {
        ensure(size + len + 1);
        int off = size;
        System.arraycopy(s, from, data, off, len);
        data[off + len] = 0;
        size += len + 1;
        return off;
    }

    private void ensure(int need) {
        if (need > data.length) {
            long cap = Math.max(need, (long) data.length * 2);
            if (cap > Integer.MAX_VALUE - 16) {
                cap = Integer.MAX_VALUE - 16;
            }
            data = Arrays.copyOf(data, (int) cap);
        }
    }

    private void rehash() {
        int[] old = table;
        int[] oldHashes = hashes;
        table = new int[old.length * 4];
        hashes = new int[table.length];
        int mask = table.length - 1;
        for (int i = 0; i < old.length; i++) {
            if (old[i] != 0) {
                int h = oldHashes[i] & mask;
                while (table[h] != 0) {
                    h = (h + 1) & mask;
                }
                table[h] = old[i];
                hashes[h] = oldHashes[i];
            }
        }
    }

    /** Reads 8 bytes of a byte array as one little-endian long (one unaligned load, on C1 too). */
    private static final java.lang.invoke.VarHandle WORDS =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long SEED = 0x9E3779B97F4A7C15L;

    /**
     * A well-mixed 32-bit hash of a byte range: its bytes taken 8 at a time as little-endian
     * words, each folded in by a multiply, the last 0-7 bytes as one more word, the length,
     * then a murmur finaliser. A string costs a multiply per 8 bytes, where a multiply per
     * byte was 3% of a link's samples (the merge hashes every distinct string of every input).
     */
    public static int hash(byte[] s, int from, int len) {
        long h = SEED;
        int i = from;
        int end = from + len;
        for (; i + 8 <= end; i += 8) {
            h = fold(h, (long) WORDS.get(s, i));
        }
        long last = 0;
        for (int k = 0; i + k < end; k++) {
            last |= (s[i + k] & 0xffL) << (8 * k);
        }
        return finish(fold(h, last), len);
    }

    /**
     * The length of the NUL-terminated string at {@code s[from]} (up to the end of {@code s})
     * and its {@link #hash}, in one pass: {@code (length << 32) | (hash & 0xffffffffL)}. The
     * NUL is found 8 bytes at a time: in {@code v}, {@code (v - ONES) & ~v & HIGHS} has the high
     * bit of its lowest zero byte set, and no lower one.
     */
    public static long lengthAndHash(byte[] s, int from) {
        long h = SEED;
        int i = from;
        int n = s.length;
        for (; i + 8 <= n; i += 8) {
            long v = (long) WORDS.get(s, i);
            long zero = (v - ONES) & ~v & HIGHS;
            if (zero != 0) {
                int k = Long.numberOfTrailingZeros(zero) >>> 3; // bytes before the NUL
                long last = k == 0 ? 0 : v & (-1L >>> (64 - 8 * k));
                int len = i + k - from;
                return ((long) len << 32) | (finish(fold(h, last), len) & 0xffffffffL);
            }
            h = fold(h, v);
        }
        long last = 0;
        int k = 0;
        for (; i + k < n && s[i + k] != 0; k++) {
            last |= (s[i + k] & 0xffL) << (8 * k);
        }
        int len = i + k - from;
        return ((long) len << 32) | (finish(fold(h, last), len) & 0xffffffffL);
    }

    private static long fold(long h, long word) {
        h = (h ^ word) * 0xff51afd7ed558ccdL;
        return h ^ (h >>> 32);
    }

    private static int finish(long h, int len) {
        h ^= len;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) h ^ (int) (h >>> 32);
    }
}
