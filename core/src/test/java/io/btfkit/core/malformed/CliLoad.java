package io.btfkit.core.malformed;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.BtfReader;
import io.btfkit.core.elf.ElfFile;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.text.RawTextParser;
import java.nio.file.Path;

/**
 * Reads a file the way the command line does: through {@link InputLoader#load(Path, Btf)}.
 *
 * <p>While {@code InputLoader} does not yet read a container (it answers "not BTF, ELF, ..."),
 * ELF and raw text go to their own parsers here ({@link ElfFile#parse} with the {@code .BTF}
 * section on its {@code .BTF.base}, {@link RawTextParser#parse}); once it reads them, this
 * fallback is never taken and the same cases test the wired path.
 */
final class CliLoad {
    private static final String NOT_RECOGNISED = "not BTF, ELF, compressed data or BTF text";

    private CliLoad() {
    }

    static Btf load(Path file) {
        try {
            return InputLoader.load(file, null).btf();
        } catch (BtfFormatException e) {
            if (!e.getMessage().startsWith(NOT_RECOGNISED)) {
                throw e;
            }
            byte[] data = InputLoader.readFile(file);
            if (ElfFile.isElf(data)) {
                return readElf(data);
            }
            if (RawTextParser.looksLikeText(data)) {
                return RawTextParser.parse(data, null);
            }
            throw e;
        }
    }

    private static Btf readElf(byte[] data) {
        ElfFile elf = ElfFile.parse(data);
        Btf base = elf.sectionData(".BTF.base").map(BtfReader::read).orElse(null);
        byte[] btf = elf.sectionData(".BTF").orElseThrow(() -> new BtfFormatException("no .BTF section"));
        return BtfReader.read(btf, base);
    }
}
