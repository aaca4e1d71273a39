package io.btfkit.cli;

import java.nio.file.Path;

/**
 * File names as messages print them: unchanged unless the name holds a character that would
 * break the one-line message or act on the terminal (a control character: newline, ESC, DEL,
 * C1 controls); then it is written in bash's ANSI-C quoting, {@code $'a\nb'}, which a shell
 * reads back as the same name (the quoting GNU ls and coreutils use, applied only when needed).
 * {@code -} is standard input.
 */
final class Names {
    private Names() {
    }

    static String quote(Path p) {
        return p == null ? "?" : quote(p.toString());
    }

    /** As {@link #quote(Path)}, for an output: {@code -} is standard output. */
    static String output(Path p) {
        return Inputs.isStdin(p) ? "stdout" : quote(p);
    }

    static String quote(String name) {
        if (name.equals("-")) {
            return "stdin";
        }
        if (!needsQuoting(name)) {
            return name;
        }
        StringBuilder b = new StringBuilder(name.length() + 8).append("$'");
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                case 0x1b -> b.append("\\e");
                case '\\' -> b.append("\\\\");
                case '\'' -> b.append("\\'");
                default -> {
                    if (isControl(c)) {
                        b.append(c < 0x80 ? String.format("\\x%02x", (int) c) : String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('\'').toString();
    }

    private static boolean needsQuoting(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (isControl(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f);
    }
}
