package io.btfkit.cheader;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.TestData;
import io.btfkit.core.text.RawTextParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential test against bpftool 7.1 on {@link RandomCTypes} inputs: the header is
 * byte-identical for every seed (skipped without bpftool).
 */
class CHeaderDifferentialTest {
    private static final int SEEDS = 300;

    @TempDir
    Path dir;

    @Test
    void randomTypesPrintAsBpftoolPrintsThem() throws IOException {
        Path bpftool = CHeaderRealDataTest.bpftool();
        Path file = dir.resolve("random.btf");
        for (long seed = 0; seed < SEEDS; seed++) {
            String text = RandomCTypes.generate(seed);
            Btf btf = RawTextParser.parse(text, null);
            try {
                Files.write(file, BtfWriter.write(btf));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            byte[] expected = TestData.run(List.of(bpftool.toString(), "btf", "dump", "file", file.toString(),
                    "format", "c"));
            CHeaderRealDataTest.assertSameText(expected, CHeaderRealDataTest.header(btf, CHeaderOptions.BPFTOOL_71),
                    "seed " + seed + ":\n" + text);
        }
    }
}
