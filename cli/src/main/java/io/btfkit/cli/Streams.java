package io.btfkit.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;

/**
 * The byte streams data comes from ({@code -} as an input) and goes to, and the writer messages
 * go to, for the command running on this thread (stdin/stdout/stderr normally; buffers in
 * tests). The data output remembers its first write error, so that a command whose printing
 * swallows errors (a {@link PrintWriter}) still fails with the OS's reason
 * ({@code btfkit: stdout: No space left on device}).
 */
final class Streams {
    private static final ThreadLocal<Guarded> OUT = new InheritableThreadLocal<>();
    private static final ThreadLocal<PrintWriter> ERR = new InheritableThreadLocal<>();
    private static final ThreadLocal<InputStream> IN = new InheritableThreadLocal<>();

    private Streams() {
    }

    static void set(OutputStream out, PrintWriter err) {
        set(null, out, err);
    }

    static void set(InputStream in, OutputStream out, PrintWriter err) {
        OUT.set(new Guarded(out));
        ERR.set(err);
        if (in != null) {
            IN.set(in);
        } else {
            IN.remove();
        }
    }

    static void clear() {
        OUT.remove();
        ERR.remove();
        IN.remove();
    }

    static OutputStream out() {
        OutputStream o = OUT.get();
        return o != null ? o : System.out;
    }

    static InputStream in() {
        InputStream i = IN.get();
        return i != null ? i : System.in;
    }

    static PrintWriter err() {
        PrintWriter e = ERR.get();
        return e != null ? e : new PrintWriter(System.err, true);
    }

    /** The first error writing the data output of this thread's command, or null. */
    static IOException outError() {
        Guarded g = OUT.get();
        return g == null ? null : g.error;
    }

    /** An output stream that records the first IOException it passes on. */
    private static final class Guarded extends FilterOutputStream {
        volatile IOException error;

        Guarded(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                throw record(e);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw record(e);
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                throw record(e);
            }
        }

        @Override
        public void close() throws IOException {
            flush(); // stdout stays open for the next command of the process
        }

        private IOException record(IOException e) {
            if (error == null) {
                error = e;
            }
            return e;
        }
    }
}
