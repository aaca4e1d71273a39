package io.btfkit.cli;

/** btfkit's exit statuses (DESIGN §6). */
final class ExitCodes {
    static final int OK = 0;
    /** The operation failed on valid input (a relocation without a match, a validation finding). */
    static final int FAILED = 1;
    /**
     * {@code core-check}: no relocation fails, but libbpf poisons some instructions; the program
     * loads only if they cannot run (guarded).
     */
    static final int POISONED = 3;
    /** Usage error or malformed input. */
    static final int BAD_INPUT = 2;
    /** A bug in btfkit: reported in one line, never as a stack trace unless BTFKIT_DEBUG is set. */
    static final int INTERNAL = 70;

    private ExitCodes() {
    }
}
