package io.btfkit.core.io;

import io.btfkit.core.Btf;
import io.btfkit.core.OperationException;
import io.btfkit.core.elf.ElfFile;
import io.btfkit.core.ext.BtfExt;
import java.nio.file.Path;
import java.util.List;

/**
 * What an input file turned out to be and what it holds.
 *
 * <p>Most inputs hold one BTF blob. A relocatable object made by {@code ld -r} from
 * {@code gcc -gbtf} objects holds one blob per compilation unit back to back in its
 * {@code .BTF} section (the linker concatenates the sections); each is a {@link #units() unit}
 * of its own, so nothing is dropped. {@link #btf()} is the one blob of a single-blob input.
 *
 * @param path          the file as named by the user
 * @param source        the container the BTF came from
 * @param compression   the compression it was wrapped in, or null
 * @param units         every BTF blob read, in file order (at least one); each is split on
 *                      {@code distilledBase} when that is present, otherwise on the base the
 *                      caller gave, if any
 * @param elf           the parsed ELF, or null
 * @param ext           the ELF's {@code .BTF.ext}, or null
 * @param distilledBase the BTF of the ELF's {@code .BTF.base} section, or null
 */
public record LoadedInput(Path path, Source source, Decompressor.Format compression, List<Btf> units, ElfFile elf, BtfExt ext, Btf distilledBase) {

    /** Kinds of container btfkit reads. */
    public enum Source {
        RAW, ELF, TEXT
    }

    public LoadedInput {
        units = List.copyOf(units);
        if (units.isEmpty()) {
            throw new IllegalArgumentException("an input holds at least one BTF");
        }
    }

    /** An input holding one BTF blob. */
    public LoadedInput(Path path, Source source, Decompressor.Format compression, Btf btf, ElfFile elf, BtfExt ext,
                       Btf distilledBase) {
        this(path, source, compression, List.of(btf), elf, ext, distilledBase);
    }

    /**
     * The BTF of a single-blob input.
     *
     * @throws OperationException when the input holds several blobs: a command that works on one
     *         BTF would otherwise silently drop all but one compilation unit
     */
    public Btf btf() {
        if (units.size() != 1) {
            throw new io.btfkit.core.AboutFile.Operation(path, "holds " + units.size() + " BTF blobs back to back (one per compilation unit, "
                    + "as ld -r concatenates gcc -gbtf sections); 'btfkit link' reads them all as units", null);
        }
        return units.get(0);
    }

    /**
     * Runs a later pass over this input's parts (its ELF symbols, say), naming the file in what
     * it throws: the pass's caller may no longer know which file the parts came from.
     */
    public <T> T naming(java.util.function.Supplier<T> pass) {
        try {
            return pass.get();
        } catch (io.btfkit.core.AboutFile.Format | io.btfkit.core.AboutFile.Operation e) {
            throw e;
        } catch (io.btfkit.core.BtfFormatException e) {
            throw new io.btfkit.core.AboutFile.Format(path, e);
        } catch (OperationException e) {
            throw new io.btfkit.core.AboutFile.Operation(path, e.getMessage(), e);
        }
    }

    /** Whether the BTF came as several blobs back to back. */
    public boolean isConcatenated() {
        return units.size() > 1;
    }
}
