package io.btfkit.dedup;

import io.btfkit.core.Kind;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;

/**
 * Rule 3 without the definitions pass, for a standalone input of whole programs (a vmlinux):
 * when no declared name is carried by two or more full tags, a declared name's definition is
 * unique exactly when one full tag carries it, so that tag is the target, and every declaration
 * is settled. When some declared name has several full tags it resolves nothing and leaves the
 * run to {@link UniqueDefinitionRule}: only the definitions pass can tell whether they are one
 * definition. Saves the definitions pass on a vmlinux (40 ms of a cold run);
 * {@code -Dbtfkit.dedup.definitions=always} turns it off ({@code DeclarationShortcutTest}
 * compares).
 */
final class OnlyTagRule implements DeclarationRule {
    @Override
    public boolean applies(DeclarationEvidence e) {
        return !e.units && e.base == null && !e.definitionsAlways;
    }

    @Override
    public int resolve(DeclarationEvidence e) {
        int resolved = resolveByOnlyTag(e.m, e.aliases);
        if (resolved < 0) {
            return 0;
        }
        e.settle();
        return resolved;
    }

    /** How many declarations it resolved, or -1 (none resolved) when a declared name has several full tags. */
    private static int resolveByOnlyTag(Merger.Merged m, Aliases aliases) {
        int[] w = m.words;
        int[] st = m.starts;
        byte[] kinds = m.kinds;
        int n = st.length - 1;
        IntOpenHashSet declaredTags = new IntOpenHashSet();
        IntOpenHashSet declaredEnums = new IntOpenHashSet();
        for (int i = 0; i < n; i++) {
            if (TypeKinds.isNamedDeclaration(kinds[i])) {
                (TypeKinds.kind(kinds[i]) == Kind.FWD ? declaredTags : declaredEnums).add(w[st[i]]);
            }
        }
        if (declaredTags.isEmpty() && declaredEnums.isEmpty()) {
            return 0;
        }
        Int2IntOpenHashMap composites = new Int2IntOpenHashMap();
        Int2IntOpenHashMap enums = new Int2IntOpenHashMap();
        composites.defaultReturnValue(Names.ABSENT);
        enums.defaultReturnValue(Names.ABSENT);
        for (int i = 0; i < n; i++) {
            if (!TypeKinds.isFullTag(kinds[i])) {
                continue; // (only named structs, unions and enums with values can be the one tag)
            }
            int s = st[i];
            int info = w[s + 1];
            int kind = Kind.kindOf(info);
            Int2IntOpenHashMap map = Kind.isComposite(kind) && declaredTags.contains(w[s]) ? composites
                    : Kind.isEnum(kind) && Kind.vlenOf(info) > 0 && declaredEnums.contains(w[s]) ? enums : null;
            if (map != null) {
                if (map.get(w[s]) != Names.ABSENT) {
                    return -1;
                }
                map.put(w[s], m.firstId + i);
            }
        }
        int resolved = 0;
        for (int i = 0; i < n; i++) {
            if (!TypeKinds.isNamedDeclaration(kinds[i])) {
                continue;
            }
            int s = st[i];
            int target = Kind.kindOf(w[s + 1]) == Kind.FWD ? composites.get(w[s]) : enums.get(w[s]);
            if (target >= 0 && Declarations.kindMatches(w, s, w, st[target - m.firstId])) {
                aliases.set(i, target);
                resolved++;
            }
        }
        return resolved;
    }
}
