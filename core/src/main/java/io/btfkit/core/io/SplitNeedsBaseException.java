package io.btfkit.core.io;

import io.btfkit.core.BtfFormatException;

/**
 * Raw BTF that does not read on its own and looks split (its strings do not start with the empty
 * string): the message asks for its base. A command that knows which base the input needs (a
 * distilled one, for relocate) catches it to say so in its own words.
 */
public final class SplitNeedsBaseException extends BtfFormatException {
    private static final long serialVersionUID = 1L;

    SplitNeedsBaseException(String message, Throwable cause) {
        super(message, cause);
    }
}
