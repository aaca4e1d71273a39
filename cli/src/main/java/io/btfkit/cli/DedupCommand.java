package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.validate.OutputCheck;
import io.btfkit.dedup.BaseIndex;
import io.btfkit.dedup.DedupResult;
import io.btfkit.dedup.Deduplicator;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code btfkit dedup}: deduplicates one BTF (standalone, or split against its base, as libbpf's
 * btf__dedup), or many in one run with {@code --out-dir}. For a BPF object the .BTF.ext follows.
 */
@Command(name = "dedup", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Deduplicate BTF: one type per equivalence class, in input order (libbpf btf__dedup semantics).",
            "With --base, split types equal to base types map to them. Many inputs with --out-dir run in parallel."},
        footer = {"", "Examples:",
            "  btfkit dedup prog.bpf.o --out-format elf -o prog.dedup.o",
            "  btfkit dedup mod.ko --base vmlinux.btf -o mod.btf",
            "  btfkit dedup --base vmlinux.btf --out-dir out/ modules/*.ko.xz"})
final class DedupCommand implements Callable<Integer> {
    @Parameters(paramLabel = "INPUT", arity = "1..*", description = "raw BTF, ELF, compressed or text")
    List<Path> inputs;

    @Option(names = {"-B", "--base", "--base-btf", "--btf_base"}, paramLabel = "B", description = "base BTF the inputs are split on")
    Path base;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "output file (one input)")
    Path output;

    @Option(names = "--out-dir", paramLabel = "D", description = "batch mode: write D/STEM.btf for each input")
    Path outDir;

    @Option(names = "--map", paramLabel = "FILE",
            description = "write the id mapping: input file, input id, output id (tab-separated), one line per input type")
    Path mapFile;

    @Option(names = "--in-place", description = "allow OUT to be INPUT")
    boolean inPlace;

    @Mixin
    BatchOptions batch;

    @Mixin
    OutputOptions out;

    @Override
    public Integer call() {
        BatchOptions.checkOneOrMany(output, outDir, inputs.size());
        if (output != null) {
            Outputs.check(inputs, Outputs.given(base), Outputs.given(output, mapFile), inPlace);
        } else {
            Outputs.checkBatch(inputs, Outputs.given(base), in -> List.of(target(in)), inPlace);
        }
        Btf baseBtf = Inputs.base(base);
        BaseIndex index = baseBtf == null ? null : indexOf(baseBtf);
        if (output != null) {
            dedupOne(inputs.get(0), baseBtf, index, output, mapFile, true);
            return ExitCodes.OK;
        }
        Outputs.ensureDirectory(outDir);
        return Batch.run("dedup", inputs, in -> dedupOne(in, baseBtf, index, target(in), null, false), batch.quiet, batch.json);
    }

    /** Batch mode: D/STEM.btf (.txt for text, the input's uncompressed name for ELF). */
    private Path target(Path in) {
        return outDir.resolve(out.format == OutputOptions.Format.elf ? Stems.uncompressedName(in)
                : Stems.stem(in) + (out.format == OutputOptions.Format.text ? ".txt" : ".btf"));
    }

    private BaseIndex indexOf(Btf b) {
        try {
            return BaseIndex.of(b);
        } catch (BtfException e) {
            throw new FileException(base, e);
        }
    }

    /**
     * @param alone the only dedup of this run: its output is encoded and written on another core
     *              while it is verified ({@link StagedOutput}); a batch has a module per core
     */
    private void dedupOne(Path in, Btf baseBtf, BaseIndex index, Path target, Path map, boolean alone) {
        LoadedInput li = Inputs.load(in, baseBtf);
        Btf btf = Inputs.btf(li);
        BaseIndex idx = index;
        if (btf.isSplit() && (idx == null || idx.base() != btf.base())) {
            idx = BaseIndex.of(btf.base()); // e.g. split on the object's own .BTF.base
        }
        DedupResult r;
        try {
            r = Deduplicator.dedup(btf, li.ext(), idx);
        } catch (BtfException e) {
            throw new FileException(in, e);
        }
        boolean elf = out.format == OutputOptions.Format.elf;
        // the output and the map land together or not at all, and only once verified
        try (Outputs.Transaction t = new Outputs.Transaction()) {
            StagedOutput staged = alone && !elf ? new StagedOutput(t, target, () -> out.encode(r.btf(), in)) : null;
            try {
                out.verify(r.btf(), List.of(new OutputCheck.Source(in.toString(), () -> btf,
                        id -> r.outputId(0, id, btf.firstId()))));
            } catch (BtfException e) {
                throw new FileException(in, e);
            } finally {
                if (staged != null) {
                    staged.settle();
                }
            }
            if (staged != null) {
                staged.done();
            } else {
                t.add(target, elf ? ElfOutput.replace(li, out, r.btf(), r.ext(), li.distilledBase()) : out.encode(r.btf(), in));
            }
            if (map != null) {
                t.add(map, IdMaps.body(List.of(in), List.of(btf), r));
            }
            t.commit();
        }
    }
}
