package io.btfkit.dedup;

import io.btfkit.core.PhaseTimer;
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
    final int[] aliasTarget;
    /** -Dbtfkit.dedup.definitions=always: no shortcut past the definitions pass (tests compare). */
    final boolean definitionsAlways;
    private final PhaseTimer timer;
    private ContextResolver.Enclosing enclosing;
    private Definitions definitions;
    private Definitions.ByName byName;
    private boolean settled;

    DeclarationEvidence(Merger.Merged m, BaseIndex base, boolean units, boolean link, int[] parts, int[] aliasTarget,
                        PhaseTimer timer) {
        this.m = m;
        this.base = base;
        this.units = units;
        this.wholeInputs = link && !units && m.anySplit && m.inputFirst.length - 1 >= 2;
        this.parts = parts;
        this.aliasTarget = aliasTarget;
        this.timer = timer;
        this.definitionsAlways = "always".equals(System.getProperty("btfkit.dedup.definitions"));
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
        int p = Arrays.binarySearch(parts, i);
        return p >= 0 ? Math.min(p, parts.length - 2) : -p - 2;
    }

    /** Enclosing definitions of the context rule; null unless it runs ({@link ContextRule#applies}). */
    ContextResolver.Enclosing enclosing() {
        if ((units || wholeInputs) && enclosing == null) {
            enclosing = ContextResolver.Enclosing.of(m);
        }
        return enclosing;
    }

    /** The definitions pass, run on first use (with the enclosing definitions when the context rule runs). */
    Definitions definitions() {
        if (definitions == null) {
            definitions = Definitions.of(m.words, m.starts, m.firstId, base, false, parts,
                    parts.length > 2 && m.crossInputRefs, enclosing());
            timer.lap("definitions");
        }
        return definitions;
    }

    /** Each name's one definition class among the full tags not yet resolved, by part. */
    Definitions.ByName byName() {
        if (byName == null) {
            Definitions defs = definitions();
            Definitions.ByName own = new Definitions.ByName();
            int first = m.firstId;
            for (int p = 0; p + 1 < parts.length; p++) {
                for (int i = parts[p]; i < parts[p + 1]; i++) {
                    if (aliasTarget[i] < 0 && Definitions.ByName.isFullTag(m.words, m.starts[i])) {
                        own.add(m.words, m.starts[i], first + i, defs.defOf(first + i), p);
                    }
                }
            }
            byName = own;
            timer.lap("names");
        }
        return byName;
    }
}
