package io.btfkit.fuzz;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.BtfFormatException;
import io.btfkit.core.OperationException;
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
     * heap, a 1 GB output file otherwise. Fixed: the rewrite is refused with a message naming the
     * alignment, and refusing allocates little.
     */
    @Test
    void absurdAlignmentIsRefusedNotAllocated() {
        ElfFile elf = ElfFile.parse(resource("findings/elf-huge-alignment.o"));
        LinkedHashMap<String, byte[]> contents = new LinkedHashMap<>();
        contents.put(".BTF", elf.sectionData(".BTF").orElseThrow());
        boolean measured = allocationIsMeasured();
        long before = measured ? allocatedBytes() : 0;
        byte[] rewritten = Outcomes.orRejected(() -> elf.withSections(contents));
        long allocated = measured ? allocatedBytes() - before : 0;
        assertTrue(rewritten == null, () -> "rewritten to " + rewritten.length + " bytes, not refused");
        OperationException e = assertThrows(OperationException.class, () -> elf.withSections(contents));
        assertTrue(e.getMessage().contains("asks for alignment 0x43000008, not a power of two"), e.getMessage());
        assertTrue(allocated < 16L << 20, "rewriting a 13 KB file allocated " + allocated + " bytes");
        Assumptions.assumeTrue(measured, "skipped (the refusal was checked): no per-thread allocation count in this JVM");
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
            // a committed input, not an optional one: without it the finding is not checked
            assertNotNull(in, name + " not on the class path (a finding's input must be committed beside this test)");
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean allocationIsMeasured() {
        return ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
                && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled();
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
