package io.btfkit.core.text;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * A small buffered byte writer for the printers: ASCII literals, decimal numbers formatted
 * without garbage, and raw bytes. One {@code write} per 64 KiB.
 */
final class ByteOut {
    private final OutputStream os;
    private final byte[] buf = new byte[1 << 16];
    private final byte[] digits = new byte[20];
    private int n;

    ByteOut(OutputStream os) {
        this.os = os;
    }

    ByteOut b(int c) {
        if (n == buf.length) {
            drain();
        }
        buf[n++] = (byte) c;
        return this;
    }

    /** An ASCII string. */
    ByteOut str(String s) {
        for (int i = 0; i < s.length(); i++) {
            b(s.charAt(i));
        }
        return this;
    }

    /** Unsigned 32-bit decimal. */
    ByteOut u32(int v) {
        return dec(v & 0xffffffffL);
    }

    /** Signed 64-bit decimal. */
    ByteOut dec(long v) {
        if (v < 0) {
            b('-');
            // -v overflows only for Long.MIN_VALUE, whose unsigned reading is its magnitude
            return u64(-v);
        }
        return u64(v);
    }

    /** Unsigned 64-bit decimal. */
    ByteOut u64(long v) {
        int i = digits.length;
        do {
            long q = Long.divideUnsigned(v, 10);
            digits[--i] = (byte) ('0' + (v - q * 10));
            v = q;
        } while (v != 0);
        while (i < digits.length) {
            b(digits[i++]);
        }
        return this;
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
