package io.btfkit.corpus;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.dedup.DedupResult;
import java.util.Arrays;
import java.util.List;

/**
 * Checks a link of {@link CuSplitter} units against the splitter's truth: no output type may
 * represent two different source types (a false merge), declarations aside, which may stand for
 * every struct of their name. Also counts how far the output is from the source's own size.
 */
public final class LinkAudit {
    /** Outcome: output types, false merges found (0 for a correct link), and one example. */
    public record Report(int outputTypes, int falseMerges, String example) {
    }

    private LinkAudit() {
    }

    public static Report audit(Btf source, List<CuSplitter.Unit> units, DedupResult result) {
        // the source may itself hold equivalent types (libbpf does not always merge them):
        // representing two equivalent source types by one output type is no false merge
        int[] sameAs = io.btfkit.dedup.BaseIndex.of(source).equivalenceRepresentatives();
        Btf out = result.btf();
        int[] origin = new int[out.typeCount()];
        Arrays.fill(origin, 0);
        int falseMerges = 0;
        String example = null;
        for (int k = 0; k < units.size(); k++) {
            CuSplitter.Unit unit = units.get(k);
            int[] truth = unit.truth();
            for (int id = 1; id < truth.length; id++) {
                int o = result.outputId(k, id, 1);
                int t = sameAs[truth[id]];
                if (out.kind(o) == Kind.FWD || source.kind(t) == Kind.FWD) {
                    // a declaration stands for a name, not for one definition
                    if (!String.valueOf(out.name(o)).equals(source.name(t))) {
                        falseMerges++;
                        example = example != null ? example : "unit " + k + " type " + id + " -> output " + o;
                    }
                    continue;
                }
                if (origin[o] == 0) {
                    origin[o] = t;
                } else if (origin[o] != t) {
                    falseMerges++;
                    if (example == null) {
                        example = "output [" + o + "] " + out.type(o) + " stands for source [" + origin[o] + "] and ["
                                + t + "] (unit " + k + " type " + id + ")";
                    }
                }
            }
        }
        return new Report(out.ownTypeCount(), falseMerges, example);
    }
}
