package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Batch output names: what a script can predict from the input's file name. */
class StemsTest {
    @Test
    void compressionThenTarThenTheKindOfFileComeOff() {
        assertEquals("5.4.0-42-generic", Stems.stem(Path.of("kernels/ubuntu/20.04/x86_64/5.4.0-42-generic.btf.tar.xz")));
        assertEquals("vmlinux-6.1", Stems.stem(Path.of("vmlinux-6.1.btf.xz")));
        assertEquals("mlx4_core", Stems.stem(Path.of("mlx4_core.ko.zst")));
        assertEquals("prog", Stems.stem(Path.of("prog.o")));
        assertEquals("k", Stems.stem(Path.of("k.tar")));
        assertEquals("notes.txt", Stems.stem(Path.of("notes.txt")));
        // a name that is only the suffix keeps it
        assertEquals(".btf", Stems.stem(Path.of(".btf")));
        assertEquals("mlx4_core.ko", Stems.uncompressedName(Path.of("mlx4_core.ko.xz")));
    }
}
