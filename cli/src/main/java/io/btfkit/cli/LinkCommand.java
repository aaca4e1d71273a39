package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.dedup.BaseIndex;
import io.btfkit.dedup.DedupResult;
import io.btfkit.dedup.Deduplicator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code btfkit link}: merges inputs in command-line order (libbpf btf__add_btf) and
 * deduplicates the result — the BTF linker for build systems.
 */
@Command(name = "link", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Merge BTF inputs in order and deduplicate them into one BTF.",
            "Standalone inputs (e.g. gcc -gbtf objects) are treated as compilation units: a declaration is"
                + " resolved from its own unit's definitions, from the same definition elsewhere, or by a unique name."},
        footer = {"", "Examples:",
            "  btfkit link a.o b.o c.o -o prog.btf",
            "  btfkit link --base vmlinux.btf mod1.ko mod2.ko -o mods.btf",
            "  btfkit link --base vmlinux.btf --standalone modules/*.ko -o all.btf"})
final class LinkCommand implements Callable<Integer> {
    @Parameters(paramLabel = "INPUT", arity = "1..*", description = "raw BTF, ELF, compressed or text; in link order")
    List<Path> inputs;

    @Option(names = "--base", paramLabel = "B", description = "base BTF: inputs may be split on it; the output is split on it")
    Path base;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", required = true)
    Path output;

    @Option(names = "--standalone", description = "with --base: one self-contained BTF holding the base and every input")
    boolean standalone;

    @Option(names = "--no-dedup", description = "only concatenate (btf__add_btf), do not deduplicate")
    boolean noDedup;

    @Option(names = "--map", paramLabel = "FILE",
            description = "write the id mapping: input file, input id, output id (tab-separated), one line per input type")
    Path mapFile;

    @Mixin
    OutputOptions out;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (standalone && base == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--standalone needs --base");
        }
        if (out.format == OutputOptions.Format.elf) {
            throw new CommandLine.ParameterException(spec.commandLine(), "link writes raw BTF or text, not ELF");
        }
        Btf baseBtf = Inputs.base(base);
        // inputs are read in parallel (thousands of objects in a kernel build), kept in order
        LoadedInput[] loaded = new LoadedInput[inputs.size()];
        java.util.stream.IntStream.range(0, loaded.length).parallel()
                .forEach(i -> loaded[i] = Inputs.load(inputs.get(i), baseBtf));
        List<Btf> btfs = new ArrayList<>();
        for (LoadedInput li : loaded) {
            if (li.btf().isSplit() && li.btf().base() != baseBtf) {
                throw new FileException(li.path(), new io.btfkit.core.BtfFormatException(
                        "its BTF is split on its own .BTF.base; relocate it onto the base first"));
            }
            btfs.add(li.btf());
        }
        List<Path> files = new ArrayList<>(inputs);
        DedupResult r;
        try {
            if (standalone) {
                r = Deduplicator.linkStandalone(baseBtf, btfs);
                btfs.add(0, baseBtf);
                files.add(0, base);
            } else {
                BaseIndex index = baseBtf == null ? null : BaseIndex.of(baseBtf);
                r = noDedup ? Deduplicator.concatenate(btfs, index) : Deduplicator.link(btfs, index, Deduplicator.Options.LINK);
            }
            out.verify(r.btf());
        } catch (BtfException e) {
            throw new FileException(output, e);
        }
        List<Path> readFrom = new ArrayList<>(files);
        Outputs.write(output, out.encode(r.btf()), readFrom, false);
        if (mapFile != null) {
            IdMaps.write(mapFile, files, btfs, r);
        }
        return ExitCodes.OK;
    }
}
