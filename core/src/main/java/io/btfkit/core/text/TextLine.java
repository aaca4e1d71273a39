package io.btfkit.core.text;

import io.btfkit.core.BtfFormatException;
import io.btfkit.core.Kind;

/**
 * A cursor over one line of raw BTF text (bytes, one per character) for {@link RawTextParser}:
 * it matches the literal pieces of a line ({@code " key="}, quotes, words) and reads the
 * numbers, and phrases every mismatch as a {@link BtfFormatException} that starts with
 * {@code "line N: "} and says what was expected and what was found.
 *
 * <p>The cursor remembers what it is reading ({@link #context}, e.g. {@code "ARRAY"} or
 * {@code "STRUCT member"}) and the last field it consumed ({@link #prev}), so a missing field
 * reads as {@code "expected 'index_type_id=' after type_id of ARRAY, found 'nr_elems=3'"}.
 * Numbers are parsed in place, without a String or a regex per field.
 */
final class TextLine {
    static final long U32_MAX = 0xffffffffL;

    private byte[] d;
    /** Current position, and the end of the line (exclusive, without the newline). */
    int pos;
    int end;
    /** Where the line begins (for column numbers in messages). */
    int start;
    int lineNo;
    /** What is being read, for messages: a kind word or "STRUCT member" and the like. */
    String context;
    /** The field read last, for messages; "the name" right after a name. */
    String prev;

    void reset(byte[] data, int start, int stop, int line) {
        this.d = data;
        this.start = start;
        this.pos = start;
        this.end = stop;
        this.lineNo = line;
    }

    byte[] data() {
        return d;
    }

    BtfFormatException error(String message) {
        return error(lineNo, message);
    }

    static BtfFormatException error(int line, String message) {
        return new BtfFormatException("line " + line + ": " + message);
    }

    boolean atEnd() {
        return pos >= end;
    }

    /** Whether the bytes at the cursor are {@code lit} (ASCII). */
    boolean at(String lit) {
        return at(pos, lit);
    }

    boolean at(int p, String lit) {
        int n = lit.length();
        if (p + n > end) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (d[p + i] != (byte) lit.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Consumes {@code lit} or fails with "expected LIT WHERE, found ...". */
    void expect(String lit, String where) {
        if (!at(lit)) {
            throw error("expected '" + lit + "' " + where + ", found " + found(pos));
        }
        pos += lit.length();
    }

    /** Consumes {@code " key="} or fails naming the field expected after {@link #prev}. */
    void field(String key) {
        if (!(pos < end && d[pos] == ' ' && at(pos + 1, key) && at(pos + 1 + key.length(), "="))) {
            throw error("expected '" + key + "=' after " + prev + " of " + context + ", found " + found(pos));
        }
        pos += key.length() + 2;
        prev = key;
    }

    /** Consumes {@code "key="} at the very start of what is left (no separating space). */
    void firstField(String key) {
        if (!(at(key) && at(pos + key.length(), "="))) {
            throw error("expected '" + key + "=' at the start of " + context + ", found " + found(pos));
        }
        pos += key.length() + 1;
        prev = key;
    }

    /** Consumes {@code " key="} when it is there (optional trailing fields). */
    boolean optionalField(String key) {
        if (pos < end && d[pos] == ' ' && at(pos + 1, key) && at(pos + 1 + key.length(), "=")) {
            pos += key.length() + 2;
            prev = key;
            return true;
        }
        return false;
    }

    /** Fails unless the line is finished. */
    void expectEnd() {
        if (pos < end) {
            throw error("unexpected " + found(pos) + " after the fields of " + context);
        }
    }

    /** Describes what is at {@code p}: "end of line", "an extra space" or the quoted token there. */
    String found(int p) {
        if (p >= end) {
            return "end of line";
        }
        int s = d[p] == ' ' ? p + 1 : p;
        if (s >= end) {
            return "a trailing space";
        }
        if (d[s] == ' ') {
            return "an extra space";
        }
        return "'" + token(s) + "'";
    }

    /** The text from {@code s} to the next space or the end of line (shortened for messages). */
    String token(int s) {
        int e = s;
        while (e < end && d[e] != ' ') {
            e++;
        }
        if (e - s > 48) {
            e = s + 45;
            return latin1(s, e) + "...";
        }
        return latin1(s, e);
    }

    String latin1(int s, int e) {
        char[] c = new char[e - s];
        for (int i = s; i < e; i++) {
            c[i - s] = (char) (d[i] & 0xff);
        }
        return new String(c);
    }

    /** Reads a word up to the next space or end of line (encodings, linkages, fwd kinds). */
    int wordEnd() {
        int e = pos;
        while (e < end && d[e] != ' ') {
            e++;
        }
        return e;
    }

    boolean wordIs(int e, String w) {
        return e - pos == w.length() && at(w);
    }

    // --- numbers ---

    /** An unsigned decimal of at most {@code max} after the current key. */
    long unsigned(long max) {
        int s = pos;
        if (pos < end && d[pos] == '-') {
            throw error(prev + "=" + token(s) + " is negative; " + prev + " is unsigned");
        }
        long v = digits(s, max, false);
        endOfNumber(s);
        return v;
    }

    long u32() {
        return unsigned(U32_MAX);
    }

    /** A signed 32-bit decimal after the current key. */
    int s32() {
        int s = pos;
        boolean neg = pos < end && d[pos] == '-';
        if (neg) {
            pos++;
        }
        long v = digits(s, neg ? 0x80000000L : 0x7fffffffL, true);
        endOfNumber(s);
        return (int) (neg ? -v : v);
    }

    /**
     * Decimal digits at the cursor (at least one) whose value must not exceed {@code max}
     * (below 2^63); {@code signed32} only picks the range named in the message.
     */
    private long digits(int tokenStart, long max, boolean signed32) {
        int s = pos;
        long v = 0;
        while (pos < end && isDigit(d[pos])) {
            v = v * 10 + (d[pos] - '0');
            pos++;
            if (v > max) {
                throw error(prev + "=" + token(tokenStart) + " is out of range "
                        + (signed32 ? "-2147483648..2147483647" : "0.." + max));
            }
        }
        if (pos == s) {
            throw error("expected a number after '" + prev + "=', found " + found(tokenStart));
        }
        return v;
    }

    /**
     * A 64-bit decimal (ENUM64 values): signed when {@code signed}, else unsigned; an optional
     * {@code LL} (signed) or {@code ULL} (unsigned) suffix as bpftool prints it.
     */
    long s64OrU64(boolean signed) {
        int s = pos;
        boolean neg = pos < end && d[pos] == '-';
        if (neg) {
            if (!signed) {
                throw error(prev + "=" + token(s) + " is negative; the values of an UNSIGNED ENUM64 are unsigned");
            }
            pos++;
        }
        int ds = pos;
        long v = 0;
        while (pos < end && isDigit(d[pos])) {
            int digit = d[pos] - '0';
            if (signed) {
                // accumulate negatively so that -9223372036854775808 fits
                if (v < (Long.MIN_VALUE + digit) / 10) {
                    throw outOfRange64(s, true);
                }
                v = v * 10 - digit;
            } else {
                if (Long.compareUnsigned(v, Long.divideUnsigned(-1L - digit, 10)) > 0) {
                    throw outOfRange64(s, false);
                }
                v = v * 10 + digit;
            }
            pos++;
        }
        if (pos == ds) {
            throw error("expected a number after '" + prev + "=', found " + found(s));
        }
        if (signed) {
            if (!neg) {
                if (v == Long.MIN_VALUE) {
                    throw outOfRange64(s, true);
                }
                v = -v;
            }
            if (at("LL")) {
                pos += 2;
            }
        } else if (at("ULL")) {
            pos += 3;
        }
        endOfNumber(s);
        return v;
    }

    /** After a number only a space, a comma (VAR) or the end of line may follow. */
    private void endOfNumber(int tokenStart) {
        if (pos < end && d[pos] != ' ' && d[pos] != ',') {
            throw error(prev + "=" + token(tokenStart) + " is not a decimal number");
        }
    }

    private BtfFormatException outOfRange64(int tokenStart, boolean signed) {
        return error(prev + "=" + token(tokenStart) + " is out of range "
                + (signed ? "-9223372036854775808..9223372036854775807" : "0..18446744073709551615"));
    }

    /** A hexadecimal {@code 0xN} of at most {@code max} (the INT encoding extension). */
    long hex(long max) {
        int s = pos;
        pos += 2;
        int ds = pos;
        long v = 0;
        while (pos < end && Character.digit(d[pos], 16) >= 0) {
            v = v * 16 + Character.digit(d[pos], 16);
            pos++;
            if (v > max) {
                throw error(prev + "=" + token(s) + " is out of range 0x0..0x" + Long.toHexString(max));
            }
        }
        if (pos == ds || (pos < end && d[pos] != ' ')) {
            throw error(prev + "=" + token(s) + " is not a hexadecimal number");
        }
        return v;
    }

    // --- words of the header fields ---

    /** INT encoding word, or 0xN (extension): the 4-bit encoding value. */
    int intEncoding() {
        int e = wordEnd();
        int enc;
        if (wordIs(e, "(none)")) {
            enc = 0;
        } else if (wordIs(e, "SIGNED")) {
            enc = Kind.INT_SIGNED;
        } else if (wordIs(e, "CHAR")) {
            enc = Kind.INT_CHAR;
        } else if (wordIs(e, "BOOL")) {
            enc = Kind.INT_BOOL;
        } else if (at("0x")) {
            return (int) hex(0xf);
        } else if (wordIs(e, "UNKN")) {
            throw error("encoding=UNKN does not say which encoding the INT has; write its value as encoding=0xN");
        } else {
            throw error("expected encoding (none), SIGNED, CHAR, BOOL or 0xN, found " + found(pos));
        }
        pos = e;
        return enc;
    }

    /** ENUM/ENUM64 encoding word: true for SIGNED. */
    boolean enumSigned() {
        int e = wordEnd();
        boolean signed = wordIs(e, "SIGNED");
        if (!signed && !wordIs(e, "UNSIGNED")) {
            throw error("expected encoding=SIGNED or encoding=UNSIGNED, found " + found(pos));
        }
        pos = e;
        return signed;
    }

    /** FUNC or VAR linkage: a word of either spelling, or a decimal value (extension). */
    int linkage(boolean var) {
        int e = wordEnd();
        int l;
        if (wordIs(e, "static")) {
            l = Kind.LINKAGE_STATIC;
        } else if (wordIs(e, "global") || (var && wordIs(e, "global-alloc"))) {
            l = Kind.LINKAGE_GLOBAL;
        } else if (wordIs(e, "extern")) {
            l = Kind.LINKAGE_EXTERN;
        } else if (pos < e && isDigit(d[pos])) {
            return (int) unsigned(var ? U32_MAX : 0xffffff);
        } else if (wordIs(e, "(unknown)")) {
            throw error("linkage=(unknown) does not say which linkage the " + context
                    + " has; write its value as linkage=N");
        } else {
            throw error("expected linkage static, global, " + (var ? "global-alloc, " : "")
                    + "extern or a number, found " + found(pos));
        }
        pos = e;
        return l;
    }

    static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }
}
