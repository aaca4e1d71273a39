package io.btfkit.dedup;

import java.util.stream.IntStream;

/**
 * Rule 3, a unique name: when exactly one definition (the by-name comparison of the definitions
 * pass, counting the base's) carries a declaration's name, the declaration declares it — struct
 * and union tags share one namespace, as in C. Applies to every run the only-tag shortcut did
 * not settle. In a whole-program run on a base (a module's split dedup) a declaration the base
 * also carries is left to the base's declaration, as libbpf maps it there first.
 */
final class UniqueDefinitionRule implements DeclarationRule {
    @Override
    public boolean applies(DeclarationEvidence e) {
        return !e.settled();
    }

    @Override
    public int resolve(DeclarationEvidence e) {
        Merger.Merged m = e.m;
        BaseIndex base = e.base;
        Definitions.ByName own = e.byName();
        Aliases aliases = e.aliases;
        boolean leaveBaseDeclarations = !e.units && base != null;
        int[] w = m.words;
        int[] st = m.starts;
        // each declaration on its own (the maps are only read): in parallel
        return IntStream.range(0, st.length - 1).parallel().map(i -> {
            if (!TypeKinds.isNamedDeclaration(m.kinds[i]) || aliases.isAlias(i)) {
                return 0;
            }
            int s = st[i];
            if (leaveBaseDeclarations && base.hasDeclaration(w, s)) {
                return 0;
            }
            int target = Declarations.uniqueDefinitionNode(w, s, own, base, e.partOf(i));
            if (target >= 0 && Declarations.kindMatches(w, s, Declarations.nodeWords(m, base, target),
                    Declarations.nodeStart(m, base, target))) {
                aliases.set(i, target);
                return 1;
            }
            return 0;
        }).sum();
    }
}
