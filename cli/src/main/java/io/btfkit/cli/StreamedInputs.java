package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.BtfReader;
import io.btfkit.core.elf.ElfSectionLocator;
import io.btfkit.core.io.FileBytes;
import io.btfkit.core.io.InputLimits;
import io.btfkit.core.io.InputLoader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Map;
import java.util.Queue;

/**
 * The inputs a link can read while it merges ({@code Deduplicator.UnitSource}): uncompressed raw
 * BTF, and ELF files (kernel modules, objects) whose {@code .BTF} is one blob on the link's base
 * with no {@code .BTF.base} or {@code .BTF.ext} beside it. Their type sections' sizes are known
 * from their headers before any is read, and each is read through a reused buffer into a reused
 * word array, so a link of thousands of modules neither holds them all nor makes garbage of
 * their bytes. Anything else gives -1 or null, and the caller
 * reads the inputs the ordinary way ({@link Inputs#load}), which also reports any error.
 */
final class StreamedInputs {
    private StreamedInputs() {
    }

    /**
     * How a streamable input is read: its type section's byte length, whether it is an ELF
     * file, and (ELF) where its {@code .BTF} section lies.
     */
    record Plan(int typeSectionBytes, boolean elf, ElfSectionLocator.Range btf) {
    }

    /**
     * The input's {@link Plan}, or null when it cannot be streamed. The file is opened once: its
     * first 16 bytes tell raw BTF (whose header gives the size) from anything else, and an ELF
     * file is then located through the same channel (4,023 modules: one open each, not two).
     */
    static Plan plan(Path file) {
        if (Inputs.isStdin(file)) {
            return null;
        }
        try (FileChannel ch = FileChannel.open(file)) {
            ByteBuffer h = ByteBuffer.allocate(16);
            while (h.hasRemaining()) {
                if (ch.read(h, h.position()) < 0) {
                    return null;
                }
            }
            ByteOrder order = byteOrderOfMagic(h);
            if (order != null) {
                int typeLen = h.order(order).getInt(12);
                return typeLen >= 0 && typeLen % 4 == 0 ? new Plan(typeLen, false, null) : null;
            }
            return h.getInt(0) == 0x7f454c46 ? elfPlan(ch) : null;
        } catch (IOException e) {
            return null; // reading it for real reports the error
        }
    }

    /** The byte order a BTF header's magic (the buffer's first two bytes) says, or null when it is not one. */
    private static ByteOrder byteOrderOfMagic(ByteBuffer h) {
        return (h.get(0) & 0xff) == 0x9f && (h.get(1) & 0xff) == 0xeb ? ByteOrder.LITTLE_ENDIAN
                : (h.get(0) & 0xff) == 0xeb && (h.get(1) & 0xff) == 0x9f ? ByteOrder.BIG_ENDIAN : null;
    }

    private static Plan elfPlan(FileChannel ch) throws IOException {
        ElfSectionLocator.Range btf = btfSection(ch);
        if (btf == null || btf.size() < 16 || btf.size() > Integer.MAX_VALUE - 16) {
            return null;
        }
        ByteBuffer h = ByteBuffer.allocate(16);
        while (h.hasRemaining()) {
            if (ch.read(h, btf.offset() + h.position()) < 0) {
                return null;
            }
        }
        ByteOrder order = byteOrderOfMagic(h);
        if (order == null) {
            return null;
        }
        int typeLen = h.order(order).getInt(12);
        return typeLen >= 0 && typeLen % 4 == 0 ? new Plan(typeLen, true, btf) : null;
    }

    /** The sections a plan looks at: the BTF, and those that make a file unstreamable. */
    private static final java.util.Set<String> PLANNED_SECTIONS = java.util.Set.of(".BTF", ".BTF.base", ".BTF.ext");

    /** The {@code .BTF} section of a streamable ELF file, else null. */
    private static ElfSectionLocator.Range btfSection(FileChannel ch) throws IOException {
        long size = ch.size();
        if (size > InputLimits.maxBytes()) {
            return null;
        }
        Map<String, ElfSectionLocator.Range> sections = ElfSectionLocator.sections(ch, size, PLANNED_SECTIONS);
        if (sections == null || sections.containsKey(".BTF.base") || sections.containsKey(".BTF.ext")) {
            return null;
        }
        return sections.get(".BTF");
    }

    /**
     * The input's one unit, read through a buffer from {@code buffers} (given back) into
     * {@code scratch}'s words: the BTF must not be used once the scratch is read into again. Of an
     * ELF file only the {@code .BTF} section is read, where the plan found it (4,023 modules:
     * 397 MB of files, 60 MB of {@code .BTF} sections, the largest 2 MB).
     * Null when the input cannot be read this way.
     */
    static Btf read(Path file, Plan plan, Btf base, Queue<byte[]> buffers, BtfReader.Scratch scratch) {
        if (!plan.elf()) {
            return Inputs.readRawReusing(file, base, buffers, scratch);
        }
        byte[] buf = buffers.poll();
        try (FileChannel ch = FileChannel.open(file)) {
            int size = (int) plan.btf().size();
            if (plan.btf().offset() + size > ch.size()) {
                return null; // (changed since it was planned: read the ordinary way)
            }
            if (buf == null || buf.length < size) {
                buf = new byte[Math.max(size + size / 2, 1 << 16)];
            }
            ch.position(plan.btf().offset());
            if (!FileBytes.readFully(ch, buf, size)) {
                return null;
            }
            return InputLoader.readOneBlob(buf, 0, size, base, scratch);
        } catch (IOException | BtfException e) {
            return null;
        } finally {
            if (buf != null) {
                buffers.offer(buf);
            }
        }
    }

    /**
     * An ELF object planned by {@link #plan} as {@link Inputs#load} reads it — its one
     * {@code .BTF} unit, validated, and its ELF — but read through a buffer from {@code buffers}
     * (given back) and keeping of the ELF only its symbol tables ({@link
     * io.btfkit.core.elf.ElfFile#keepingSymbolTables}): a gcc link reads
     * each object whole for its symbol tables, and 362 kernel objects' bytes had been 60 MB of
     * garbage, their types' words 22 MB more. The unit's words are {@code scratch}'s
     * ({@link BtfReader.Scratch}). Null when the input cannot be read this way; the ordinary
     * read then reports any error.
     */
    static io.btfkit.core.io.LoadedInput readObject(Path file, Plan plan, Btf base, Queue<byte[]> buffers,
                                                   BtfReader.Scratch scratch) {
        if (!plan.elf()) {
            return null;
        }
        byte[] buf = buffers.poll();
        try (FileChannel ch = FileChannel.open(file)) {
            long size = ch.size();
            if (size > InputLimits.maxBytes()) {
                return null;
            }
            if (buf == null || buf.length < size) {
                buf = new byte[(int) Math.min(InputLimits.maxBytes(), Math.max(size + size / 2, 1 << 16))];
            }
            if (!FileBytes.readFully(ch, buf, (int) size)) {
                return null;
            }
            io.btfkit.core.elf.ElfFile elf = io.btfkit.core.elf.ElfFile.parse(buf, (int) size);
            if (elf.section(".BTF.base").isPresent() || elf.section(".BTF.ext").isPresent()) {
                return null;
            }
            Btf u = elf.readSection(".BTF", (d, off, len) -> InputLoader.readOneBlob(d, off, len, base, scratch))
                    .orElse(null);
            return u == null ? null : new io.btfkit.core.io.LoadedInput(file, io.btfkit.core.io.LoadedInput.Source.ELF,
                    null, u, elf.keepingSymbolTables(), null, null);
        } catch (IOException | BtfException e) {
            return null;
        } finally {
            if (buf != null) {
                buffers.offer(buf);
            }
        }
    }
}
