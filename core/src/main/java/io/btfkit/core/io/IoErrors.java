package io.btfkit.core.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * The operating system's reason for a failed file operation, as {@code strerror} words it
 * ("Permission denied", "No space left on device"). NIO puts the file's name where the reason
 * should be for several of its exceptions ({@link AccessDeniedException}'s message is the path),
 * and a message must name the user's file, never a temporary one, so the reason is taken apart
 * from the path here.
 */
public final class IoErrors {
    private IoErrors() {
    }

    public static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "File exists";
        }
        if (e instanceof NotDirectoryException) {
            return "Not a directory";
        }
        if (e instanceof DirectoryNotEmptyException) {
            return "Directory not empty";
        }
        if (e instanceof FileSystemLoopException) {
            return "Too many levels of symbolic links";
        }
        if (e instanceof FileSystemException fse) {
            return fse.getReason() != null ? fse.getReason() : "I/O error";
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** The IOException inside {@code e}, when a writer wrapped one (see {@code ByteSink}). */
    public static IOException unwrap(UncheckedIOException e) {
        return e.getCause();
    }
}
