package io.btfkit.core;

/**
 * Base of every error btfkit reports to a user. Its message is one line that says what is wrong
 * and where; the command line adds the file name and picks the exit status from the subclass.
 */
public class BtfException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BtfException(String message) {
        super(message);
    }

    public BtfException(String message, Throwable cause) {
        super(message, cause);
    }
}
