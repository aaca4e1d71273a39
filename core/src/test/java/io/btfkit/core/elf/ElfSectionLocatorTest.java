package io.btfkit.core.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.btfkit.core.TestData;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Where {@link ElfSectionLocator} says the sections are, against readelf's section table: every
 * name readelf lists is found at readelf's offset and size, on 64- and 32-bit, little- and
 * big-endian objects whose name tables share tails (".rela.text" holds ".text").
 */
class ElfSectionLocatorTest {
    /** {@code [Nr] Name Type Address Off Size} of {@code readelf -S -W}. */
    private static final Pattern ROW = Pattern.compile("\\[\\s*\\d+]\\s+(\\S+)\\s+\\S+\\s+[0-9a-f]+\\s+([0-9a-f]+)\\s+([0-9a-f]+)");

    @ParameterizedTest
    @ValueSource(strings = {"ko/roles.ko", "ko/yurex.ko", "gcc/job.o", "bpf/task_trace.bpf.o", "bpf/task_trace.bpfeb.o",
        "elf/queue.i386.o", "elf/queue.mips.o", "elf/tiny.exec"})
    void findsEverySectionWhereReadelfDoes(String sample) throws IOException {
        byte[] elf = ElfTools.sampleBytes(sample);
        ElfTools.Run r = ElfTools.run(elf, "readelf", "-S", "-W");
        assertEquals(0, r.exit(), r.err());
        Map<String, ElfSectionLocator.Range> want = new LinkedHashMap<>();
        Matcher m = ROW.matcher(r.out());
        while (m.find()) {
            if (!m.group(1).equals("NULL")) {
                want.putIfAbsent(m.group(1), new ElfSectionLocator.Range(Long.parseLong(m.group(2), 16),
                        Long.parseLong(m.group(3), 16)));
            }
        }
        assertFalse(want.isEmpty(), "readelf listed sections:\n" + r.out());
        Set<String> asked = new java.util.HashSet<>(want.keySet());
        asked.add(".BTF.nowhere");
        Path f = TestData.sample(sample);
        try (FileChannel ch = FileChannel.open(f)) {
            assertEquals(want, ElfSectionLocator.sections(ch, ch.size(), asked), sample);
            // only what is asked for: a prefix or a tail of a name is not the name
            Map<String, ElfSectionLocator.Range> one = ElfSectionLocator.sections(ch, ch.size(), Set.of(".BTF", "text"));
            assertEquals(want.containsKey(".BTF") ? Map.of(".BTF", want.get(".BTF")) : Map.of(), one);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 10, 40, 63, 2000})
    void aFileCutShortOrNotElfIsNotLocated(int keep) throws IOException {
        byte[] elf = TestData.bytes(TestData.sample("ko/yurex.ko"));
        Path f = Files.createTempFile("btfkit-locator", ".ko");
        try {
            Files.write(f, Arrays.copyOf(elf, keep));
            try (FileChannel ch = FileChannel.open(f)) {
                assertNull(ElfSectionLocator.sections(ch, ch.size(), Set.of(".BTF")));
            }
            byte[] notElf = elf.clone();
            notElf[1] = 'X';
            Files.write(f, notElf);
            try (FileChannel ch = FileChannel.open(f)) {
                assertNull(ElfSectionLocator.sections(ch, ch.size(), Set.of(".BTF")));
            }
        } finally {
            Files.deleteIfExists(f);
        }
    }
}
