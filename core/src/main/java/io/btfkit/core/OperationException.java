package io.btfkit.core;

/**
 * A well-formed input on which the requested operation cannot be done (a relocation without a
 * match, an invalid permutation): exit status 1, unlike malformed input (2).
 */
public class OperationException extends BtfException {
    private static final long serialVersionUID = 1L;

    public OperationException(String message) {
        super(message);
    }
}
