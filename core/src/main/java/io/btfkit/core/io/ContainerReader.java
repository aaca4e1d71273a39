package io.btfkit.core.io;

import io.btfkit.core.Btf;
import java.nio.file.Path;
import java.util.List;

/** A non-raw container btfkit can read BTF from (ELF, raw text), recognised by content. */
interface ContainerReader {
    boolean accepts(byte[] data);

    LoadedInput read(Path path, byte[] data, Btf base, Decompressor.Format compression);

    static List<ContainerReader> all() {
        return List.of();
    }
}
