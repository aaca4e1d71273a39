package io.btfkit.cli;

import picocli.CommandLine.Option;

/** {@link OutputEncoding} with {@code --out-format raw|text|elf}: for commands that can copy an ELF input. */
final class OutputOptions extends OutputEncoding {
    @Option(names = "--out-format", paramLabel = "FMT", defaultValue = "raw",
            description = "raw, text (bpftool raw dump) or elf (copy of an ELF input with its BTF replaced); "
                + "default: ${DEFAULT-VALUE}")
    Format format = Format.raw;

    @Override
    Format format() {
        return format;
    }
}
