package io.btfkit.core.cdump;

import io.btfkit.core.StringTable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * The byte sink of the C printer: ASCII literals, names copied byte for byte from the string
 * table (so non-UTF-8 names survive unchanged), decimal numbers, and indentation. Buffered in
 * 64 KiB blocks; nothing is allocated per call.
 */
final class CText {
    /** libbpf indents with at most this many tabs, however deep the nesting. */
    static final int MAX_INDENT = 13;

    private final OutputStream os;
    private final byte[] buf = new byte[1 << 16];
    private final byte[] digits = new byte[20];
    private int n;

    CText(OutputStream os) {
        this.os = os;
    }

    CText ch(int c) {
        if (n == buf.length) {
            drain();
        }
        buf[n++] = (byte) c;
        return this;
    }

    /** A string of chars 0-255, one byte each (names are held this way, see {@link Naming}). */
    CText str(String s) {
        int len = s.length();
        if (len > buf.length - n) {
            drain();
            if (len > buf.length) {
                for (int i = 0; i < len; i++) {
                    ch(s.charAt(i));
                }
                return this;
            }
        }
        for (int i = 0; i < len; i++) {
            buf[n + i] = (byte) s.charAt(i);
        }
        n += len;
        return this;
    }

    /** The string at {@code off} of {@code strings}, byte for byte (nothing for an offset out of range). */
    CText name(StringTable strings, int off) {
        if (off < 0 || off >= strings.end()) {
            return this;
        }
        StringTable t = strings.tableOf(off);
        byte[] d = t.bytes();
        for (int i = t.localIndex(off); i < d.length && d[i] != 0; i++) {
            ch(d[i]);
        }
        return this;
    }

    /** {@code lvl} tabs, capped at {@link #MAX_INDENT}. */
    CText indent(int lvl) {
        for (int i = Math.min(lvl, MAX_INDENT); i > 0; i--) {
            ch('\t');
        }
        return this;
    }

    /** Signed 64-bit decimal. */
    CText dec(long v) {
        if (v < 0) {
            ch('-');
            return u64(-v);
        }
        return u64(v);
    }

    /** Unsigned 64-bit decimal. */
    CText u64(long v) {
        int i = digits.length;
        do {
            long q = Long.divideUnsigned(v, 10);
            digits[--i] = (byte) ('0' + (v - q * 10));
            v = q;
        } while (v != 0);
        while (i < digits.length) {
            ch(digits[i++]);
        }
        return this;
    }

    /** Unsigned 32-bit decimal. */
    CText u32(int v) {
        return u64(v & 0xffffffffL);
    }

    private void drain() {
        try {
            os.write(buf, 0, n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        n = 0;
    }

    void flush() {
        drain();
        try {
            os.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
