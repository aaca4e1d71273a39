package io.btfkit.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A BTF string section, read-only: the exact bytes of one section plus, for split BTF, the
 * base's table in front of it (offsets below {@link #start()} resolve in the base).
 *
 * <p>Strings are kept as bytes and compared as bytes. {@link #latin1(int)} maps each byte to
 * one char so printers and the text parser reproduce names byte for byte, whatever their
 * encoding; {@link #get(int)} decodes UTF-8 for API users.
 */
public final class StringTable {
    private final StringTable base;
    private final int start;
    private final byte[] data;
    /** Lazily built hash index of string starts (first occurrence wins), for {@link #find}. */
    private volatile long[] startIndex;

    /**
     * @param base  the base BTF's table, or null for standalone BTF
     * @param data  this section's bytes (not copied; must not be modified afterwards)
     */
    public StringTable(StringTable base, byte[] data) {
        this.base = base;
        this.start = base == null ? 0 : base.end();
        this.data = data;
    }

    public static StringTable of(StringTable base, String... strings) {
        StringPool pool = new StringPool();
        for (String s : strings) {
            pool.add(s.getBytes(StandardCharsets.UTF_8));
        }
        return new StringTable(base, pool.toByteArray());
    }

    public StringTable base() {
        return base;
    }

    /** Offset of this section's first byte in the combined (base + split) offset space. */
    public int start() {
        return start;
    }

    /** One past the last valid offset: base length plus this section's length. */
    public int end() {
        return start + data.length;
    }

    /** This section's length in bytes. */
    public int length() {
        return data.length;
    }

    /** This section's bytes; callers must not modify them. */
    public byte[] bytes() {
        return data;
    }

    /**
     * The strings of this section, the base's not counted: its NUL bytes (an unterminated tail
     * is no string).
     */
    public int count() {
        int n = 0;
        for (byte b : data) {
            if (b == 0) {
                n++;
            }
        }
        return n;
    }

    /** Whether {@code off} names a NUL-terminated string of this table or its base. */
    public boolean isValid(int off) {
        if (off < 0) {
            return false;
        }
        if (off < start) {
            return base.isValid(off);
        }
        int i = off - start;
        if (i >= data.length) {
            return false;
        }
        for (int j = i; j < data.length; j++) {
            if (data[j] == 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code off} (below {@link #end()}) is where a string of its section begins: the
     * section's first byte, or the byte after a NUL. A name that points into the middle of a
     * string is legal BTF but no producer writes it; in split BTF it means the base is not the
     * one the split was made on (see {@link SplitBaseFit}).
     */
    public boolean startsString(int off) {
        StringTable t = this;
        while (off < t.start) {
            t = t.base;
        }
        int i = off - t.start;
        return i == 0 || t.data[i - 1] == 0;
    }

    /** The table (this or a base) that holds {@code off}; the offset must be valid. */
    public StringTable tableOf(int off) {
        StringTable t = this;
        while (off < t.start) {
            t = t.base;
        }
        return t;
    }

    /** Index in {@link #bytes()} of the table returned by {@link #tableOf(int)}. */
    public int localIndex(int off) {
        return off - tableOf(off).start;
    }

    /** Length in bytes of the string at a valid offset, without its NUL. */
    public int lengthAt(int off) {
        StringTable t = tableOf(off);
        byte[] d = t.data;
        int i = off - t.start;
        int j = i;
        while (j < d.length && d[j] != 0) {
            j++;
        }
        return j - i;
    }

    /** The string at {@code off}, decoded as UTF-8, or null when the offset is invalid. */
    public String get(int off) {
        if (!isValid(off)) {
            return null;
        }
        StringTable t = tableOf(off);
        int i = off - t.start;
        return new String(t.data, i, lengthAt(off), StandardCharsets.UTF_8);
    }

    /**
     * The string at {@code off} as a message quotes it, decoded as UTF-8: at most
     * {@link Printable#MAX_NAME} bytes, then {@code …(N bytes)} when it is longer (only those bytes
     * are decoded); null when the offset is invalid.
     */
    public String forMessage(int off) {
        return forMessage(off, StandardCharsets.UTF_8);
    }

    /** {@link #forMessage(int)} decoded with {@code charset} (ISO-8859-1: byte for byte). */
    public String forMessage(int off, java.nio.charset.Charset charset) {
        if (!isValid(off)) {
            return null;
        }
        StringTable t = tableOf(off);
        int i = off - t.start;
        int len = lengthAt(off);
        if (len <= Printable.MAX_NAME) {
            return new String(t.data, i, len, charset);
        }
        return new String(t.data, i, Printable.MAX_NAME, charset) + Printable.cutMark(len);
    }

    /** The string at {@code off}, one char per byte (byte-exact), or null when invalid. */
    public String latin1(int off) {
        if (!isValid(off)) {
            return null;
        }
        StringTable t = tableOf(off);
        int i = off - t.start;
        return new String(t.data, i, lengthAt(off), StandardCharsets.ISO_8859_1);
    }

    /** Whether the string at valid offset {@code off} is empty. */
    public boolean isEmptyAt(int off) {
        StringTable t = tableOf(off);
        return t.data[off - t.start] == 0;
    }

    /**
     * Offset of the first string of this table (base first, then own) that equals {@code s}
     * and starts right after a NUL or at the section start; -1 when there is none. This is how
     * libbpf looks up an existing string before adding one.
     */
    public int find(byte[] s) {
        return find(s, 0, s.length, StringPool.hash(s, 0, s.length));
    }

    /**
     * {@link #find(byte[])} of the {@code len} bytes at {@code s[from]}, whose
     * {@link StringPool#hash} is {@code hash} (hot: the merge looks up every distinct string of
     * every input in the base, with the hash it already has and without a copy).
     */
    public int find(byte[] s, int from, int len, int hash) {
        if (base != null) {
            int b = base.find(s, from, len, hash);
            if (b >= 0) {
                return b;
            }
        }
        long[] index = index();
        int mask = index.length - 1;
        int h = hash & mask;
        while (true) {
            long e = index[h];
            if (e == 0) {
                return -1;
            }
            int i = (int) e - 1;
            if ((int) (e >>> 32) == hash && equalsAt(i, s, from, len)) {
                return start + i;
            }
            h = (h + 1) & mask;
        }
    }

    public int find(String s) {
        return find(s.getBytes(StandardCharsets.UTF_8));
    }

    private boolean equalsAt(int i, byte[] s, int from, int len) {
        return i + len < data.length
                && regionEquals(data, i, s, from, len)
                && data[i + len] == 0;
    }

    /** Per string start (first occurrence wins): its hash in the upper half, offset + 1 in the lower. */
    private long[] index() {
        long[] idx = startIndex;
        if (idx != null) {
            return idx;
        }
        int count = count();
        int cap = Integer.highestOneBit(Math.max(4, count * 2)) << 1;
        idx = new long[cap];
        int mask = cap - 1;
        int i = 0;
        while (i < data.length) {
            int j = i;
            while (j < data.length && data[j] != 0) {
                j++;
            }
            if (j >= data.length) {
                break; // unterminated tail: not a string
            }
            int hash = StringPool.hash(data, i, j - i);
            int h = hash & mask;
            boolean dup = false;
            while (idx[h] != 0) {
                int o = (int) idx[h] - 1;
                if ((int) (idx[h] >>> 32) == hash && regionEquals(data, o, data, i, j - i) && data[o + j - i] == 0) {
                    dup = true;
                    break;
                }
                h = (h + 1) & mask;
            }
            if (!dup) {
                idx[h] = ((long) hash << 32) | (i + 1L);
            }
            i = j + 1;
        }
        startIndex = idx;
        return idx;
    }

    static boolean regionEquals(byte[] a, int ai, byte[] b, int bi, int len) {
        return Arrays.equals(a, ai, ai + len, b, bi, bi + len);
    }
}
