package io.btfkit.cli;

/**
 * A usage error a command finds in its own arguments once they are parsed (options that exclude
 * each other, a missing companion option): reported as picocli reports a parse error —
 * {@code btfkit: message} and a pointer to the command's help — with exit status 2. Unlike
 * picocli's {@code ParameterException} it needs no command-line model, so a command runs the
 * same whether its arguments came through picocli or through {@link QuickArgs}.
 */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message, null, false, false);
    }
}
