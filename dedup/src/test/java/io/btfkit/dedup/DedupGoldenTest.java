package io.btfkit.dedup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.TestData;
import io.btfkit.core.text.RawTextPrinter;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Split dedup of real Debian modules against their vmlinux reproduces libbpf's output byte for
 * byte (shared/golden/dedup, made by libbpf's btf__dedup).
 */
class DedupGoldenTest {
    private static BaseIndex base;

    @BeforeAll
    static void indexBase() {
        base = BaseIndex.of(BtfReader.read(TestData.bytes(TestData.golden("vmlinux-6.1.0-56.btf"))));
    }

    static Stream<String> modules() {
        return TestData.goldenModules().stream();
    }

    @ParameterizedTest
    @MethodSource("modules")
    void splitDedupMatchesLibbpf(String module) {
        Btf in = BtfReader.read(TestData.bytes(TestData.golden("modules/" + module + ".btf")), base.base());
        byte[] expected = TestData.bytes(TestData.golden("dedup/" + module + ".btf"));
        Btf out = Deduplicator.dedup(in, base).btf();
        Btf want = BtfReader.read(expected, base.base());
        assertEquals(RawTextPrinter.toText(want), RawTextPrinter.toText(out), "types");
        assertArrayEquals(expected, BtfWriter.write(out));
    }

    /**
     * The same with the string pool seeded with the base's strings, as a link of many modules
     * does ({@code Merger.seedsBase}): every base string the module names keeps the offset
     * libbpf gives it.
     */
    @ParameterizedTest
    @MethodSource("modules")
    void splitDedupOnASeededPoolMatchesLibbpf(String module) {
        try {
            System.setProperty("btfkit.dedup.seedBase", "always");
            splitDedupMatchesLibbpf(module);
        } finally {
            System.clearProperty("btfkit.dedup.seedBase");
        }
    }
}
