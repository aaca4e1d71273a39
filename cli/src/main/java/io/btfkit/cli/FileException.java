package io.btfkit.cli;

import io.btfkit.core.BtfException;
import io.btfkit.core.OperationException;
import java.nio.file.Path;

/** A {@link BtfException} tied to the file it is about, reported as {@code btfkit: FILE: message}. */
class FileException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Path file;

    FileException(Path file, BtfException cause) {
        super(cause.getMessage(), cause);
        this.file = file;
    }

    Path file() {
        return file;
    }

    /** 1 when the input was valid but the operation impossible, 2 when the input is malformed. */
    int exitCode() {
        return getCause() instanceof OperationException ? ExitCodes.FAILED : ExitCodes.BAD_INPUT;
    }
}
