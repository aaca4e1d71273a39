package io.btfkit.cheader;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The C printer's output stream, refusing to pass more than {@code limit} bytes: the bound
 * that keeps a hostile BTF from turning a few bytes into gigabytes of padding. {@link CText}
 * writes in 64 KiB blocks, so counting here costs nothing per character.
 */
final class LimitedOutput extends FilterOutputStream {
    /** Thrown when a write would pass the limit; {@link CHeaderPrinter} turns it into a message. */
    static final class LimitReached extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LimitReached() {
            super(null, null, false, false);
        }
    }

    final long limit;
    private long written;

    LimitedOutput(OutputStream os, long limit) {
        super(os);
        this.limit = limit;
    }

    @Override
    public void write(int b) throws IOException {
        reserve(1);
        out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        reserve(len);
        out.write(b, off, len);
    }

    private void reserve(int len) {
        if (len > limit - written) {
            throw new LimitReached();
        }
        written += len;
    }
}
