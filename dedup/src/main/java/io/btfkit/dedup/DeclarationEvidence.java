package io.btfkit.dedup;

import io.btfkit.core.PhaseTimer;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import java.util.Arrays;

/**
 * What the declaration rules reason from: the merged inputs, the base, the mode of the run,
 * and — computed once, when a rule first asks — the definitions pass (the by-name comparison)
 * and the index of full tags by name. A rule that settles every declaration on its own
 * ({@link OnlyTagRule}) spares the later ones, and with them the definitions pass.
 */
final class DeclarationEvidence {
    final Merger.Merged m;
    /** The base, or null for a standalone run. */
    final BaseIndex base;
    /** Each input is one compilation unit (a link of objects or per-CU BTF, none of them split). */
    final boolean units;
    /**
     * A link of two or more inputs that are whole programs split on the base (modules on their
     * vmlinux): each input holds many units, already deduplicated.
     */
    final boolean wholeInputs;
    /** Parts of the merged ids partitioned in parallel (see {@code Deduplicator.parts}). */
    final int[] parts;
    /** Per merged type, the node a resolved declaration stands for, else -1. */
    final Aliases aliases;
    /** -Dbtfkit.dedup.definitions=always: no shortcut past the definitions pass (tests compare). */
    final boolean definitionsAlways;
    private final PhaseTimer timer;
    private ContextResolver.Enclosing enclosing;
    private java.util.concurrent.ForkJoinTask<ContextResolver.Enclosing> enclosingTask;
    private Definitions definitions;
    private Definitions.Atoms atoms;
    /** {@link #declaredNames}{@code (true)}, once made. */
    private IntOpenHashSet allDeclaredNames;
    private Definitions.ByName byName;
    private boolean settled;

    DeclarationEvidence(Merger.Merged m, BaseIndex base, boolean units, boolean link, int[] parts, Aliases aliases,
                        PhaseTimer timer) {
        this.m = m;
        this.base = base;
        this.units = units;
        this.wholeInputs = link && !units && m.anySplit && m.inputFirst.length - 1 >= 2;
        this.parts = parts;
        this.aliases = aliases;
        this.timer = timer;
        this.definitionsAlways = "always".equals(System.getProperty("btfkit.dedup.definitions"));
    }

    /**
     * The definitions pass's classes as the final partition's guesses ({@link DefinitionSeeds}),
     * or null when the pass did not run; once the rules are done. The pass's array of node
     * classes is taken over: the definitions are gone afterwards.
     */
    DefinitionSeeds seeds() {
        if (definitions == null) {
            return null;
        }
        ClassTable t = definitions.table;
        definitions = null;
        byName = null;
        return new DefinitionSeeds(t.nodeClass, t.first, t.ownClassCount());
    }

    /** Number of inputs merged. */
    int inputs() {
        return m.inputFirst.length - 1;
    }

    /** Whether a rule has settled every declaration: the rules after it have nothing to prove. */
    boolean settled() {
        return settled;
    }

    void settle() {
        settled = true;
    }

    /** The part holding merged index {@code i}: a resolved reference stays inside its part where it can. */
    int partOf(int i) {
        return partOf(parts, i);
    }

    /** The part of {@code parts} (merged indexes where each starts, then the end) holding index {@code i}. */
    static int partOf(int[] parts, int i) {
        int p = Arrays.binarySearch(parts, i);
        return p >= 0 ? Math.min(p, parts.length - 2) : -p - 2;
    }

    /** Enclosing definitions of the context rule; null unless it runs ({@link ContextRule#applies}). */
    ContextResolver.Enclosing enclosing() {
        if ((units || wholeInputs) && enclosing == null) {
            enclosing = enclosingTask != null ? enclosingTask.join() : ContextResolver.Enclosing.of(m);
            enclosingTask = null;
            timer.lap("enclosing");
        }
        return enclosing;
    }

    /**
     * Starts finding the enclosing definitions on another core while this one builds the atoms
     * and, for whole inputs, classifies the declared tags: both only read the merged words, and
     * each is a single-threaded pass over every type (4,023 modules: 30 and 54 ms).
     */
    private void enclosingMeanwhile() {
        if ((units || wholeInputs) && enclosing == null && enclosingTask == null) {
            enclosingTask = java.util.concurrent.ForkJoinPool.commonPool().submit(() -> ContextResolver.Enclosing.of(m));
        }
    }

    /**
     * The definitions pass, run on first use: for units, of every full tag and every enclosing
     * definition (the context rule walks them); for whole inputs linked on a base, of the full
     * tags of declared names and the enclosing definitions the context rule can learn from
     * ({@link #definitionsForContext}); otherwise of the full tags of declared names only
     * ({@link #declaredNames}).
     */
    Definitions definitions() {
        if (definitions == null) {
            enclosingMeanwhile();
            if (units) {
                atoms();
                ContextResolver.Enclosing enc = enclosing();
                definitions = define(i -> enc.is(m.kinds[i], m.words, m.starts[i]), null);
            } else if (wholeInputs) {
                definitions = definitionsForContext();
            } else {
                definitions = define(null, declaredNames(false)::contains);
            }
            timer.lap("definitions");
        }
        return definitions;
    }

    private Definitions define(java.util.function.IntPredicate alsoRoot, java.util.function.IntPredicate rootName) {
        return Definitions.of(m.words, m.starts, m.firstId, base, false, parts, alsoRoot, rootName, atoms());
    }

    private Definitions.Atoms atoms() {
        if (atoms == null) {
            atoms = new Definitions.Atoms(m.words, m.starts, m.kinds, base);
            timer.lap("atoms");
        }
        return atoms;
    }

    /**
     * Whole inputs: the full tags of declared names first; when some of those names has several
     * definitions, then also the enclosing definitions that reach one of its declarations
     * ({@link ContextRoots}) — the only ones the context rule can learn from — into the same
     * classes ({@link Definitions#classifyAlso}).
     */
    private Definitions definitionsForContext() {
        IntOpenHashSet names = declaredNames(true);
        Definitions tags = define(null, names::contains);
        timer.lap("definitions of declared tags");
        Definitions.ByName own = byNameOf(tags);
        java.util.BitSet roots = ContextRoots.of(m, enclosing(),
                (name, composite) -> ContextResolver.isAmbiguous(own, base, name, composite));
        timer.lap("context roots (" + roots.cardinality() + ")");
        if (!roots.isEmpty()) {
            tags.classifyAlso(roots);
        }
        return tags;
    }

    /**
     * The names whose definitions a rule can ask about: those of the own declarations
     * {@link UniqueDefinitionRule} may resolve (not those the base also declares, which it leaves
     * to the base, unless {@code all}: the context rule looks at every own declaration); when
     * {@link BaseForwardsRule} applies, which pairs split and base types through declarations on
     * either side, those of every declaration of both.
     */
    private IntOpenHashSet declaredNames(boolean all) {
        if (all && allDeclaredNames != null) {
            return allDeclaredNames;
        }
        boolean baseForwards = base != null && inputs() == 1;
        int[] w = m.words;
        int[] st = m.starts;
        byte[] kinds = m.kinds;
        // each range of the types into a set of its own, on every core, then their union (a
        // loop over every type, alone on one core before the rules: 3,000 units 100 ms)
        int n = st.length - 1;
        int ranges = ParallelScan.ranges(n);
        IntOpenHashSet[] found = new IntOpenHashSet[ranges];
        ParallelScan.each(ranges, k -> {
            IntOpenHashSet mine = new IntOpenHashSet();
            for (int i = ParallelScan.start(k, ranges, n), to = ParallelScan.start(k + 1, ranges, n); i < to; i++) {
                if (TypeKinds.isNamedDeclaration(kinds[i])
                        && (all || base == null || baseForwards || !base.hasDeclaration(w, st[i]))) {
                    mine.add(w[st[i]]);
                }
            }
            found[k] = mine;
        });
        IntOpenHashSet names = found[0];
        for (int k = 1; k < found.length; k++) {
            names.addAll(found[k]);
        }
        if (baseForwards) {
            base.addDeclarationNames(names);
        }
        if (all) {
            allDeclaredNames = names;
        }
        return names;
    }

    /**
     * Whether no rule has anything to resolve: no own declaration (and no base declaration a
     * split input could pair with). The chain is then skipped, and with it the definitions pass.
     */
    boolean nothingToResolve() {
        return declaredNames(true).isEmpty();
    }

    /** Each name's one definition class among the full tags not yet resolved, by part. */
    Definitions.ByName byName() {
        if (byName == null) {
            byName = byNameOf(definitions());
            timer.lap("names");
        }
        return byName;
    }

    /** The full tags of the names a rule can ask about (those some declaration carries), by definition. */
    private Definitions.ByName byNameOf(Definitions defs) {
        Definitions.ByName own = new Definitions.ByName();
        IntOpenHashSet asked = declaredNames(true);
        int first = m.firstId;
        int[] w = m.words;
        int[] st = m.starts;
        int count = parts.length - 1;
        int lfirst = defs.table.first;
        int keys = defs.table.ownClassCount() * count;
        // per (definition, part), the first tag in id order is the one that counts: later ones
        // change nothing in what add records (a definition has one name and one kind), and a
        // link of units meets each definition in hundreds of units. Each range of the types
        // picks the first tag of each key it meets (3,000 units: 234 → 85 ms); a tag of a
        // base's definition is picked every time (the base's definitions are many, a split
        // input's tags of them few)
        int[] firsts = ParallelScan.picks(st.length - 1, (from, to, out) -> {
            boolean[] met = new boolean[keys];
            int p = partOf(from);
            for (int i = from; i < to; i++) {
                while (i >= parts[p + 1]) {
                    p++;
                }
                if (!TypeKinds.isFullTag(m.kinds[i]) || aliases.isAlias(i)) {
                    continue;
                }
                int def = defs.defOf(first + i);
                if (def < 0) {
                    continue; // (a tag no rule asks about may be unclassified)
                }
                if (def >= lfirst) {
                    int key = (def - lfirst) * count + p;
                    if (met[key]) {
                        continue;
                    }
                    met[key] = true;
                }
                if (asked.contains(w[st[i]])) {
                    out.add(i);
                }
            }
        });
        for (int i : firsts) {
            own.add(w, st[i], first + i, defs.defOf(first + i), partOf(i));
        }
        return own;
    }
}
