package io.btfkit.core;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * The buffered byte writer every printer builds on (raw text, JSON, C): chars 0-255 written as
 * one byte each, names copied byte for byte from a string table (non-UTF-8 names survive
 * unchanged), decimal numbers formatted without garbage; one {@code write} per 64 KiB.
 * Subclasses add their format's helpers; methods return the subclass for chaining.
 */
public abstract class ByteSink<T extends ByteSink<T>> {
    private final OutputStream os;
    private final byte[] buf = new byte[1 << 16];
    private final byte[] digits = new byte[20];
    private int n;

    protected ByteSink(OutputStream os) {
        this.os = os;
    }

    @SuppressWarnings("unchecked")
    private T self() {
        return (T) this;
    }

    /** One byte. */
    public final T ch(int c) {
        if (n == buf.length) {
            drain();
        }
        buf[n++] = (byte) c;
        return self();
    }

    /** A string of chars 0-255, one byte each. */
    public final T str(String s) {
        int len = s.length();
        if (len > buf.length - n) {
            drain();
            if (len > buf.length) {
                for (int i = 0; i < len; i++) {
                    ch(s.charAt(i));
                }
                return self();
            }
        }
        for (int i = 0; i < len; i++) {
            buf[n + i] = (byte) s.charAt(i);
        }
        n += len;
        return self();
    }

    /** The string at valid offset {@code off} of {@code strings}, byte for byte (nothing when out of range). */
    public final T bytesAt(StringTable strings, int off) {
        if (off < 0 || off >= strings.end()) {
            return self();
        }
        StringTable t = strings.tableOf(off);
        byte[] d = t.bytes();
        for (int i = off - t.start(); i < d.length && d[i] != 0; i++) {
            ch(d[i]);
        }
        return self();
    }

    /** Unsigned 32-bit decimal. */
    public final T u32(int v) {
        return u64(v & 0xffffffffL);
    }

    /** Signed 64-bit decimal. */
    public final T dec(long v) {
        if (v < 0) {
            ch('-');
            // -v overflows only for Long.MIN_VALUE, whose unsigned reading is its magnitude
            return u64(-v);
        }
        return u64(v);
    }

    /** Unsigned 64-bit decimal. */
    public final T u64(long v) {
        int i = digits.length;
        do {
            long q = Long.divideUnsigned(v, 10);
            digits[--i] = (byte) ('0' + (v - q * 10));
            v = q;
        } while (v != 0);
        while (i < digits.length) {
            ch(digits[i++]);
        }
        return self();
    }

    private void drain() {
        try {
            os.write(buf, 0, n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        n = 0;
    }

    /** Writes what is buffered and flushes the stream. */
    public final void flush() {
        drain();
        try {
            os.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
