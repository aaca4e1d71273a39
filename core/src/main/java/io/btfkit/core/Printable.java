package io.btfkit.core;

/**
 * Makes text taken from an input safe to print in a one-line message: control bytes (a
 * newline or terminal escape inside a type name, say) are shown as {@code \xNN}, a quoted name
 * is cut after {@link #MAX_NAME} bytes ({@link #name}: one 63 MiB name used to make a 132 MB
 * warning line), and as a last resort a whole line after {@link #MAX_LINE} characters.
 */
public final class Printable {
    /** Bytes of a name a message quotes; the rest is replaced by {@code …(N bytes)}. */
    public static final int MAX_NAME = 256;
    /** Characters of one message line, whatever it quotes. */
    public static final int MAX_LINE = 16 << 10;

    private Printable() {
    }

    /** {@code s} (a name from an input) as a message quotes it: at most {@link #MAX_NAME} characters, then its length. */
    public static String name(String s) {
        if (s == null || s.length() <= MAX_NAME) {
            return s;
        }
        return s.substring(0, MAX_NAME) + cutMark(utf8Length(s));
    }

    /** What replaces the rest of a cut name or line: {@code …(N bytes)}, N the whole length. */
    public static String cutMark(long bytes) {
        return "\u2026(" + bytes + " bytes)";
    }

    private static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            n += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
        }
        return n;
    }

    public static String oneLine(String s) {
        if (s == null) {
            return null;
        }
        if (s.length() > MAX_LINE) {
            s = s.substring(0, MAX_LINE) + cutMark(utf8Length(s));
        }
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                if (b == null) {
                    b = new StringBuilder(s.length() + 8).append(s, 0, i);
                }
                b.append(String.format("\\x%02x", (int) c));
            } else if (b != null) {
                b.append(c);
            }
        }
        return b == null ? s : b.toString();
    }
}
