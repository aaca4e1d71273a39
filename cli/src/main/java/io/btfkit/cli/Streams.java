package io.btfkit.cli;

import java.io.OutputStream;
import java.io.PrintWriter;

/**
 * The byte stream data output goes to and the writer messages go to, for the command running
 * on this thread (stdout/stderr normally; buffers in tests).
 */
final class Streams {
    private static final ThreadLocal<OutputStream> OUT = new InheritableThreadLocal<>();
    private static final ThreadLocal<PrintWriter> ERR = new InheritableThreadLocal<>();

    private Streams() {
    }

    static void set(OutputStream out, PrintWriter err) {
        OUT.set(out);
        ERR.set(err);
    }

    static void clear() {
        OUT.remove();
        ERR.remove();
    }

    static OutputStream out() {
        OutputStream o = OUT.get();
        return o != null ? o : System.out;
    }

    static PrintWriter err() {
        PrintWriter e = ERR.get();
        return e != null ? e : new PrintWriter(System.err, true);
    }
}
