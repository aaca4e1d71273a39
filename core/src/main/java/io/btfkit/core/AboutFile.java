package io.btfkit.core;

import java.nio.file.Path;

/**
 * Marks an exception about one input file that it names itself: thrown where the caller that
 * knows the file is long gone (e.g. {@link io.btfkit.core.io.LoadedInput#btf()}), the command
 * line reports it as {@code btfkit: FILE: message} all the same.
 */
public interface AboutFile {
    /** The file the message is about. */
    Path file();

    /** Malformed input, naming its file. */
    final class Format extends BtfFormatException implements AboutFile {
        private static final long serialVersionUID = 1L;
        private final transient Path file;

        public Format(Path file, BtfFormatException cause) {
            super(cause.getMessage(), cause);
            this.file = file;
        }

        @Override
        public Path file() {
            return file;
        }
    }

    /** An operation impossible on valid input, naming its file. */
    final class Operation extends OperationException implements AboutFile {
        private static final long serialVersionUID = 1L;
        private final transient Path file;

        public Operation(Path file, String message, Throwable cause) {
            super(message);
            if (cause != null) {
                initCause(cause);
            }
            this.file = file;
        }

        @Override
        public Path file() {
            return file;
        }
    }
}
