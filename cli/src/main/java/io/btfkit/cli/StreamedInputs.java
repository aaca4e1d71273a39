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

    /** The input's {@link Plan}, or null when it cannot be streamed. */
    static Plan plan(Path file) {
        int raw = Inputs.rawTypeSectionBytes(file);
        if (raw >= 0) {
            return new Plan(raw, false, null);
        }
        return Inputs.isStdin(file) ? null : elfPlan(file);
    }

    private static Plan elfPlan(Path file) {
        try (FileChannel ch = FileChannel.open(file)) {
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
            ByteOrder order = (h.get(0) & 0xff) == 0x9f && (h.get(1) & 0xff) == 0xeb ? ByteOrder.LITTLE_ENDIAN
                    : (h.get(0) & 0xff) == 0xeb && (h.get(1) & 0xff) == 0x9f ? ByteOrder.BIG_ENDIAN : null;
            if (order == null) {
                return null;
            }
            int typeLen = h.order(order).getInt(12);
            return typeLen >= 0 && typeLen % 4 == 0 ? new Plan(typeLen, true, btf) : null;
        } catch (IOException e) {
            return null; // reading it for real reports the error
        }
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
}
