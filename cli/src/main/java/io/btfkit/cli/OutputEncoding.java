package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.elf.ElfFile;
import io.btfkit.core.ext.BtfExt;
import io.btfkit.core.ext.BtfExtWriter;
import io.btfkit.core.text.RawTextPrinter;
import io.btfkit.validate.OutputCheck;
import io.btfkit.validate.Validator;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * How a command encodes the BTF it writes: raw (default), bpftool text, or a copy of the input
 * ELF with its BTF sections replaced; byte order and header form; and whether the output is
 * validated before it is written (on by default, so a bug in a pass never ships bad BTF). The
 * {@code --out-format} option is the subclass's: {@link OutputOptions} offers elf,
 * {@link PlainOutputOptions} (commands with no ELF to copy) does not — help lists only what works.
 */
abstract class OutputEncoding {
    enum Format { raw, text, elf }

    enum Endian { little, big }

    enum Header { classic, layout }

    /** The output format {@code --out-format} chose. */
    abstract Format format();

    @Option(names = "--endian", paramLabel = "little|big", description = "byte order of raw output (default: the input's)")
    Endian endian;

    @Option(names = "--header", paramLabel = "classic|layout",
            description = "classic 24-byte header, or 32-byte header with a layout section (default: the input's)")
    Header header;

    @Option(names = "--no-verify", description = "do not validate the output before writing it (for benchmarks)")
    boolean noVerify;

    /** The raw format to write {@code btf} in, after --endian and --header. */
    Btf.RawFormat rawFormat(Btf btf) {
        Btf.RawFormat f = btf.format();
        if (endian != null) {
            f = f.withOrder(endian == Endian.big ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        }
        if (header != null) {
            f = header == Header.layout ? f.withLayout() : f.classic();
        }
        return f;
    }

    /** Checks the output unless --no-verify (throws OperationException: exit 1). */
    void verify(Btf btf) {
        if (!noVerify) {
            Validator.checkOutput(btf);
        }
    }

    /** Warning lines printed per output at most; the rest are counted in one more line. */
    private static final int MAX_WARNINGS = 8;

    /**
     * Checks the output against the inputs it was made from unless --no-verify: a finding the
     * operation introduced throws ({@link io.btfkit.validate.ValidationException}, exit 1);
     * one an input already had is written through and reported as a warning line on stderr
     * ({@link OutputCheck}).
     */
    void verify(Btf btf, List<OutputCheck.Source> sources) {
        if (noVerify) {
            return;
        }
        List<OutputCheck.Carried> carried = OutputCheck.check(btf, sources);
        if (carried.isEmpty()) {
            return;
        }
        PrintWriter err = Streams.err();
        for (int i = 0; i < carried.size() && i < MAX_WARNINGS; i++) {
            OutputCheck.Carried c = carried.get(i);
            err.println("btfkit: " + c.label() + ": warning: " + io.btfkit.core.Printable.oneLine(c.message()));
        }
        if (carried.size() > MAX_WARNINGS) {
            err.println("btfkit: " + carried.get(MAX_WARNINGS).label() + ": warning: and "
                    + (carried.size() - MAX_WARNINGS) + " more findings the input carried (btfkit validate lists them)");
        }
        err.flush();
    }

    /**
     * {@link #encode(Btf)} for a BTF read from (or made from) {@code file}, which a failure names:
     * a type of a kind only the input's layout section describes cannot take a classic header.
     */
    byte[] encode(Btf btf, java.nio.file.Path file) {
        try {
            return encode(btf);
        } catch (io.btfkit.core.BtfFormatException e) {
            throw new FileException(file, e);
        }
    }

    /** Raw BTF or text bytes for {@code btf}. */
    byte[] encode(Btf btf) {
        if (format() == Format.text) {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            RawTextPrinter.print(btf, bos);
            return bos.toByteArray();
        }
        return BtfWriter.write(btf, rawFormat(btf));
    }

    /**
     * A copy of {@code elf} with {@code .BTF} (and {@code .BTF.ext}, {@code .BTF.base} when
     * given) replaced.
     */
    byte[] encodeElf(ElfFile elf, Btf btf, BtfExt ext, Btf distilledBase) {
        LinkedHashMap<String, byte[]> sections = new LinkedHashMap<>();
        sections.put(".BTF", BtfWriter.write(btf, rawFormat(btf)));
        if (ext != null) {
            sections.put(".BTF.ext", BtfExtWriter.write(endian == null ? ext
                    : ext.withOrder(endian == Endian.big ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN)));
        }
        if (distilledBase != null) {
            sections.put(".BTF.base", BtfWriter.write(distilledBase, rawFormat(distilledBase)));
        }
        return elf.withSections(sections);
    }
}
