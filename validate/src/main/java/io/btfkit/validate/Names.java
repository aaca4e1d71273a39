package io.btfkit.validate;

import io.btfkit.core.StringTable;

/**
 * The kernel's name syntax rules, checked on the string table's bytes without decoding them.
 * The kernel classifies bytes with its own Latin-1 {@code ctype} table, so bytes 0xC0-0xFF
 * (except 0xD7 and 0xF7) count as letters and 0xA0-0xFF as printable; this class mirrors that
 * table so a name passes here exactly when it passes in the kernel.
 */
final class Names {
    /** KSYM_NAME_LEN: longest name the kernel accepts. */
    static final int MAX_LENGTH = 512;

    private static final byte ALPHA = 1;
    private static final byte DIGIT = 2;
    private static final byte PRINT = 4;
    private static final byte[] CLASS = new byte[256];

    static {
        for (int c = 32; c < 127; c++) {
            CLASS[c] |= PRINT;
        }
        for (int c = 160; c < 256; c++) {
            CLASS[c] |= PRINT;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            CLASS[c] |= ALPHA;
            CLASS[c - 'a' + 'A'] |= ALPHA;
        }
        for (int c = '0'; c <= '9'; c++) {
            CLASS[c] |= DIGIT;
        }
        for (int c = 0xc0; c < 256; c++) {
            if (c != 0xd7 && c != 0xf7) {
                CLASS[c] |= ALPHA;
            }
        }
    }

    private Names() {
    }

    /** Whether the string at valid offset {@code off} is empty. */
    static boolean isEmpty(StringTable strings, int off) {
        return strings.isEmptyAt(off);
    }

    /**
     * A C-style identifier as the kernel allows it: a letter, '_' or '.', then letters, digits,
     * '_' or '.', at most {@link #MAX_LENGTH} bytes. The offset must be valid.
     */
    static boolean isIdentifier(StringTable strings, int off) {
        StringTable t = strings.tableOf(off);
        byte[] d = t.bytes();
        int i = off - t.start();
        int c = d[i] & 0xff;
        if ((CLASS[c] & ALPHA) == 0 && c != '_' && c != '.') {
            return false;
        }
        int limit = i + MAX_LENGTH;
        i++;
        while (i < d.length && d[i] != 0 && i < limit) {
            c = d[i] & 0xff;
            if ((CLASS[c] & (ALPHA | DIGIT)) == 0 && c != '_' && c != '.') {
                return false;
            }
            i++;
        }
        return i < d.length && d[i] == 0;
    }

    /** A DATASEC name: non-empty, printable bytes only, at most {@link #MAX_LENGTH} bytes. */
    static boolean isSectionName(StringTable strings, int off) {
        StringTable t = strings.tableOf(off);
        byte[] d = t.bytes();
        int i = off - t.start();
        if (d[i] == 0) {
            return false;
        }
        int limit = i + MAX_LENGTH;
        while (i < d.length && d[i] != 0 && i < limit) {
            if ((CLASS[d[i] & 0xff] & PRINT) == 0) {
                return false;
            }
            i++;
        }
        return i < d.length && d[i] == 0;
    }
}
