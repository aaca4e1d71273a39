package io.btfkit.cli;

import picocli.CommandLine.Option;

/**
 * {@link OutputEncoding} with {@code --out-format raw|text}: for commands whose output is not a
 * copy of one ELF input ({@code asm} reads text, {@code link} merges many inputs), so that their
 * help and completion do not offer an elf they cannot write.
 */
final class PlainOutputOptions extends OutputEncoding {
    enum PlainFormat { raw, text }

    @Option(names = "--out-format", paramLabel = "FMT", defaultValue = "raw",
            description = "raw, or text (bpftool raw dump); default: ${DEFAULT-VALUE}")
    PlainFormat format = PlainFormat.raw;

    @Override
    Format format() {
        return format == PlainFormat.text ? Format.text : Format.raw;
    }
}
