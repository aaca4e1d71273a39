package io.btfkit.cli;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Runs btfkit in-process and captures what it prints. */
final class Cli {
    final int exit;
    final byte[] out;
    final String err;

    private Cli(int exit, byte[] out, String err) {
        this.exit = exit;
        this.out = out;
        this.err = err;
    }

    static Cli run(String... args) {
        return runWithStdin(null, args);
    }

    /** Runs btfkit with {@code stdin} as standard input (null: none given). */
    static Cli runWithStdin(byte[] stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, stdin == null ? null : new java.io.ByteArrayInputStream(stdin), out, err);
        return new Cli(exit, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    String outText() {
        return new String(out, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "exit " + exit + ", stderr: " + err;
    }
}
