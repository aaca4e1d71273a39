package io.btfkit.core.json;

/**
 * A small streaming JSON writer for btfkit's reports (diff, stats): objects, arrays, strings,
 * numbers, booleans and null, pretty-printed with two-space indentation (four in
 * {@link #expanded()}, as {@code bpftool -p} indents) and a final newline, so
 * equal reports print byte-identical text. Containers nested deeper than a chosen depth are
 * written on one line ({@code {"a": 1, "b": [2, 3]}}), so a long list of records prints one
 * record per line.
 *
 * <p>Strings are escaped as RFC 8259 requires: {@code "} and {@code \} with a backslash, the
 * control characters below U+0020 as {@code \b \f \n \r \t} or {@code \}{@code u00XX}; everything
 * else (non-ASCII included) is written as is. Numbers are written from their decimal text, so
 * unsigned 64-bit values stay exact. The caller keeps the nesting right; the writer only tracks
 * where commas and line breaks go.
 */
public final class JsonWriter {
    private final StringBuilder out = new StringBuilder(4096);
    /** Containers opened at this depth or deeper are written on one line. */
    private final int inlineDepth;
    private final String indent;
    /** Per open container: whether it has an element yet. */
    private boolean[] hasElement = new boolean[16];
    private int depth;
    private boolean afterName;

    /** Every container on its own lines. */
    public JsonWriter() {
        this(Integer.MAX_VALUE);
    }

    /** Containers opened at nesting depth {@code inlineDepth} or deeper (the outermost is 0) go on one line. */
    public JsonWriter(int inlineDepth) {
        this(inlineDepth, 2);
    }

    private JsonWriter(int inlineDepth, int indentWidth) {
        this.inlineDepth = inlineDepth;
        this.indent = " ".repeat(indentWidth);
    }

    /** Every container on its own lines, indented by four spaces as {@code bpftool -p} indents (the {@code --pretty} form). */
    public static JsonWriter expanded() {
        return new JsonWriter(Integer.MAX_VALUE, 4);
    }

    public JsonWriter beginObject() {
        return open('{');
    }

    public JsonWriter endObject() {
        return close('}');
    }

    public JsonWriter beginArray() {
        return open('[');
    }

    public JsonWriter endArray() {
        return close(']');
    }

    /** The name of the next member of the current object. */
    public JsonWriter name(String name) {
        element();
        quote(name);
        out.append(": ");
        afterName = true;
        return this;
    }

    public JsonWriter value(String s) {
        if (s == null) {
            return nullValue();
        }
        element();
        quote(s);
        return this;
    }

    public JsonWriter value(long v) {
        element();
        out.append(v);
        return this;
    }

    public JsonWriter value(boolean v) {
        element();
        out.append(v);
        return this;
    }

    /** A number given as its decimal text (e.g. an unsigned 64-bit value); not checked. */
    public JsonWriter number(String decimal) {
        if (decimal == null) {
            return nullValue();
        }
        element();
        out.append(decimal);
        return this;
    }

    public JsonWriter nullValue() {
        element();
        out.append("null");
        return this;
    }

    /** Shorthand for {@code name(n).value(s)}. */
    public JsonWriter field(String n, String s) {
        return name(n).value(s);
    }

    public JsonWriter field(String n, long v) {
        return name(n).value(v);
    }

    public JsonWriter field(String n, boolean v) {
        return name(n).value(v);
    }

    /** The document written so far, with a final newline once the outermost value is closed. */
    @Override
    public String toString() {
        return depth == 0 && out.length() > 0 ? out + "\n" : out.toString();
    }

    private JsonWriter open(char c) {
        element();
        out.append(c);
        if (depth == hasElement.length) {
            hasElement = java.util.Arrays.copyOf(hasElement, depth * 2);
        }
        hasElement[depth++] = false;
        return this;
    }

    private JsonWriter close(char c) {
        if (depth == 0) {
            throw new IllegalStateException("nothing to close");
        }
        boolean any = hasElement[--depth];
        if (any && depth < inlineDepth) {
            newline();
        }
        out.append(c);
        return this;
    }

    /** Comma and line break before a value or name, unless the value follows its name. */
    private void element() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (depth > 0) {
            if (hasElement[depth - 1]) {
                out.append(',');
                if (depth > inlineDepth) {
                    out.append(' ');
                }
            }
            hasElement[depth - 1] = true;
            if (depth <= inlineDepth) {
                newline();
            }
        }
    }

    private void newline() {
        out.append('\n');
        for (int i = 0; i < depth; i++) {
            out.append(indent);
        }
    }

    private void quote(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
