package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.ext.BtfExt;
import io.btfkit.core.io.LoadedInput;

/** {@code --out-format elf}: a copy of the ELF input with its BTF sections replaced. */
final class ElfOutput {
    private ElfOutput() {
    }

    static byte[] replace(LoadedInput in, OutputEncoding out, Btf btf, BtfExt ext, Btf distilledBase) {
        if (in.elf() == null) {
            throw new FileException(in.path(), new BtfFormatException(
                    "--out-format elf needs an ELF input (this one is " + in.source().name().toLowerCase(java.util.Locale.ROOT) + ")"));
        }
        try {
            return out.encodeElf(in.elf(), btf, ext, distilledBase);
        } catch (BtfException e) {
            throw new FileException(in.path(), e);
        }
    }
}
