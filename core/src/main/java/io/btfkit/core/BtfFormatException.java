package io.btfkit.core;

/**
 * Input that is not well-formed BTF (or ELF, text, compressed data): the message says what is
 * wrong and where (byte offset, type id or line), without the file name, which the CLI adds.
 */
public class BtfFormatException extends BtfException {
    private static final long serialVersionUID = 1L;

    public BtfFormatException(String message) {
        super(message);
    }

    public BtfFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
