package io.btfkit.cli;

/** Ends a command with a given exit status after it has already reported why on stderr. */
final class CommandFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int exitCode;

    CommandFailedException(int exitCode) {
        super(null, null, false, false);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
