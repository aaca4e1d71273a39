package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.BtfReader;
import io.btfkit.core.elf.ElfFile;
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
 * their bytes (4,023 modules: 387 MB of files). Anything else gives -1 or null, and the caller
 * reads the inputs the ordinary way ({@link Inputs#load}), which also reports any error.
 */
final class StreamedInputs {
    private StreamedInputs() {
    }

    /** How a streamable input is read: its type section's byte length, and whether it is an ELF file. */
    record Plan(int typeSectionBytes, boolean elf) {
    }

    /** The input's {@link Plan}, or null when it cannot be streamed. */
    static Plan plan(Path file) {
        int raw = Inputs.rawTypeSectionBytes(file);
        if (raw >= 0) {
            return new Plan(raw, false);
        }
        int elf = Inputs.isStdin(file) ? -1 : elfTypeSectionBytes(file);
        return elf >= 0 ? new Plan(elf, true) : null;
    }

    private static int elfTypeSectionBytes(Path file) {
        try (FileChannel ch = FileChannel.open(file)) {
            ElfSectionLocator.Range btf = btfSection(ch);
            if (btf == null || btf.size() < 16) {
                return -1;
            }
            ByteBuffer h = ByteBuffer.allocate(16);
            while (h.hasRemaining()) {
                if (ch.read(h, btf.offset() + h.position()) < 0) {
                    return -1;
                }
            }
            ByteOrder order = (h.get(0) & 0xff) == 0x9f && (h.get(1) & 0xff) == 0xeb ? ByteOrder.LITTLE_ENDIAN
                    : (h.get(0) & 0xff) == 0xeb && (h.get(1) & 0xff) == 0x9f ? ByteOrder.BIG_ENDIAN : null;
            if (order == null) {
                return -1;
            }
            int typeLen = h.order(order).getInt(12);
            return typeLen >= 0 && typeLen % 4 == 0 ? typeLen : -1;
        } catch (IOException e) {
            return -1; // reading it for real reports the error
        }
    }

    /** The {@code .BTF} section of a streamable ELF file, else null. */
    private static ElfSectionLocator.Range btfSection(FileChannel ch) throws IOException {
        long size = ch.size();
        if (size > InputLimits.maxBytes()) {
            return null;
        }
        Map<String, ElfSectionLocator.Range> sections = ElfSectionLocator.sections(ch, size);
        if (sections == null || sections.containsKey(".BTF.base") || sections.containsKey(".BTF.ext")) {
            return null;
        }
        return sections.get(".BTF");
    }

    /**
     * The input's one unit, read through a buffer from {@code buffers} (given back) into
     * {@code scratch}'s words: the BTF must not be used once the scratch is read into again.
     * Null when the input cannot be read this way.
     */
    static Btf read(Path file, Plan plan, Btf base, Queue<byte[]> buffers, BtfReader.Scratch scratch) {
        if (!plan.elf()) {
            return Inputs.readRawReusing(file, base, buffers, scratch);
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
            ElfFile elf = ElfFile.parse(buf, (int) size);
            if (elf.section(".BTF.base").isPresent() || elf.section(".BTF.ext").isPresent()) {
                return null;
            }
            ElfFile.Section btf = elf.section(".BTF").orElse(null);
            if (btf == null || btf.isNobits()) {
                return null;
            }
            return InputLoader.readOneBlob(buf, (int) btf.offset(), (int) btf.size(), base, scratch);
        } catch (IOException | BtfException e) {
            return null;
        } finally {
            if (buf != null) {
                buffers.offer(buf);
            }
        }
    }
}
