package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.btfkit.core.Btf;
import io.btfkit.core.TestData;
import io.btfkit.core.io.InputLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Inputs#readRawReusing}: a buffer reused from a larger input keeps stale bytes past the
 * next input's end, and nothing read may depend on them; anything but one raw blob is left to
 * the ordinary loader.
 */
class InputsReuseTest {
    @TempDir
    Path tmp;

    @Test
    void aReusedBufferReadsEachInputAsTheLoaderDoes() {
        Btf base = InputLoader.load(TestData.golden("vmlinux-6.1.0-56.btf"), null).btf();
        Queue<byte[]> buffers = new ArrayDeque<>();
        // large, small, large, small: the small ones land in a buffer full of the large one's bytes
        for (String m : List.of("ocfs2", "dax_hmem", "mlx4_core", "gameport")) {
            Path f = TestData.golden("modules/" + m + ".btf");
            Btf reused = Inputs.readRawReusing(f, base, buffers);
            Btf loaded = InputLoader.load(f, base).btf();
            assertNotNull(reused, m);
            assertEquals(loaded.typeCount(), reused.typeCount(), m);
            assertArrayEquals(Arrays.copyOf(loaded.words(), loaded.typeSectionBytes() / 4),
                    Arrays.copyOf(reused.words(), reused.typeSectionBytes() / 4), m);
            assertArrayEquals(loaded.strings().bytes(), reused.strings().bytes(), m);
            assertEquals(1, buffers.size(), "the buffer is given back");
        }
    }

    /**
     * With a scratch (standalone targets of {@code minimize --out-dir}) the string section is
     * read into its own array: kernels and small BTFs in turn, the small ones in a buffer full
     * of a kernel's bytes, each read as the loader reads it.
     */
    @Test
    void aScratchReadKeepsStringsApartAndReadsAsTheLoaderDoes() throws IOException {
        Queue<byte[]> buffers = new ArrayDeque<>();
        io.btfkit.core.BtfReader.Scratch scratch = new io.btfkit.core.BtfReader.Scratch();
        // (a file of under 4 KB is read whole, the ordinary way)
        io.btfkit.core.BtfBuilder b = new io.btfkit.core.BtfBuilder(null);
        b.addInt("int", 4, io.btfkit.core.Kind.INT_SIGNED);
        b.addStruct("small", 4);
        Path small = tmp.resolve("small.btf");
        Files.write(small, io.btfkit.core.BtfWriter.write(b.build()));
        for (Path f : List.of(TestData.golden("vmlinux-6.1.0-47.btf"), small, TestData.golden("vmlinux-6.1.0-56.btf"), small)) {
            Btf reused = Inputs.readRawReusing(f, null, buffers, scratch);
            Btf loaded = InputLoader.load(f, null).btf();
            assertNotNull(reused, f.toString());
            assertArrayEquals(loaded.starts(), reused.starts(), f.toString());
            assertArrayEquals(Arrays.copyOf(loaded.words(), loaded.typeSectionBytes() / 4),
                    Arrays.copyOf(reused.words(), reused.typeSectionBytes() / 4), f.toString());
            assertArrayEquals(loaded.strings().bytes(), reused.strings().bytes(), f.toString());
        }
    }

    @Test
    void otherInputsAreLeftToTheLoader() throws IOException {
        Queue<byte[]> buffers = new ArrayDeque<>();
        byte[] one = Files.readAllBytes(TestData.golden("vmlinux-6.1.0-56.btf"));
        Path two = tmp.resolve("two.btf");
        byte[] both = Arrays.copyOf(one, 2 * one.length);
        System.arraycopy(one, 0, both, one.length, one.length);
        Files.write(two, both);
        assertNull(Inputs.readRawReusing(two, null, buffers), "two blobs back to back");
        Path truncated = tmp.resolve("cut.btf");
        Files.write(truncated, Arrays.copyOf(one, one.length / 2));
        assertNull(Inputs.readRawReusing(truncated, null, buffers), "a truncated blob");
        assertNull(Inputs.readRawReusing(tmp.resolve("missing.btf"), null, buffers), "a missing file");
        assertNull(Inputs.readRawReusing(TestData.sample("elf/tiny.exec"), null, buffers), "an ELF executable");
        io.btfkit.core.BtfReader.Scratch scratch = new io.btfkit.core.BtfReader.Scratch();
        assertNull(Inputs.readRawReusing(two, null, buffers, scratch), "two blobs back to back, with a scratch");
        assertNull(Inputs.readRawReusing(truncated, null, buffers, scratch), "a truncated blob, with a scratch");
        byte[] badTail = Arrays.copyOf(one, one.length);
        badTail[badTail.length - 1] = 'x'; // the string section's last byte: not NUL-terminated
        Path bad = tmp.resolve("bad.btf");
        Files.write(bad, badTail);
        assertNull(Inputs.readRawReusing(bad, null, buffers, scratch), "strings not terminated, with a scratch");
    }
}
