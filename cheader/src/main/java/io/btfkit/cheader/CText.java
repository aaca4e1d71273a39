package io.btfkit.cheader;

import io.btfkit.core.ByteSink;
import io.btfkit.core.StringTable;
import java.io.OutputStream;

/**
 * The byte sink of the C printer: ASCII literals, names copied byte for byte from the string
 * table (so non-UTF-8 names survive unchanged), decimal numbers, and indentation. Buffered in
 * 64 KiB blocks; nothing is allocated per call.
 */
final class CText extends ByteSink<CText> {
    /** libbpf indents with at most this many tabs, however deep the nesting. */
    static final int MAX_INDENT = 13;

    CText(OutputStream os) {
        super(os);
    }

    /** The string at {@code off} of {@code strings}, byte for byte (nothing for an offset out of range). */
    CText name(StringTable strings, int off) {
        return bytesAt(strings, off);
    }

    /** {@code lvl} tabs, capped at {@link #MAX_INDENT}. */
    CText indent(int lvl) {
        for (int i = Math.min(lvl, MAX_INDENT); i > 0; i--) {
            ch('\t');
        }
        return this;
    }
}
