package io.btfkit.cli;

import io.btfkit.core.io.IoErrors;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The one output that lands without a rename ({@link Outputs}, GUIDE: Outputs): bytes made ready
 * in a temporary file elsewhere, copied into an existing file whose directory refuses new files.
 *
 * <p>What it keeps safe: a full disk must not damage the old file (it used to be truncated, then
 * the copy failed with ENOSPC). So nothing is truncated first: the part past the old end is
 * written first, which reserves its space — a failure there cuts the file back to its old length
 * with its old bytes untouched — then the old bytes are overwritten, which needs no new space on
 * a file system that overwrites in place (ext4, xfs, tmpfs), then the file is cut to its new
 * length. What it cannot keep safe, and says so when it happens: a kill during the overwrite, or
 * a copy-on-write file system (btrfs) that runs out of space during the overwrite.
 */
final class InPlaceCopy {
    private InPlaceCopy() {
    }

    /** Copies {@code from} into {@code file} ({@code shown}: the path the user gave, for messages). */
    static void copy(Path from, Path file, Path shown) {
        try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
                FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
            long newSize = in.size();
            long oldSize = out.size();
            if (newSize > oldSize) {
                try {
                    copyRange(in, out, oldSize, newSize - oldSize);
                    out.force(false); // the space is taken now, not at write-back
                } catch (IOException e) {
                    cutBack(out, oldSize);
                    throw new WriteException(shown, IoErrors.reason(e) + " (rewriting it in place needs " + (newSize - oldSize)
                            + " more bytes, " + free(file) + " free; it is unchanged)", e);
                }
            }
            try {
                copyRange(in, out, 0, Math.min(oldSize, newSize));
                if (newSize < oldSize) {
                    out.truncate(newSize);
                }
            } catch (IOException e) {
                throw new WriteException(shown, IoErrors.reason(e) + " (while it was rewritten in place: it is left partly"
                        + " written)", e);
            }
        } catch (IOException e) {
            throw new WriteException(shown, e);
        }
    }

    private static void copyRange(FileChannel in, FileChannel out, long at, long count) throws IOException {
        out.position(at);
        for (long done = 0; done < count; ) {
            long n = in.transferTo(at + done, count - done, out);
            if (n <= 0) {
                throw new IOException("the temporary copy ended early");
            }
            done += n;
        }
    }

    private static void cutBack(FileChannel out, long size) {
        try {
            out.truncate(size);
        } catch (IOException e) {
            // the old bytes are untouched either way; only its length may stay longer
        }
    }

    private static String free(Path file) {
        try {
            return Long.toString(Files.getFileStore(file).getUsableSpace());
        } catch (IOException e) {
            return "an unknown number of bytes";
        }
    }
}
