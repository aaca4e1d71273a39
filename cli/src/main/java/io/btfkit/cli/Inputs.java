package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import java.nio.file.Path;

/** Loads inputs for commands, attaching the file name to any error. */
final class Inputs {
    private Inputs() {
    }

    static LoadedInput load(Path file, Btf base) {
        try {
            return InputLoader.load(file, base);
        } catch (BtfException e) {
            throw new FileException(file, e);
        }
    }

    /** The base BTF named by {@code --base}, or null. */
    static Btf base(Path file) {
        return file == null ? null : load(file, null).btf();
    }
}
