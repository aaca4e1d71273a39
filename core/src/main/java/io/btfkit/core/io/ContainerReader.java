package io.btfkit.core.io;

import io.btfkit.core.BaseMismatchException;
import io.btfkit.core.Btf;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.BtfReader;
import io.btfkit.core.elf.ElfFile;
import io.btfkit.core.ext.BtfExt;
import io.btfkit.core.ext.BtfExtReader;
import io.btfkit.core.text.RawTextParser;
import java.nio.file.Path;
import java.util.List;

/** A non-raw container btfkit can read BTF from (ELF, raw text), recognised by content. */
interface ContainerReader {
    boolean accepts(byte[] data);

    LoadedInput read(Path path, byte[] data, Btf base, Decompressor.Format compression);

    static List<ContainerReader> all() {
        return List.of(new Elf(), new Text());
    }

    /**
     * ELF objects, modules and vmlinux: {@code .BTF}, read on {@code .BTF.base} when the file
     * carries one (pahole's distilled base), else on the given base; {@code .BTF.ext} if present.
     * A {@code .BTF} holding several blobs back to back ({@code ld -r}) gives one unit per blob.
     */
    final class Elf implements ContainerReader {
        @Override
        public boolean accepts(byte[] data) {
            return ElfFile.isElf(data);
        }

        @Override
        public LoadedInput read(Path path, byte[] data, Btf base, Decompressor.Format compression) {
            ElfFile elf = ElfFile.parse(data);
            if (elf.section(".BTF").isEmpty()) {
                throw new BtfFormatException("ELF file has no .BTF section");
            }
            Btf distilled = null;
            byte[] baseData = elf.sectionData(".BTF.base").orElse(null);
            if (baseData != null) {
                distilled = within(".BTF.base", () -> BtfReader.read(baseData));
                base = distilled;
            }
            Btf on = base;
            List<Btf> units;
            try {
                units = within(".BTF", () -> elf.readSection(".BTF", (d, off, len) -> InputLoader.readRawUnits(d, off, len, on))
                        .orElseThrow());
            } catch (BaseMismatchException e) {
                throw distilled != null ? e.naming("its .BTF.base section") : e;
            }
            byte[] extData = elf.sectionData(".BTF.ext").orElse(null);
            BtfExt ext = extData == null ? null : within(".BTF.ext", () -> BtfExtReader.read(extData));
            return new LoadedInput(path, LoadedInput.Source.ELF, compression, units, elf, ext, distilled);
        }

        private static <T> T within(String section, java.util.function.Supplier<T> read) {
            try {
                return read.get();
            } catch (BaseMismatchException e) {
                throw e; // about the file as a whole: the section is no news
            } catch (BtfFormatException e) {
                throw new BtfFormatException("section " + section + ": " + e.getMessage(), e);
            }
        }
    }

    /** bpftool raw text (and the selftests' spelling). */
    final class Text implements ContainerReader {
        @Override
        public boolean accepts(byte[] data) {
            return RawTextParser.looksLikeText(data);
        }

        @Override
        public LoadedInput read(Path path, byte[] data, Btf base, Decompressor.Format compression) {
            return new LoadedInput(path, LoadedInput.Source.TEXT, compression, RawTextParser.parse(data, base), null,
                    null, null);
        }
    }
}
