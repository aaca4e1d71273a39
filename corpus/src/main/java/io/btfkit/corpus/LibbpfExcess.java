package io.btfkit.corpus;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import io.btfkit.dedup.DedupResult;
import io.btfkit.dedup.Deduplicator;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which output types a btfkit link of {@link CuSplitter} units has that libbpf's link of the
 * same units does not, and why: the two outputs are deduplicated together (as one program, so
 * only a name's unique definition resolves a declaration), a btfkit type equivalent to no
 * libbpf type is an excess type (a function whose prototype differs is one, so the excess
 * exceeds the difference of the counts by libbpf's own copies of such types). For every unit declaration btfkit kept that ends in an excess
 * type, it prints the named types of its unit that reach it (the only place evidence could come
 * from), in how many units each of them is (by the splitter's truth), what libbpf put at the
 * declaration's place under that named type, and whether that is the declaration's truth.
 *
 * <p>Usage: {@code LibbpfExcess VMLINUX UNITS SEED FWD_P LIBBPF_OUT} (with {@code
 * -Dbtfkit.split.roots=reference} for the reference split; {@code LIBBPF_OUT} is {@code btfref
 * dedup -o LIBBPF_OUT} of the units {@code CuSplitter} writes with the same arguments).
 */
public final class LibbpfExcess {
    /** Why a kept declaration has no proof: no named type of its unit reaches it. */
    private static final int NO_NAMED_TYPE = 0;
    /** ... named types reach it, but no other unit's copy of one has a full type at that place. */
    private static final int NO_FULL_COPY = 1;
    /** Another unit's copy of a named type above has a full type there: evidence, if that type is one definition. */
    private static final int FULL_COPY = 2;
    private static final String DECLARATION = "a declaration";
    private static final String NOTHING = "nothing";

    /**
     * Outcome: type counts; btfkit types equivalent to no libbpf type (excess) and how many of
     * them reach no kept declaration (unexplained); the unit declarations btfkit kept that end in
     * excess types, by why no proof exists (no named type above; named types above, but no other
     * unit's copy holds a full type at that place) or with such a copy (evidence the linker
     * should have used); libbpf's picks for them, right and wrong by the truth; details to print.
     */
    public record Report(int btfkitTypes, int libbpfTypes, int excess, int unexplained, int keptDeclarations,
                         int noFullCopy, int noNamedType, int withEvidence, int libbpfRight, int libbpfWrong,
                         List<String> details) {
        @Override
        public String toString() {
            return "btfkit " + btfkitTypes + " types, libbpf " + libbpfTypes + "; " + excess + " btfkit types libbpf has no"
                    + " equivalent of, " + unexplained + " of them reaching no kept declaration; " + keptDeclarations
                    + " kept declarations end in them: " + noFullCopy + " under named types no other unit has with a full"
                    + " type there, " + noNamedType + " under no named type, " + withEvidence + " with evidence (missed);"
                    + " libbpf's pick for them: " + libbpfRight + " the truth, " + libbpfWrong + " not the truth";
        }
    }

    private LibbpfExcess() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 5) {
            System.err.println("usage: LibbpfExcess VMLINUX UNITS SEED FWD_PROBABILITY LIBBPF_OUT");
            System.exit(2);
        }
        Btf src = BtfReader.read(Files.readAllBytes(Paths.get(args[0])));
        int units = Integer.parseInt(args[1]);
        long seed = Long.parseLong(args[2]);
        double p = Double.parseDouble(args[3]);
        Btf libbpf = BtfReader.read(Files.readAllBytes(Paths.get(args[4])));
        CuSplitter.Roots mode = CuSplitter.Roots.parse(System.getProperty("btfkit.split.roots", "every"));
        List<CuSplitter.Unit> split = new CuSplitter(src, units, seed, p, mode).split();
        List<Btf> inputs = new ArrayList<>();
        for (CuSplitter.Unit u : split) {
            inputs.add(u.btf());
        }
        DedupResult r = Deduplicator.link(inputs, null, Deduplicator.Options.LINK);
        Report rep = analyse(src, split, r, libbpf);
        rep.details().forEach(System.out::println);
        System.out.println(rep);
    }

    /** Compares link {@code r} of {@code split} with libbpf's output {@code libbpf} of the same units. */
    public static Report analyse(Btf src, List<CuSplitter.Unit> split, DedupResult r, Btf libbpf) {
        List<String> details = new ArrayList<>();
        Btf out = r.btf();
        DedupResult joint = Deduplicator.link(List.of(out, libbpf), null, Deduplicator.Options.WHOLE);
        IntOpenHashSet inLibbpf = new IntOpenHashSet();
        for (int id = 1; id < libbpf.typeCount(); id++) {
            inLibbpf.add(joint.outputId(1, id, 1));
        }
        IntOpenHashSet excess = new IntOpenHashSet();
        for (int id = 1; id < out.typeCount(); id++) {
            if (!unique(out, id) && !inLibbpf.contains(joint.outputId(0, id, 1))) {
                excess.add(id);
            }
        }
        int missing = 0;
        IntOpenHashSet btfkitClasses = new IntOpenHashSet();
        for (int id = 1; id < out.typeCount(); id++) {
            btfkitClasses.add(joint.outputId(0, id, 1));
        }
        for (int id = 1; id < libbpf.typeCount(); id++) {
            if (!unique(libbpf, id) && !btfkitClasses.contains(joint.outputId(1, id, 1))) {
                missing++;
            }
        }
        details.add(String.format("btfkit %d types, libbpf %d; btfkit types libbpf has no equivalent of: %d; libbpf types btfkit"
                + " has no equivalent of: %d", out.ownTypeCount(), libbpf.ownTypeCount(), excess.size(), missing));
        Map<String, Integer> byKind = new TreeMap<>();
        excess.forEach(id -> byKind.merge(Kind.name(out.kind(id)), 1, Integer::sum));
        details.add("excess by kind: " + byKind);
        // per kept declaration: the named types above it, with their unit counts and libbpf's picks
        List<String> lines = new ArrayList<>();
        IntOpenHashSet keptOutputs = new IntOpenHashSet();
        List<int[]> decls = new ArrayList<>(); // {unit, id, pick or 0, reason}
        Map<String, IntOpenHashSet> picksByName = new TreeMap<>();
        for (int k = 0; k < split.size(); k++) {
            Btf u = split.get(k).btf();
            int[] truth = split.get(k).truth();
            for (int d = 1; d < u.typeCount(); d++) {
                int o = r.outputId(k, d, 1);
                if (!isDeclaration(u, d) || !excess.contains(o) || !isDeclaration(out, o)) {
                    continue;
                }
                StringBuilder line = new StringBuilder();
                line.append("unit ").append(k).append(" ").append(u.type(d)).append(" (truth ")
                        .append(describe(src, truth[d])).append(")");
                for (int id = 1; id < u.typeCount(); id++) {
                    if (Kind.isComposite(u.kind(id)) && u.nameOff(id) != 0 && u.name(id).equals(u.name(d))) {
                        line.append("; the unit also defines ").append(describe(src, truth[id]));
                    }
                }
                int pick = 0;
                int reason = NO_NAMED_TYPE;
                for (int[] via : namedAbove(u, d)) {
                    int e = via[0];
                    int copies = copiesOf(split, truth[e]);
                    Map<String, Integer> there = atSamePlace(split, k, truth[e], via);
                    boolean full = there.keySet().stream().anyMatch(x -> !x.equals(DECLARATION) && !x.equals(NOTHING));
                    reason = Math.max(reason, full ? FULL_COPY : NO_FULL_COPY);
                    int at = libbpfPick(libbpf, u, e, via);
                    line.append("\n    under ").append(Kind.name(u.kind(e))).append(" '").append(u.name(e)).append("' (in ")
                            .append(copies).append(copies == 1 ? " unit" : " units");
                    if (copies > 1) {
                        line.append("; the other copies have there: ").append(there);
                    }
                    line.append("): libbpf has ")
                            .append(at > 0 ? libbpf.type(at).toString() : at == 0 ? "nothing there" : "several types there");
                    if (at > 0) {
                        pick = pick == 0 || pick == at ? at : -1;
                        picksByName.computeIfAbsent(u.name(d), x -> new IntOpenHashSet()).add(at);
                    }
                }
                lines.add(line.toString());
                decls.add(new int[] {k, d, pick, reason});
                keptOutputs.add(o);
            }
        }
        int[] right = new int[3];
        int[] wrong = new int[3];
        int[] byReason = new int[3];
        for (int i = 0; i < decls.size(); i++) {
            int[] x = decls.get(i);
            byReason[x[3]]++;
            Btf u = split.get(x[0]).btf();
            int truthId = split.get(x[0]).truth()[x[1]];
            int pick = x[2];
            String how = "";
            IntOpenHashSet byName = picksByName.get(u.name(x[1]));
            if (pick == 0 && byName != null && byName.size() == 1 && libbpf.findByName(u.name(x[1]), Kind.FWD) <= 0) {
                // libbpf resolves every declaration of a name alike (one FWD node after its
                // primitive pass): its output declares none, and its one pick is known
                pick = byName.iterator().nextInt();
                how = " (libbpf's pick for every '" + u.name(x[1]) + "': its output declares none)";
            }
            String line = lines.get(i);
            if (pick > 0) {
                boolean ok = libbpf.kind(pick) == src.kind(truthId) && libbpf.sizeOrType(pick) == src.sizeOrType(truthId)
                        && libbpf.vlen(pick) == src.vlen(truthId);
                (ok ? right : wrong)[x[3]]++;
                line += "\n    libbpf took " + libbpf.type(pick) + how + (ok ? ": the truth" : ": NOT the truth");
            } else {
                line += libbpf.findByName(u.name(x[1]), Kind.FWD) <= 0
                        ? "\n    libbpf resolved it (its output declares no '" + u.name(x[1]) + "'); to which definition not found"
                        : "\n    libbpf's pick not found";
            }
            details.add(line);
        }
        List<Integer> ids = new ArrayList<>();
        excess.forEach(ids::add);
        ids.sort(null);
        for (int id : ids) {
            details.add("excess " + out.type(id));
        }
        IntOpenHashSet above = above(out, keptOutputs);
        int unexplained = 0;
        for (int id : ids) {
            if (!above.contains(id)) {
                unexplained++;
                details.add("NOT above a kept declaration: " + out.type(id));
            }
        }
        return new Report(out.ownTypeCount(), libbpf.ownTypeCount(), excess.size(), unexplained, decls.size(),
                byReason[NO_FULL_COPY], byReason[NO_NAMED_TYPE], byReason[FULL_COPY], right[0] + right[1] + right[2],
                wrong[0] + wrong[1] + wrong[2], details);
    }

    /** The types of {@code b} that reach one of {@code targets} (the targets included). */
    private static IntOpenHashSet above(Btf b, IntOpenHashSet targets) {
        List<IntArrayList> users = new ArrayList<>();
        for (int id = 0; id < b.typeCount(); id++) {
            users.add(new IntArrayList());
        }
        int[] w = b.words();
        for (int id = 1; id < b.typeCount(); id++) {
            int from = id;
            TypeRefs.forEachTypeIdSlot(w, b.startOf(id), slot -> users.get(w[slot]).add(from));
        }
        IntOpenHashSet seen = new IntOpenHashSet(targets);
        IntArrayList work = new IntArrayList(targets);
        while (!work.isEmpty()) {
            for (int x : users.get(work.popInt())) {
                if (seen.add(x)) {
                    work.add(x);
                }
            }
        }
        return seen;
    }

    /**
     * The named types of unit {@code u} that reach declaration {@code d} through anonymous types
     * (pointers, qualifiers, prototypes, arrays, anonymous structs), each as {named id, slot
     * path from it down to d...}.
     */
    private static List<int[]> namedAbove(Btf u, int d) {
        List<IntArrayList> referrers = new ArrayList<>();
        for (int id = 0; id < u.typeCount(); id++) {
            referrers.add(new IntArrayList());
        }
        int[] w = u.words();
        for (int id = 1; id < u.typeCount(); id++) {
            int s = u.startOf(id);
            for (int i = 0; i < TypeRefs.typeIdCount(w, s); i++) {
                referrers.get(w[TypeRefs.typeIdSlot(w, s, i)]).add(id);
                referrers.get(w[TypeRefs.typeIdSlot(w, s, i)]).add(i);
            }
        }
        List<int[]> found = new ArrayList<>();
        int[] down = new int[u.typeCount()];
        int[] slot = new int[u.typeCount()];
        java.util.Arrays.fill(down, -1);
        IntArrayList work = new IntArrayList();
        work.add(d);
        down[d] = 0;
        while (!work.isEmpty()) {
            int y = work.popInt();
            IntArrayList refs = referrers.get(y);
            for (int i = 0; i < refs.size(); i += 2) {
                int from = refs.getInt(i);
                if (down[from] >= 0) {
                    continue;
                }
                down[from] = y;
                slot[from] = refs.getInt(i + 1);
                if (!u.name(from).isEmpty()) {
                    IntArrayList path = new IntArrayList();
                    path.add(from);
                    for (int x = from; x != d; x = down[x]) {
                        path.add(slot[x]);
                    }
                    found.add(path.toIntArray());
                } else {
                    work.add(from);
                }
            }
        }
        return found;
    }

    /** What the other units' copies of source type {@code sourceId} hold at the place {@code via} describes. */
    private static Map<String, Integer> atSamePlace(List<CuSplitter.Unit> split, int k, int sourceId, int[] via) {
        Map<String, Integer> found = new TreeMap<>();
        for (int v = 0; v < split.size(); v++) {
            Btf vu = split.get(v).btf();
            int[] t = split.get(v).truth();
            for (int id = 1; v != k && id < t.length; id++) {
                if (t[id] != sourceId || isDeclaration(vu, id)) {
                    continue;
                }
                int node = id;
                for (int i = 1; i < via.length && node != 0; i++) {
                    int[] w = vu.words();
                    int s = vu.startOf(node);
                    node = via[i] < TypeRefs.typeIdCount(w, s) ? w[TypeRefs.typeIdSlot(w, s, via[i])] : 0;
                }
                String what = node == 0 ? NOTHING : isDeclaration(vu, node) ? DECLARATION
                        : Kind.name(vu.kind(node)) + " size=" + vu.sizeOrType(node);
                found.merge(what, 1, Integer::sum);
            }
        }
        return found;
    }

    private static int copiesOf(List<CuSplitter.Unit> split, int sourceId) {
        int n = 0;
        for (CuSplitter.Unit unit : split) {
            int[] t = unit.truth();
            for (int id = 1; id < t.length; id++) {
                if (t[id] == sourceId && !isDeclaration(unit.btf(), id)) {
                    n++;
                    break;
                }
            }
        }
        return n;
    }

    /**
     * What libbpf's output has at the place {@code via} describes under its types of e's kind and
     * name: the one type found there, 0 for none, -1 for several.
     */
    private static int libbpfPick(Btf lb, Btf u, int e, int[] via) {
        IntOpenHashSet picks = new IntOpenHashSet();
        for (int id = 1; id < lb.typeCount(); id++) {
            if (lb.kind(id) != u.kind(e) || lb.nameOff(id) == 0 || !lb.name(id).equals(u.name(e))) {
                continue;
            }
            int node = id;
            for (int i = 1; i < via.length && node != 0; i++) {
                int[] w = lb.words();
                int s = lb.startOf(node);
                node = via[i] < TypeRefs.typeIdCount(w, s) ? w[TypeRefs.typeIdSlot(w, s, via[i])] : 0;
            }
            if (node != 0) {
                picks.add(node);
            }
        }
        return picks.size() == 1 ? picks.iterator().nextInt() : picks.isEmpty() ? 0 : -1;
    }

    /** VAR and DATASEC: never merged (by either linker), so never equivalent across the two outputs. */
    private static boolean unique(Btf b, int id) {
        return b.kind(id) == Kind.VAR || b.kind(id) == Kind.DATASEC;
    }

    private static String describe(Btf b, int id) {
        return "[" + id + "] " + Kind.name(b.kind(id)) + " '" + b.name(id) + "' size=" + b.sizeOrType(id);
    }

    private static boolean isDeclaration(Btf b, int id) {
        int k = b.kind(id);
        return k == Kind.FWD || Kind.isEnum(k) && b.vlen(id) == 0;
    }
}
