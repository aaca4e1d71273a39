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

    /** A well-mixed 32-bit hash of a byte range (FNV-1a followed by a murmur finaliser). */
    public static int hash(byte[] s, int from, int len) {
        int h = 0x811c9dc5;
        for (int i = from, end = from + len; i < end; i++) {
            h = (h ^ (s[i] & 0xff)) * 0x01000193;
        }
        return finish(h);
    }

    /**
     * The length of the NUL-terminated string at {@code s[from]} (up to the end of {@code s})
     * and its {@link #hash}, in one pass: {@code (length << 32) | (hash & 0xffffffffL)}.
     */
    public static long lengthAndHash(byte[] s, int from) {
        int h = 0x811c9dc5;
        int i = from;
        while (i < s.length && s[i] != 0) {
            h = (h ^ (s[i] & 0xff)) * 0x01000193;
            i++;
        }
        return ((long) (i - from) << 32) | (finish(h) & 0xffffffffL);
    }

    private static int finish(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }
}
