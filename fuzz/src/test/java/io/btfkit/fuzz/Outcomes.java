package io.btfkit.fuzz;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.BtfReader;
import io.btfkit.core.text.RawTextParser;

/**
 * The pass/fail rule every fuzz target shares: the code under test either succeeds or rejects
 * its input with a {@link BtfException} with a message (what and where). Any other throwable
 * (IndexOutOfBounds, NegativeArraySize, OutOfMemoryError, StackOverflowError...) escapes and
 * Jazzer reports it as a finding.
 *
 * <p>Messages should also be one line, but names are quoted verbatim in them, so a type name
 * holding a newline spans lines (seed {@code crash-name-with-newline.btf}); that is checked only
 * with {@code -Dbtfkit.fuzz.oneLineMessages=true} until messages escape names.
 */
final class Outcomes {
    private Outcomes() {
    }

    /** Something the fuzz target runs; it may throw anything. */
    @FunctionalInterface
    interface Action<T> {
        T run();
    }

    /**
     * Runs {@code action}; returns its result, or null when it rejected the input cleanly.
     *
     * @throws AssertionError when the rejection's message is empty or spans several lines
     */
    static <T> T orRejected(Action<T> action) {
        try {
            return action.run();
        } catch (BtfException e) {
            checkMessage(e);
            return null;
        }
    }

    private static final boolean ONE_LINE = Boolean.getBoolean("btfkit.fuzz.oneLineMessages");

    /** A BtfException's message must say something (and, when asked, be one line). */
    static void checkMessage(BtfException e) {
        String m = e.getMessage();
        if (m == null || m.isBlank() || ONE_LINE && m.indexOf('\n') >= 0) {
            throw new AssertionError("error message must be one non-empty line, got: " + m, e);
        }
    }

    /**
     * Reads {@code data} as raw BTF text when it looks like text, otherwise as raw BTF, standalone;
     * null when it is rejected. Lets one seed corpus mix hand-written text and binary BTF.
     */
    static Btf parseAny(byte[] data) {
        return orRejected(() -> RawTextParser.looksLikeText(data) ? RawTextParser.parse(data, null) : BtfReader.read(data));
    }
}
