package io.btfkit.cli;

import io.btfkit.core.BaseMismatchException;
import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/** Loads inputs for commands, attaching the file name to any error. */
final class Inputs {
    private Inputs() {
    }

    /** The file each base given on the command line was read from, to name it in messages. */
    private static final Map<Btf, Path> BASE_FILES = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * Reads {@code file} on {@code base}; a module's {@code /sys/kernel/btf/NAME} given without a
     * base on the kernel's {@code /sys/kernel/btf/vmlinux} ({@link KernelBtf}).
     */
    static LoadedInput load(Path file, Btf base) {
        return load(file, base, false);
    }

    /**
     * {@link #load(Path, Btf)}; with a base, standalone BTF (the reader keeps it standalone: its
     * strings start with NUL and it reads on its own) is refused, as the base would be silently
     * ignored — except, when {@code linking}, {@code gcc -gbtf} output, which {@code link --base}
     * links onto the base (docs/GCC.md).
     */
    static LoadedInput load(Path file, Btf base, boolean linking) {
        LoadedInput li = loadAny(file, base);
        if (base != null) {
            for (Btf u : li.units()) {
                refuseStandalone(file, u, base, linking);
            }
        }
        return li;
    }

    /** Refuses {@code unit} read from {@code file} when a base was given and it is standalone (see {@link #load(Path, Btf, boolean)}). */
    static void refuseStandalone(Path file, Btf unit, Btf base, boolean linking) {
        if (base == null || unit.isSplit() || (linking && io.btfkit.core.io.GccSignature.isGccEncoded(unit))) {
            return;
        }
        Path baseFile = BASE_FILES.get(base);
        throw new FileException(file, new io.btfkit.core.BtfFormatException("is standalone BTF, not split BTF of "
                + (baseFile == null ? "the given base" : Names.quote(baseFile)) + " (its strings start with the empty"
                + " string and it reads without a base): drop the base"
                + (linking ? "" : io.btfkit.core.io.GccSignature.isGccEncoded(unit)
                    ? " (gcc -gbtf output: 'btfkit link --base' links it onto a base)" : "")));
    }

    private static LoadedInput loadAny(Path file, Btf base) {
        if (base == null && KernelBtf.isModule(file)) {
            base = KernelBtf.base();
        }
        try {
            return isStdin(file) ? InputLoader.load(file, readStdin(), base) : InputLoader.load(file, base);
        } catch (BaseMismatchException e) {
            Path baseFile = BASE_FILES.get(e.base());
            throw new FileException(file, e.isNamed() || baseFile == null ? e : e.naming(Names.quote(baseFile)));
        } catch (BtfException e) {
            throw new FileException(file, e);
        }
    }

    /**
     * A kernel BTF as BPF programs meet it once it is loaded: a module carrying a distilled base
     * ({@code .BTF.base}, pahole's distilled_base) is relocated onto {@code base} first, as the
     * kernel relocates it at module load; resolving against the distilled base (memberless
     * structs) would be wrong. Exit 2 without a base, 1 when the distilled base does not map.
     */
    static Btf asLoaded(Path file, Btf base) {
        LoadedInput li = load(file, base);
        Btf target = btf(li);
        if (li.distilledBase() == null) {
            return target;
        }
        if (base == null) {
            throw new FileException(file, new io.btfkit.core.BtfFormatException(
                    "carries a distilled base (.BTF.base): give the vmlinux BTF it is loaded on with --base"));
        }
        try {
            return io.btfkit.relocate.Relocator.relocate(target, base);
        } catch (io.btfkit.relocate.RelocationException e) {
            Path baseFile = BASE_FILES.get(base);
            Streams.err().println("btfkit: " + file + ": its distilled base does not map onto "
                    + (baseFile == null ? "the base" : baseFile) + ": " + e.getMessage());
            Streams.err().flush();
            throw new CommandFailedException(ExitCodes.FAILED);
        } catch (BtfException e) {
            throw new FileException(file, e);
        }
    }

    /** {@code -}: standard input (commands accept it at most once: {@link Outputs#check}). */
    static boolean isStdin(Path file) {
        return file != null && file.toString().equals("-");
    }

    /** Standard input to its end, judged by its start and bounded as a file is ({@link InputLoader#readStream}). */
    private static byte[] readStdin() {
        return InputLoader.readStream(Streams.in());
    }

    /**
     * Reads {@code file} as one uncompressed raw BTF blob through a buffer taken from
     * {@code buffers} and given back (the reader copies what it keeps), or returns null when the
     * file is anything else or cannot be read that way — the caller then loads it the ordinary
     * way, which also reports any error. A link of thousands of units would otherwise allocate
     * every file's bytes once more (93 MB of garbage for 300 units).
     */
    static Btf readRawReusing(Path file, Btf base, java.util.Queue<byte[]> buffers) {
        return readRawReusing(file, base, buffers, null);
    }

    /**
     * {@link #readRawReusing(Path, Btf, java.util.Queue)}; a standalone blob's arrays in
     * {@code scratch} when it is not null (the BTF must then not be used once the scratch is
     * read into again: {@link io.btfkit.core.BtfReader.Scratch}).
     */
    static Btf readRawReusing(Path file, Btf base, java.util.Queue<byte[]> buffers, io.btfkit.core.BtfReader.Scratch scratch) {
        if (isStdin(file) || base == null && KernelBtf.isModule(file)) {
            return null;
        }
        byte[] buf = buffers.poll();
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file)) {
            long size = ch.size();
            if (size > io.btfkit.core.io.InputLimits.maxBytes()) {
                return null;
            }
            if (buf == null || buf.length < size) {
                // with headroom, so that the few buffers in use soon fit every input
                buf = new byte[(int) Math.min(io.btfkit.core.io.InputLimits.maxBytes(), Math.max(size + size / 2, 1 << 16))];
            }
            if (base == null && scratch != null) {
                return readStandalone(ch, buf, (int) size, scratch);
            }
            if (!io.btfkit.core.io.FileBytes.readFully(ch, buf, (int) size)) {
                return null;
            }
            return InputLoader.readOneBlob(buf, 0, (int) size, base, scratch);
        } catch (java.io.IOException | BtfException e) {
            return null;
        } finally {
            if (buf != null) {
                buffers.offer(buf);
            }
        }
    }

    /**
     * A raw standalone BTF file of {@code size} bytes read into {@code buf}, except that a string
     * section after the first 4 KB (any file of size) goes straight into its own array, which the
     * BTF keeps: the reader would otherwise copy it out of {@code buf} (2.3 MB a vmlinux). Null
     * when the file is not that (or shrank meanwhile): the caller reads it the ordinary way.
     */
    private static Btf readStandalone(java.nio.channels.FileChannel ch, byte[] buf, int size,
            io.btfkit.core.BtfReader.Scratch scratch) throws java.io.IOException {
        int first = Math.min(size, 4096);
        if (!io.btfkit.core.io.FileBytes.readFully(ch, buf, 0, first)) {
            return null;
        }
        io.btfkit.core.BtfHeader h;
        try {
            h = io.btfkit.core.BtfHeader.parse(buf, 0, size);
        } catch (BtfException e) {
            h = null; // (the header may reach past what is read yet: decided below)
        }
        long strStart = h == null ? 0 : h.hdrLen() + h.strOff();
        if (h == null || h.hdrLen() > first || strStart < first || h.strLen() == 0) {
            if (!io.btfkit.core.io.FileBytes.readFully(ch, buf, first, size)) {
                return null;
            }
            return InputLoader.readOneStandaloneBlob(buf, size, scratch);
        }
        int strEnd = (int) (strStart + h.strLen());
        byte[] strings = new byte[(int) h.strLen()];
        if (!io.btfkit.core.io.FileBytes.readFully(ch, buf, first, (int) strStart)
                || !io.btfkit.core.io.FileBytes.readFully(ch, strings, 0, strings.length)
                || !io.btfkit.core.io.FileBytes.readFully(ch, buf, strEnd, size)) {
            return null;
        }
        return io.btfkit.core.BtfReader.readSplitOut(buf, size, strings, scratch);
    }

    /** The base BTF named by {@code --base}, or null. */
    static Btf base(Path file) {
        if (file == null) {
            return null;
        }
        Btf b = btf(load(file, null));
        BASE_FILES.put(b, file);
        return b;
    }

    /** The one BTF of {@code li}; an input of several blobs is refused naming its file. */
    static Btf btf(LoadedInput li) {
        try {
            return li.btf();
        } catch (BtfException e) {
            throw new FileException(li.path(), e);
        }
    }
}
