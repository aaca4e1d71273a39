package io.btfkit.validate;

import io.btfkit.core.Kind;

/**
 * The kernel's {@code btf_check_type_tags}: in every chain of modifiers, TYPE_TAGs come first
 * ({@code PTR -> TYPE_TAG -> CONST -> INT} is fine, {@code PTR -> CONST -> TYPE_TAG -> INT}
 * is not), and the kernel follows at most 32 modifiers per walk.
 *
 * <p>Order rule, checked per type: a chain has a TYPE_TAG after a non-tag modifier exactly
 * when some CONST/VOLATILE/RESTRICT/TYPEDEF refers directly to a TYPE_TAG (the first tag after
 * a non-tag modifier is referred to by a non-tag modifier), so the finding names that
 * modifier. Length rule (kernel profile): the kernel's own walk is replayed, in id order,
 * stopping at types already walked, so it reports where the kernel would; a walk that runs
 * into a cycle is left to the resolver, which reports the cycle as {@link Rule#LOOP}. Runs
 * after {@link MetaRules}, so every id it follows exists.
 */
final class TypeTagRules {
    private static final int CHAIN_LIMIT = 32;

    private TypeTagRules() {
    }

    static void check(Types t, Findings out, byte[] state) {
        for (int id = t.first; id < t.count && !out.done(); id++) {
            if (state[id - t.first] == Resolver.FAILED) {
                continue;
            }
            int k = t.kind(id);
            if (Types.isModifier(k) && k != Kind.TYPE_TAG) {
                int next = t.word2(id);
                if (t.kind(next) == Kind.TYPE_TAG) {
                    out.add(id, Rule.TYPE_TAG_ORDER, "refers to " + out.describe(next) + "; type tags must come before "
                            + Kind.name(k) + " in a chain");
                }
            }
        }
        if (out.checks(Rule.MODIFIER_CHAIN)) {
            chainLengths(t, out, state);
        }
    }

    /**
     * Replays the kernel's walk: from each modifier in id order, follow modifiers until a
     * non-modifier or an id at or below the previous start (already walked). A walk reaching
     * 33 modifiers is reported if the chain really ends (not a cycle, which the resolver
     * reports); the ids it covers are then not reported again.
     */
    private static void chainLengths(Types t, Findings out, byte[] state) {
        int[] seen = new int[CHAIN_LIMIT];
        int good = t.first - 1;
        int covered = t.first - 1;
        for (int id = t.first; id < t.count && !out.done(); id++) {
            if (!Types.isModifier(t.kind(id)) || state[id - t.first] == Resolver.FAILED) {
                continue;
            }
            int cur = id;
            int n = 0;
            boolean tooLong = false;
            walk:
            while (Types.isModifier(t.kind(cur))) {
                if (n == CHAIN_LIMIT) {
                    tooLong = true;
                    break;
                }
                for (int j = 0; j < n; j++) {
                    if (seen[j] == cur) {
                        break walk;
                    }
                }
                seen[n++] = cur;
                if (cur <= good || (cur != id && cur <= covered)) {
                    break;
                }
                cur = t.word2(cur);
                if (t.isOwn(cur) && state[cur - t.first] == Resolver.FAILED) {
                    break;
                }
            }
            if (tooLong) {
                int max = id;
                for (int j = 0; j < n; j++) {
                    max = Math.max(max, seen[j]);
                }
                boolean ends = false;
                for (long steps = 0; steps <= t.count; steps++) {
                    if (!Types.isModifier(t.kind(cur)) || cur <= good) {
                        ends = true;
                        break;
                    }
                    max = Math.max(max, cur);
                    cur = t.word2(cur);
                    if (t.isOwn(cur) && state[cur - t.first] == Resolver.FAILED) {
                        break;
                    }
                }
                if (ends) {
                    out.add(id, Rule.MODIFIER_CHAIN, "its chain of modifiers, walked in the kernel's order, is longer than "
                            + CHAIN_LIMIT);
                }
                covered = Math.max(covered, max);
            }
            good = id;
        }
    }
}
