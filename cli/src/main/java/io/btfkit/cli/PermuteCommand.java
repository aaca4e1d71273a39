package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.ext.BtfExt;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.core.permute.IdMap;
import io.btfkit.core.permute.Permuter;
import io.btfkit.validate.OutputCheck;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code btfkit permute}: reorders types like libbpf's btf__permute — an explicit map, or sorted
 * by name for binary-search lookups — and remaps every reference (and .BTF.ext).
 */
@Command(name = "permute", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Reorder types (libbpf btf__permute) and remap every reference.",
            "--id-map gives the new id of every type (standalone: ids 0..N, first 0; split: the split ids in order);",
            "--sort name orders types by name as the kernel build does, so libbpf can find them by binary search."},
        footer = {"", "Examples:",
            "  btfkit permute prog.btf --id-map 0,2,1,3 -o prog.perm.btf",
            "  btfkit permute vmlinux.btf --sort name -o vmlinux.sorted.btf"})
final class PermuteCommand implements Callable<Integer> {
    enum Sort { name, kind }

    @Parameters(paramLabel = "INPUT", description = "BTF to reorder")
    Path input;

    @Option(names = {"-B", "--base", "--base-btf", "--btf_base"}, paramLabel = "B", description = "base BTF of a split input")
    Path base;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Order order;

    static final class Order {
        @Option(names = "--id-map", paramLabel = "A,B,...", split = ",", description = "new id of every type")
        int[] idMap;

        @Option(names = "--sort", paramLabel = "name|kind",
                description = "name: by name, anonymous first (kernel build order); kind: by kind, then name")
        Sort sort;
    }

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", required = true, description = "the reordered BTF (- for stdout)")
    Path output;

    @Mixin
    OutputOptions out;

    @Override
    public Integer call() {
        Outputs.check(List.of(input), Outputs.given(base), List.of(output), false);
        LoadedInput li = Inputs.load(input, Inputs.base(base));
        Btf btf = Inputs.btf(li);
        Btf result;
        BtfExt ext = li.ext();
        try {
            int[] map = order.idMap != null ? order.idMap
                    : order.sort == Sort.name ? Permuter.sortByName(btf) : Permuter.sortByKindAndName(btf);
            IdMap idMap = IdMap.of(btf, map);
            result = Permuter.permute(btf, idMap);
            if (ext != null) {
                ext = Permuter.permute(ext, idMap);
            }
            out.verify(result, List.of(new OutputCheck.Source(input.toString(), () -> btf, idMap::newId)));
        } catch (BtfException e) {
            throw new FileException(input, e);
        }
        byte[] bytes = out.format == OutputOptions.Format.elf ? ElfOutput.replace(li, out, result, ext, li.distilledBase())
                : out.encode(result, input);
        Outputs.write(output, bytes, List.of(input), false);
        return ExitCodes.OK;
    }

}
