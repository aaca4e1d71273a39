package io.btfkit.fuzz;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.BtfFormatException;
import io.btfkit.core.elf.ElfFile;
import io.btfkit.core.text.RawTextParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Findings of the fuzzers, each with the fuzzer's input (under {@code findings/}) and the
 * behaviour its fix gives; kept as regression tests. See docs/FUZZING.md.
 */
class FindingsRegressionTest {
    /**
     * F1: {@code ElfFile.withSections} on a file without program headers honours any
     * {@code sh_addralign} up to 2 GiB (here 1,124,073,480 on {@code .rel.debug_info} of a 13 KB
     * object, not even a power of two) and allocates the padded output: OutOfMemoryError in a 1 GB
     * heap, a 1 GB output file otherwise.
     */
    @Test
    void absurdAlignmentIsRefusedNotAllocated() {
        ElfFile elf = ElfFile.parse(resource("findings/elf-huge-alignment.o"));
        LinkedHashMap<String, byte[]> contents = new LinkedHashMap<>();
        contents.put(".BTF", elf.sectionData(".BTF").orElseThrow());
        long before = allocatedBytes();
        Outcomes.orRejected(() -> elf.withSections(contents));
        long allocated = allocatedBytes() - before;
        assertTrue(allocated < 16L << 20, "rewriting a 13 KB file allocated " + allocated + " bytes");
    }

    /**
     * F2: the raw text parser accepts NUL bytes inside a quoted name; the name silently becomes
     * another string (here {@code '\0\0\0\0\0\0\0'__u8'} reads as a non-zero offset of the empty
     * string, which prints as {@code ''} and reads back as anonymous).
     */
    @Test
    void nulInANameIsAnError() {
        byte[] text = resource("findings/text-nul-in-name.txt");
        BtfFormatException e = assertThrows(BtfFormatException.class, () -> RawTextParser.parse(text, null));
        assertTrue(e.getMessage().startsWith("line 4: "), e.getMessage());
    }

    private static byte[] resource(String name) {
        try (InputStream in = FindingsRegressionTest.class.getResourceAsStream(name)) {
            Assumptions.assumeTrue(in != null, "skipped: " + name + " not on the class path");
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long allocatedBytes() {
        java.lang.management.ThreadMXBean t = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(t instanceof com.sun.management.ThreadMXBean, "skipped: no per-thread allocation count");
        return ((com.sun.management.ThreadMXBean) t).getCurrentThreadAllocatedBytes();
    }
}
