package io.btfkit.dedup;

import io.btfkit.core.PhaseTimer;
import java.util.List;

/**
 * The declaration rules of DEDUP.md in its order, run once each where their evidence is
 * there. Rule 1 (a unit's own definition is no evidence for its declaration) is a restriction
 * every rule below obeys, not a rule of its own. Adding a rule is a class and a line here.
 */
final class DeclarationChain {
    private DeclarationChain() {
    }

    static final List<DeclarationRule> RULES = List.of(
            new ContextRule(),          // rule 2: the same enclosing definition in other units
            new OnlyTagRule(),          // rule 3, whole standalone programs: one full tag per name
            new UniqueDefinitionRule(), // rule 3: exactly one definition carries the name
            new BaseForwardsRule());    // rule 3 across base and split: a pairing proves a base FWD

    /**
     * Runs every rule that applies, then redirects references to what they resolved; returns
     * how many redirected references cross from one of the evidence's parts to another.
     */
    static long resolve(DeclarationEvidence e, PhaseTimer timer) {
        if (e.nothingToResolve()) {
            return 0; // (no declaration: nothing to resolve, nothing to redirect)
        }
        for (DeclarationRule rule : RULES) {
            if (rule.applies(e)) {
                rule.resolve(e);
                timer.lap(rule.getClass().getSimpleName());
            }
        }
        long crossing = Declarations.redirect(e.m, e.aliases, e.parts);
        e.aliases.settle(); // (the partition and the output only read them)
        timer.lap("redirect");
        return crossing;
    }
}
