package io.btfkit.cli;

import io.btfkit.core.BtfFormatException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * An output that could not be written: {@code btfkit: OUT: cannot write: REASON}, with the OS's
 * reason and the user's path (never a temporary file's). Exit status 2 in single and batch mode
 * alike: the environment (permissions, a full disk) is wrong, not the input.
 */
final class WriteException extends FileException {
    private static final long serialVersionUID = 1L;

    WriteException(Path file, String reason, IOException cause) {
        super(file, new BtfFormatException("cannot write: " + reason, cause));
    }

    WriteException(Path file, IOException cause) {
        this(file, io.btfkit.core.io.IoErrors.reason(cause), cause);
    }

    @Override
    int exitCode() {
        return ExitCodes.BAD_INPUT;
    }
}
