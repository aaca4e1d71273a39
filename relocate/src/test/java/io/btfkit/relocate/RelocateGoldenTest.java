package io.btfkit.relocate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.TestData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Relocating each golden distilled module onto each golden base gives libbpf's bytes, or fails
 * exactly where libbpf fails, naming the same type first (EXPECTED.tsv).
 */
class RelocateGoldenTest {
    private static final Map<String, NewBaseIndex> INDEXES = new HashMap<>();

    static Stream<Arguments> cases() {
        Path tsv = TestData.shared().resolve("golden/EXPECTED.tsv");
        if (!Files.exists(tsv)) {
            return Stream.of(Arguments.of("(none)", "(none)", "(none)"));
        }
        List<Arguments> out = new ArrayList<>();
        try {
            List<String> lines = Files.readAllLines(tsv);
            String[] header = lines.get(0).split("\t");
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.split("\t");
                for (int c = 1; c < f.length; c++) {
                    out.add(Arguments.of(f[0], header[c], f[c]));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.stream();
    }

    static synchronized NewBaseIndex index(String target) {
        return INDEXES.computeIfAbsent(target, t -> NewBaseIndex.of(BtfReader.read(TestData.bytes(
                TestData.golden("vmlinux-" + t.substring("onto-".length()) + ".btf")))));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cases")
    void relocateMatchesLibbpf(String module, String target, String expected) {
        Assumptions.assumeFalse(module.equals("(none)"), "skipped: golden EXPECTED.tsv not available");
        Btf dist = BtfReader.read(TestData.bytes(TestData.golden("distill/" + module + ".base")));
        Btf split = BtfReader.read(TestData.bytes(TestData.golden("distill/" + module + ".split")), dist);
        NewBaseIndex idx = index(target);
        if (expected.equals("OK")) {
            Btf out = Relocator.relocate(split, idx);
            assertSame(idx.base(), out.base());
            assertArrayEquals(TestData.bytes(TestData.golden("relocate/" + target + "/" + module + ".btf")), BtfWriter.write(out));
            assertEquals(List.of(), Relocator.problems(split, idx));
        } else {
            RelocationException e = assertThrows(RelocationException.class, () -> Relocator.relocate(split, idx));
            assertEquals(expected.substring("FAIL:".length()), e.problems().get(0).name(), e.getMessage());
            assertFalse(e.getMessage().contains("\n"));
            assertEquals(e.problems(), Relocator.problems(split, idx));
        }
    }
}
