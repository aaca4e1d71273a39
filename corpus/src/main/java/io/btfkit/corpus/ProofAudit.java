package io.btfkit.corpus;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import io.btfkit.dedup.DedupResult;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks, with the splitter's truth, that a link of {@link CuSplitter} units left no declaration
 * unresolved that could have been resolved by proof — so that the types it keeps beyond the
 * source's count are the least any linker that does not guess can keep.
 *
 * <p>A unit's declaration (a FWD, or an enum without values) of a name the source defines more
 * than once is only resolvable from evidence in its own unit. This audit looks for evidence
 * independently of the linker's code, from the truth:
 * <ul>
 *   <li>a named struct or union E of the unit reaches the declaration through types that are not
 *       named tags (pointers, arrays, typedefs, qualifiers, function prototypes, anonymous
 *       structs), E's name has one definition in the source (so every copy of E anywhere is the
 *       same C definition), and another unit's copy of E has a full type at the same place;</li>
 *   <li>the same through a typedef, function or variable of a name the source has once (the
 *       linker does not use such context: evidence of this kind would be a proof it misses).</li>
 * </ul>
 * A definition of the name in the declaration's own unit is no evidence: a compiler declares no
 * tag complete in the same unit, so the unit holds two tags of that name ({@link
 * LinkAudit#definedAndDeclared} counts such units).
 * An unresolved declaration with evidence is a <em>missed proof</em>. Those without evidence are
 * counted by why: no named type of the unit reaches them (the splitter made an anonymous type a
 * unit's root), only functions or variables do (each is in one unit only), or every enclosing
 * struct has an ambiguous name itself, or no other unit has that struct with a full type there.
 */
public final class ProofAudit {
    /**
     * Outcome over all unresolved declarations of ambiguous names: missed proofs (should be 0)
     * with one example, and the unprovable ones by reason.
     */
    public record Report(int unresolved, int missed, String example, int contextFree, int functionOnly,
                         int ambiguousEnclosing, int noOtherCopy) {
        @Override
        public String toString() {
            return unresolved + " unresolved declarations of ambiguous names: " + missed + " with evidence (missed), "
                    + contextFree + " reached by no named type of their unit, " + functionOnly
                    + " only from typedefs, functions or variables, " + ambiguousEnclosing + " only inside structs of ambiguous names, "
                    + noOtherCopy + " inside structs no other unit defines with a full type there";
        }
    }

    private final Btf src;
    private final List<CuSplitter.Unit> units;
    /** Source definitions (full named composites, valued enums) per name. */
    private final Map<String, Integer> definitions = new HashMap<>();
    /** Per source id of a named type (not a declaration): (unit, unit id) of its copies. */
    private final Int2ObjectOpenHashMap<IntArrayList> copies = new Int2ObjectOpenHashMap<>();

    private ProofAudit(Btf src, List<CuSplitter.Unit> units) {
        this.src = src;
        this.units = units;
        for (int id = 1; id < src.typeCount(); id++) {
            int s = src.startOf(id);
            if (!src.name(id).isEmpty() && !isDeclaration(src.words(), s)) {
                definitions.merge(tagKey(src, id), 1, Integer::sum);
            }
        }
        for (int k = 0; k < units.size(); k++) {
            Btf u = units.get(k).btf();
            int[] truth = units.get(k).truth();
            for (int id = 1; id < u.typeCount(); id++) {
                int s = u.startOf(id);
                if (!u.name(id).isEmpty() && !isDeclaration(u.words(), s)) {
                    copies.computeIfAbsent(truth[id], x -> new IntArrayList()).add(k);
                    copies.get(truth[id]).add(id);
                }
            }
        }
    }

    public static Report audit(Btf source, List<CuSplitter.Unit> units, DedupResult result) {
        return new ProofAudit(source, units).run(result);
    }

    private Report run(DedupResult result) {
        Btf out = result.btf();
        int unresolved = 0;
        int missed = 0;
        int contextFree = 0;
        int functionOnly = 0;
        int ambiguousEnclosing = 0;
        int noOtherCopy = 0;
        String example = null;
        for (int k = 0; k < units.size(); k++) {
            Btf u = units.get(k).btf();
            List<int[]> referrers = null;
            for (int id = 1; id < u.typeCount(); id++) {
                int s = u.startOf(id);
                if (!isDeclaration(u.words(), s) || u.name(id).isEmpty()
                        || definitions.getOrDefault(tagKey(u, id), 0) < 2) {
                    continue;
                }
                int o = result.outputId(k, id, 1);
                if (!isDeclaration(out.words(), out.startOf(o))) {
                    continue; // resolved
                }
                unresolved++;
                if (referrers == null) {
                    referrers = referrers(u);
                }
                String evidence = evidence(k, u, id, referrers);
                switch (evidence) {
                    case "context-free" -> contextFree++;
                    case "function-only" -> functionOnly++;
                    case "ambiguous-enclosing" -> ambiguousEnclosing++;
                    case "no-other-copy" -> noOtherCopy++;
                    default -> {
                        missed++;
                        if (example == null) {
                            example = "unit " + k + " [" + id + "] " + u.type(id) + ": " + evidence;
                        }
                    }
                }
            }
        }
        return new Report(unresolved, missed, example, contextFree, functionOnly, ambiguousEnclosing, noOtherCopy);
    }

    /**
     * Why declaration {@code d} of unit {@code k} cannot be resolved by proof (one of the
     * reasons counted), or a description of the evidence that resolves it.
     */
    private String evidence(int k, Btf u, int d, List<int[]> referrers) {
        int[] w = u.words();
        // walk up through types that are not named tags, remembering the way down
        Map<Integer, int[]> down = new HashMap<>(); // node -> {child towards d, slot index}
        ArrayDeque<Integer> work = new ArrayDeque<>();
        down.put(d, null);
        work.add(d);
        boolean anyNamed = false;
        boolean anyComposite = false;
        boolean anyUnambiguous = false;
        while (!work.isEmpty()) {
            int y = work.poll();
            for (int[] r : referrersOf(referrers, y)) {
                int from = r[0];
                if (down.containsKey(from)) {
                    continue;
                }
                down.put(from, new int[] {y, r[1]});
                int fs = u.startOf(from);
                int fk = Kind.kindOf(w[fs + 1]);
                boolean named = !u.name(from).isEmpty();
                if (named && Kind.isComposite(fk) && Kind.vlenOf(w[fs + 1]) > 0) {
                    anyComposite = true;
                    if (definitions.getOrDefault(tagKey(u, from), 0) == 1) {
                        anyUnambiguous = true;
                        String found = fullAtSameplace(k, u, from, down);
                        if (found != null) {
                            return found;
                        }
                    }
                    continue; // a named tag: the walk does not pass it
                }
                if (named && (isFullTag(w, fs) || isDeclaration(w, fs))) {
                    continue;
                }
                if (named) {
                    anyNamed = true;
                    // a typedef, function or variable of a name the source has once is one
                    // definition too: the linker does not use such context, so evidence here
                    // would be a proof it misses
                    if (definitions.getOrDefault(tagKey(u, from), 0) == 1) {
                        String found = fullAtSameplace(k, u, from, down);
                        if (found != null) {
                            return found;
                        }
                    }
                }
                work.add(from);
            }
        }
        if (anyComposite) {
            return anyUnambiguous ? "no-other-copy" : "ambiguous-enclosing";
        }
        return anyNamed ? "function-only" : "context-free";
    }

    /**
     * Follows the way from enclosing struct {@code e} down to the declaration in every other
     * unit's copy of {@code e}; the first full type found there, described, or null.
     */
    private String fullAtSameplace(int k, Btf u, int e, Map<Integer, int[]> down) {
        IntArrayList path = new IntArrayList();
        for (int[] step = down.get(e); step != null; step = down.get(step[0])) {
            path.add(step[1]);
        }
        IntArrayList at = copies.get(units.get(k).truth()[e]);
        for (int i = 0; at != null && i < at.size(); i += 2) {
            int v = at.getInt(i);
            if (v == k) {
                continue;
            }
            Btf vu = units.get(v).btf();
            int node = at.getInt(i + 1);
            for (int p = 0; p < path.size() && node != 0; p++) {
                int[] vw = vu.words();
                int vs = vu.startOf(node);
                node = path.getInt(p) < TypeRefs.typeIdCount(vw, vs) ? vw[TypeRefs.typeIdSlot(vw, vs, path.getInt(p))] : 0;
            }
            if (node != 0 && isFullTag(vu.words(), vu.startOf(node))) {
                return "unit " + v + " has " + vu.type(node) + " at the same place of " + u.type(e);
            }
        }
        return null;
    }

    /** Per unit type, its referrers as {referrer, slot index}. */
    private static List<int[]> referrers(Btf u) {
        List<int[]> edges = new ArrayList<>();
        for (int id = 1; id < u.typeCount(); id++) {
            int[] w = u.words();
            int s = u.startOf(id);
            for (int i = 0; i < TypeRefs.typeIdCount(w, s); i++) {
                edges.add(new int[] {w[TypeRefs.typeIdSlot(w, s, i)], id, i});
            }
        }
        edges.sort((a, b) -> Integer.compare(a[0], b[0]));
        return edges;
    }

    private static List<int[]> referrersOf(List<int[]> edges, int target) {
        int lo = 0;
        int hi = edges.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (edges.get(mid)[0] < target) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        List<int[]> out = new ArrayList<>();
        for (int i = lo; i < edges.size() && edges.get(i)[0] == target; i++) {
            out.add(new int[] {edges.get(i)[1], edges.get(i)[2]});
        }
        return out;
    }

    /**
     * Name plus namespace: struct and union tags (and FWDs) share one, enums have theirs, and
     * other named kinds one per kind.
     */
    private static String tagKey(Btf b, int id) {
        int k = b.kind(id);
        String space = Kind.isComposite(k) || k == Kind.FWD ? "tag" : Kind.isEnum(k) ? "enum" : "kind" + k;
        return space + " " + b.name(id);
    }

    private static boolean isFullTag(int[] w, int s) {
        int info = w[s + 1];
        int k = Kind.kindOf(info);
        return Kind.isComposite(k) || (Kind.isEnum(k) && Kind.vlenOf(info) > 0);
    }

    private static boolean isDeclaration(int[] w, int s) {
        int info = w[s + 1];
        int k = Kind.kindOf(info);
        return k == Kind.FWD || (Kind.isEnum(k) && Kind.vlenOf(info) == 0);
    }
}
