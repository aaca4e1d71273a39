package io.btfkit.core.io;

import io.btfkit.core.BaseMismatchException;
import io.btfkit.core.Btf;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.BtfHeader;
import io.btfkit.core.BtfReader;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads any input btfkit accepts, detected by content (never by name): compressed data (xz,
 * zstd, gzip) is unwrapped first, and an x86 kernel image (bzImage) yields its vmlinux; then
 * raw BTF (either byte order), ELF (its .BTF, .BTF.ext and .BTF.base sections) or bpftool raw
 * text.
 *
 * <p>Raw BTF (a file or an ELF {@code .BTF} section) may be several blobs back to back, as
 * {@code ld -r} leaves the sections of {@code gcc -gbtf} objects: every blob is read, as one
 * unit each ({@link #readRawUnits}); zero bytes between or after blobs are alignment padding.
 * At most {@link #MAX_UNITS} of them.
 */
public final class InputLoader {
    /**
     * The default input cap ({@link InputLimits#DEFAULT}); the cap in force is
     * {@link InputLimits#maxBytes()}.
     */
    public static final long MAX_FILE = InputLimits.DEFAULT;

    /**
     * Most BTF blobs one input may hold back to back (units: {@code ld -r} of gcc objects leaves
     * one per compilation unit; a whole kernel has a few thousand).
     */
    public static final int MAX_UNITS = 1 << 16;

    private InputLoader() {
    }

    /**
     * Reads the whole file, turning I/O failures into a clear error: its first bytes are judged
     * before the rest is read ({@link InputHead}: {@code /dev/zero} is refused after 64 KiB),
     * and it may not pass the input cap ({@link InputLimits}), checked before reading a regular
     * file and while reading anything else (a pipe, a device, /proc).
     */
    public static byte[] readFile(Path path) {
        long cap = InputLimits.maxBytes();
        try {
            return FileBytes.read(path, cap, InputHead.LENGTH, (head, n) -> InputHead.check(head, n, cap, null));
        } catch (NoSuchFileException e) {
            throw new BtfFormatException("no such file");
        } catch (IOException e) {
            // the OS's reason, not NIO's message (which for a refused open is just the path)
            throw new BtfFormatException("cannot read: " + IoErrors.reason(e)
                    + (e.getMessage() != null && e.getMessage().contains("-byte limit") ? "; " + InputLimits.howToRaise() : ""), e);
        }
    }

    /** {@link #readFile} for a stream (standard input): judged by its first bytes, bounded while read. */
    public static byte[] readStream(java.io.InputStream in) {
        long cap = InputLimits.maxBytes();
        try {
            return FileBytes.read(in, cap, InputHead.LENGTH, (head, n) -> InputHead.check(head, n, cap, null));
        } catch (IOException e) {
            throw new BtfFormatException("cannot read: " + IoErrors.reason(e)
                    + (e.getMessage() != null && e.getMessage().contains("-byte limit") ? "; " + InputLimits.howToRaise() : ""), e);
        }
    }

    /** Loads {@code path}; split inputs are read on {@code base} (may be null). */
    public static LoadedInput load(Path path, Btf base) {
        return load(path, readFile(path), base);
    }

    public static LoadedInput load(Path path, byte[] data, Btf base) {
        long cap = InputLimits.maxBytes();
        InputHead.check(data, Math.min(data.length, InputHead.LENGTH), cap, null);
        Decompressor.Format compression = Decompressor.detect(data);
        if (compression != null) {
            data = Decompressor.decompress(data, 0, data.length, compression, false, cap, compression.label() + " data");
        }
        if (TarArchive.accepts(data)) {
            TarArchive.Extracted member = TarArchive.onlyMember(data, compression == null ? "tar archive"
                    : compression.label() + " data (a tar archive)");
            data = member.bytes();
            InputHead.check(data, Math.min(data.length, InputHead.LENGTH), cap, "tar member '" + io.btfkit.core.Printable.name(member.name()) + "'");
        }
        if (BzImage.accepts(data)) {
            data = BzImage.vmlinux(data, cap);
        }
        if (BtfHeader.detect(data, 0, data.length) != null) {
            return new LoadedInput(path, LoadedInput.Source.RAW, compression, readRawUnits(data, base), null, null, null);
        }
        for (ContainerReader r : ContainerReader.all()) {
            if (r.accepts(data)) {
                return r.read(path, data, base, compression);
            }
        }
        throw new BtfFormatException("not BTF, ELF, compressed data or BTF text (starts with " + hexPrefix(data) + ")");
    }

    /** Raw BTF, with a hint when a split BTF was given without its base. */
    public static Btf readRaw(byte[] data, Btf base) {
        return readRaw(data, 0, data.length, base);
    }

    private static Btf readRaw(byte[] data, int from, int len, Btf base) {
        try {
            return readBlob(data, from, len, base);
        } catch (BtfFormatException e) {
            if (base == null && looksSplit(data, from, len)) {
                throw new SplitNeedsBaseException(e.getMessage() + " (this looks like split BTF: give its base with --base)", e);
            }
            throw e;
        }
    }

    /**
     * The one raw BTF blob in the first {@code len} bytes of {@code data} (zero padding may
     * follow it), read exactly as {@link #load} reads a raw file; nothing read keeps a reference
     * to {@code data}, so the caller may reuse it as a buffer.
     *
     * @throws BtfFormatException when those bytes are not one well-formed blob
     */
    public static Btf readOneBlob(byte[] data, int len, Btf base) {
        return readBlob(data, 0, len, base, null);
    }

    /**
     * {@link #readOneBlob} of the {@code len} bytes at {@code data[off]} (an ELF file's
     * {@code .BTF} section in the file's bytes), its type words in {@code scratch}'s array when
     * that is not null ({@link BtfReader.Scratch}: the BTF must not be used once the scratch is
     * read into again).
     */
    public static Btf readOneBlob(byte[] data, int off, int len, Btf base, BtfReader.Scratch scratch) {
        return readBlob(data, off, len, base, scratch);
    }

    /**
     * {@link #readOneBlob} for a standalone blob, into {@code scratch}'s arrays (see
     * {@link BtfReader.Scratch}: the BTF must not be used once the scratch is read into again).
     */
    public static Btf readOneStandaloneBlob(byte[] data, int len, BtfReader.Scratch scratch) {
        return BtfReader.read(data, 0, len, null, scratch);
    }

    /**
     * Every BTF blob of {@code data}, in order: one for ordinary raw BTF (read exactly as
     * {@link #readRaw} does), several when blobs follow each other (possibly after zero
     * padding). Anything after the last blob other than zero bytes is an error.
     */
    public static List<Btf> readRawUnits(byte[] data, Btf base) {
        return readRawUnits(data, 0, data.length, base);
    }

    /**
     * {@link #readRawUnits(byte[], Btf)} of the {@code len} bytes at {@code data[from]} (an ELF
     * section in place), offsets in messages counted from {@code from}; nothing read keeps a
     * reference to {@code data}.
     */
    public static List<Btf> readRawUnits(byte[] data, int from, int len, Btf base) {
        int to = from + len;
        if (nextBlob(data, from, from, to) < 0) {
            return List.of(readRaw(data, from, len, base));
        }
        refuseFlood(data, from, to);
        List<Btf> units = new ArrayList<>();
        int at = from;
        while (at >= 0) {
            int off = at;
            int k = units.size() + 1;
            try {
                BtfHeader h = BtfHeader.parse(data, off, to - off);
                units.add(readBlob(data, off, (int) h.blobLength(), base));
                at = nextBlob(data, off, from, to);
            } catch (BaseMismatchException e) {
                throw new BaseMismatchException(e.base(), "blob " + k + " at offset " + (off - from) + ": " + e.evidence());
            } catch (BtfFormatException e) {
                throw new BtfFormatException("blob " + k + " at offset " + (off - from) + ": " + e.getMessage(), e);
            }
        }
        return units;
    }

    /**
     * Refuses more than {@link #MAX_UNITS} blobs before any is read: each becomes a unit with a
     * {@code Btf} of its own, and a 25-byte empty blob costs far more than 25 bytes once read (a
     * 9.9 KB xz of 2.7 million of them took {@code validate} 90 s and 1.9 GB). Counting stops at
     * the first blob past the limit; a malformed one ends the count and is reported by the reader.
     */
    private static void refuseFlood(byte[] data, int from, int to) {
        int count = 0;
        int at = from;
        try {
            while (at >= 0) {
                if (++count > MAX_UNITS) {
                    throw new BtfFormatException("more than " + MAX_UNITS + " BTF blobs back to back (blob "
                            + count + " at offset " + (at - from) + "); one input may hold at most " + MAX_UNITS + " units");
                }
                at = nextBlob(data, at, from, to);
            }
        } catch (BtfFormatException e) {
            if (count > MAX_UNITS) {
                throw e;
            }
        }
    }

    /**
     * Offset of the BTF blob that follows the one at {@code off} (after zero padding), or -1 when
     * only zero bytes follow, or when the blob at {@code off} is malformed or followed by other
     * bytes (the reader then reports it).
     */
    private static int nextBlob(byte[] data, int off, int from, int to) {
        long end;
        try {
            end = off + BtfHeader.parse(data, off, to - off).blobLength();
        } catch (BtfFormatException e) {
            return -1;
        }
        int p = (int) end;
        while (p < to && data[p] == 0) {
            p++;
        }
        if (p == to) {
            return -1;
        }
        if (BtfHeader.detect(data, p, to - p) == null) {
            if (off > from) {
                throw new BtfFormatException((to - end) + " bytes follow it at offset " + (end - from)
                        + " that are neither zero padding nor another BTF blob (non-zero byte at offset " + (p - from) + ")");
            }
            return -1;
        }
        return p;
    }

    /**
     * One blob, split on {@code base} when one is given — except standalone BTF: with a base, a
     * blob whose string section starts with NUL (as a standalone one must; split BTF from pahole,
     * libbpf or btfkit never does) and that reads on its own is read standalone, whatever names of
     * the base its offsets happen to hit. The caller sees a unit with no base and decides: {@code
     * link --base vmlinux} links {@code gcc -gbtf} objects onto the kernel, other commands refuse.
     */
    private static Btf readBlob(byte[] data, int off, int len, Btf base) {
        return readBlob(data, off, len, base, null);
    }

    private static Btf readBlob(byte[] data, int off, int len, Btf base, BtfReader.Scratch scratch) {
        if (base != null && stringsStartWithNul(data, off, len)) {
            try {
                return BtfReader.read(data, off, len, null);
            } catch (BtfFormatException e) {
                // not readable standalone: read it as split below
            }
        }
        return BtfReader.read(data, off, len, base, scratch);
    }

    private static boolean stringsStartWithNul(byte[] data, int off, int len) {
        try {
            BtfHeader h = BtfHeader.parse(data, off, len);
            long at = off + h.hdrLen() + h.strOff();
            return h.strLen() > 0 && at < off + len && data[(int) at] == 0;
        } catch (BtfFormatException e) {
            return false;
        }
    }

    /** A standalone string section starts with NUL; module BTF (split) usually does not. */
    private static boolean looksSplit(byte[] data, int from, int len) {
        try {
            BtfHeader h = BtfHeader.parse(data, from, len);
            long at = from + h.hdrLen() + h.strOff();
            return h.strLen() == 0 || data[(int) at] != 0;
        } catch (BtfFormatException e) {
            return false;
        }
    }

    static String hexPrefix(byte[] data) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(8, data.length); i++) {
            sb.append(String.format("%02x", data[i] & 0xff));
            if (i < Math.min(8, data.length) - 1) {
                sb.append(' ');
            }
        }
        return sb.toString();
    }
}
