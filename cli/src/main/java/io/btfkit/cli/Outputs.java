package io.btfkit.cli;

import io.btfkit.core.BtfFormatException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes output files atomically: the bytes go to a temporary file in the target's directory,
 * which is renamed over the target only when complete. On any failure, or when the JVM is
 * stopped (Ctrl-C), the temporary file is removed, so a failed run leaves nothing behind and
 * never a half-written output. An output is never written over an input unless asked.
 */
final class Outputs {
    private static final Set<Path> PENDING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Outputs::removePending, "btfkit-cleanup"));
    }

    private Outputs() {
    }

    /** Streams output into a temp file next to {@code out}; see {@link #write(Path, byte[], Collection, boolean)}. */
    interface Body {
        void writeTo(OutputStream os) throws IOException;
    }

    static void write(Path out, byte[] data, Collection<Path> inputs, boolean inPlace) {
        write(out, os -> os.write(data), inputs, inPlace);
    }

    static void write(Path out, Body body, Collection<Path> inputs, boolean inPlace) {
        if (!inPlace) {
            for (Path in : inputs) {
                if (in != null && sameFile(in, out)) {
                    throw new FileException(out, new BtfFormatException(
                            "output would overwrite an input; choose another -o or pass --in-place"));
                }
            }
        }
        Path abs = out.toAbsolutePath();
        Path dir = abs.getParent();
        Path tmp = null;
        try {
            if (dir != null && !Files.isDirectory(dir)) {
                throw new IOException("directory " + dir + " does not exist");
            }
            OutputStream raw = null;
            while (raw == null) {
                tmp = dir.resolve("." + abs.getFileName() + "." + Long.toUnsignedString(java.util.concurrent.ThreadLocalRandom.current().nextLong(), 36) + ".tmp");
                try {
                    // one open that creates: the file gets the mode a plain write would (0666 less
                    // the umask), and no truncation, which on ext4 would force a flush at close
                    raw = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                } catch (FileAlreadyExistsException e) {
                    tmp = null;
                }
            }
            PENDING.add(tmp);
            try (OutputStream os = new java.io.BufferedOutputStream(io.btfkit.core.io.FileBytes.chunked(raw), 1 << 16)) {
                body.writeTo(os);
            }
            try {
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
            PENDING.remove(tmp);
        } catch (IOException e) {
            throw new FileException(out, new BtfFormatException("cannot write: " + e.getMessage(), e));
        } finally {
            if (tmp != null && PENDING.remove(tmp)) {
                deleteQuietly(tmp);
            }
        }
    }

    /** Creates the batch output directory if needed. */
    static void ensureDirectory(Path dir) {
        try {
            java.nio.file.Files.createDirectories(dir);
        } catch (IOException e) {
            throw new FileException(dir, new BtfFormatException("cannot create directory: " + e.getMessage()));
        }
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
        }
    }

    private static void removePending() {
        for (Path p : PENDING) {
            deleteQuietly(p);
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // Best effort: the temp file has a dot-name next to the target; say so once.
            System.err.println("btfkit: " + p + ": could not remove temporary file: " + e.getMessage());
        }
    }
}
