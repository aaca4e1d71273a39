package io.btfkit.core;

/**
 * Makes text taken from an input safe to print in a one-line message: control bytes (a
 * newline or terminal escape inside a type name, say) are shown as {@code \xNN}.
 */
public final class Printable {
    private Printable() {
    }

    public static String oneLine(String s) {
        if (s == null) {
            return null;
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
