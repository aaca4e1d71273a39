package io.btfkit.core.io;

import io.btfkit.core.Btf;
import java.nio.file.Path;

/**
 * What an input file turned out to be and what it holds.
 *
 * @param path          the file as named by the user
 * @param source        the container the BTF came from
 * @param compression   the compression it was wrapped in, or null
 * @param btf           the BTF read (split on {@code distilledBase} when that is present,
 *                      otherwise on the base the caller gave, if any)
 * @param container     the decompressed file bytes (the ELF image for ELF inputs)
 * @param elf           the parsed ELF, or null
 * @param ext           the raw {@code .BTF.ext} section bytes of an ELF input, or null
 * @param distilledBase the BTF of the ELF's {@code .BTF.base} section, or null
 */
public record LoadedInput(Path path, Source source, Decompressor.Format compression, Btf btf, byte[] container,
                          Object elf, byte[] ext, Btf distilledBase) {

    /** Kinds of container btfkit reads. */
    public enum Source {
        RAW, ELF, TEXT
    }
}
