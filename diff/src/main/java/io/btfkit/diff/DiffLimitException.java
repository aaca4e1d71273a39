package io.btfkit.diff;

import io.btfkit.core.OperationException;

/**
 * The diff would pass one of its bounds (spelling work, flattened members, report size): it
 * stops with this instead of running on (exit 1), and says which input asked for the work.
 */
public final class DiffLimitException extends OperationException {
    private static final long serialVersionUID = 1L;
    private final int side;

    /** @param side 0 when input a asked for the work, 1 for input b, -1 for the pair */
    DiffLimitException(int side, String message) {
        super(message);
        this.side = side;
    }

    /** 0: input a; 1: input b; -1: the two together. */
    public int side() {
        return side;
    }
}
