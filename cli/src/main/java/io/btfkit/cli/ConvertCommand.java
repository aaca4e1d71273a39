package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.gcc.GccNormalizer;
import io.btfkit.validate.OutputCheck;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code btfkit convert}: re-encodes BTF without changing its types — raw ↔ text ↔ ELF section,
 * byte order, header form. Raw to raw with no option is byte-identical. An input whose .BTF
 * holds several blobs ({@code ld -r}) is written as the same blobs back to back (raw or ELF).
 * With {@code --fix}, gcc 12's encodings are rewritten into BTF the kernel accepts where the
 * meaning is unambiguous ({@link GccNormalizer}), with one summary line saying what changed
 * ({@code -v}: a line per input).
 */
@Command(name = "convert", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Re-encode BTF (raw, text, byte order, header form) without changing its types.",
            "--fix rewrites gcc 12 encodings into kernel-acceptable BTF where the meaning is unambiguous (docs/GCC.md)."},
        footer = {"", "Examples:",
            "  btfkit convert vmlinux.btf --endian big -o vmlinux.be.btf",
            "  btfkit convert mod.ko --base vmlinux.btf --out-format text -o mod.txt",
            "  btfkit convert --fix obj.o --out-format elf -o obj.fixed.o"})
final class ConvertCommand implements Callable<Integer> {
    @Parameters(paramLabel = "INPUT", arity = "1..*", description = "BTF in any form btfkit reads (several with --out-dir)")
    List<Path> inputs;

    @Option(names = {"-B", "--base", "--base-btf", "--btf_base"}, paramLabel = "B", description = "base BTF of split inputs")
    Path base;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "output (one input)")
    Path output;

    @Option(names = "--out-dir", paramLabel = "D", description = "batch mode: D/STEM.btf (.txt for text) per input")
    Path outDir;

    @Option(names = "--in-place", description = "allow OUT to be INPUT")
    boolean inPlace;

    @Option(names = "--fix", description = "rewrite gcc 12 encodings the kernel rejects where the meaning is unambiguous"
            + " (FWD type word, enum declarations, SIGNED|CHAR, anonymous FUNCs, duplicate VARs, arrays indexed by void;"
            + " DATASEC layout and FUNC linkage from the object's symbol table)")
    boolean fix;

    @Option(names = {"-v", "--verbose"}, description = "with --fix: a line per input about its gcc 12 encodings, not just the summary")
    boolean verbose;

    @Mixin
    OutputOptions out;

    @Mixin
    BatchOptions batch;

    /** What --fix found in the inputs, reported once at the end. */
    private GccNotes notes;

    @Override
    public Integer call() {
        BatchOptions.checkOneOrMany(output, outDir, inputs.size());
        notes = new GccNotes("convert", verbose, batch.quiet);
        if (output != null) {
            Outputs.check(inputs, Outputs.given(base), List.of(output), inPlace);
            convertOne(inputs.get(0), Inputs.base(base), output);
            notes.printSummary();
            return ExitCodes.OK;
        }
        Outputs.checkBatch(inputs, Outputs.given(base), in -> List.of(target(in)), inPlace);
        Btf baseBtf = Inputs.base(base);
        Outputs.ensureDirectory(outDir);
        int status = Batch.run("convert", inputs, in -> convertOne(in, baseBtf, target(in)), batch.quiet, batch.json);
        notes.printSummary();
        return status;
    }

    /** D/STEM.btf (.txt for text, the input's uncompressed name for ELF). */
    private Path target(Path in) {
        return outDir.resolve(out.format == OutputOptions.Format.elf ? Stems.uncompressedName(in)
                : Stems.stem(in) + (out.format == OutputOptions.Format.text ? ".txt" : ".btf"));
    }

    private void convertOne(Path input, Btf baseBtf, Path target) {
        LoadedInput in = Inputs.load(input, baseBtf);
        List<Btf> read = in.units();
        List<Btf> units = read;
        List<int[]> idMaps = null;
        if (fix) {
            GccNormalizer.FileResult r;
            try {
                r = GccNormalizer.normalize(in, GccNormalizer.Level.FIX); // reads the ELF's symbols
            } catch (io.btfkit.core.BtfException e) {
                throw new FileException(input, e);
            }
            units = r.btfs();
            idMaps = r.units().stream().map(GccNormalizer.UnitResult::idMap).toList();
            notes.add(input, r.applied(), r.kept());
        }
        verify(input, read, units, idMaps);
        if (units.size() > 1 && out.format == OutputOptions.Format.text) {
            throw new FileException(input, new BtfFormatException("holds " + units.size() + " BTF blobs (ld -r); text output"
                    + " holds one BTF: link them, or write raw or ELF"));
        }
        byte[] bytes;
        if (out.format == OutputOptions.Format.elf) {
            bytes = units.size() == 1 ? ElfOutput.replace(in, out, units.get(0), in.ext(), in.distilledBase())
                    : replaceBtfSection(in, concatenate(units));
        } else {
            bytes = units.size() == 1 ? out.encode(units.get(0), input) : concatenate(units);
        }
        Outputs.write(target, bytes, List.of(input), inPlace);
    }

    /**
     * Each blob written must carry no finding its input blob did not have: convert re-encodes,
     * so it carries what it read and says so; --fix must not break anything ({@link OutputCheck}).
     */
    private void verify(Path input, List<Btf> read, List<Btf> written, List<int[]> idMaps) {
        for (int k = 0; k < written.size(); k++) {
            Btf before = read.get(k);
            int[] m = idMaps == null ? null : idMaps.get(k);
            String label = read.size() == 1 ? Names.quote(input) : Names.quote(input) + "#" + (k + 1);
            try {
                out.verify(written.get(k), List.of(new OutputCheck.Source(label, () -> before,
                        m == null ? java.util.function.IntUnaryOperator.identity() : id -> m[id])));
            } catch (io.btfkit.core.BtfException e) {
                throw new FileException(input, e);
            }
        }
    }

    /** A copy of the ELF input whose .BTF holds {@code btf} (several blobs); other sections as they were. */
    private static byte[] replaceBtfSection(LoadedInput in, byte[] btf) {
        if (in.elf() == null) {
            throw new FileException(in.path(), new BtfFormatException("--out-format elf needs an ELF input"));
        }
        java.util.LinkedHashMap<String, byte[]> sections = new java.util.LinkedHashMap<>();
        sections.put(".BTF", btf);
        try {
            return in.elf().withSections(sections);
        } catch (io.btfkit.core.BtfException e) {
            throw new FileException(in.path(), e);
        }
    }

    /** Several blobs written back to back, as ld -r leaves them. */
    private byte[] concatenate(List<Btf> units) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        for (Btf u : units) {
            bos.writeBytes(out.encode(u));
        }
        return bos.toByteArray();
    }
}
