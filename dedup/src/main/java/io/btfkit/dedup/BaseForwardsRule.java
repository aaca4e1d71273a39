package io.btfkit.dedup;

/**
 * Rule 3 across base and split (DEDUP.md, "Split dedup: a base declaration and the split's one
 * definition"): a base FWD that a split struct or typedef pairs with the split's one definition
 * of its name stands for that definition ({@link BaseForwards}). Needs a base and exactly one
 * split input that is a whole program (libbpf's split dedup of a module): with several inputs a
 * resolved reference could cross from one into another.
 */
final class BaseForwardsRule implements DeclarationRule {
    @Override
    public boolean applies(DeclarationEvidence e) {
        return !e.units && e.base != null && e.inputs() == 1;
    }

    @Override
    public int resolve(DeclarationEvidence e) {
        return BaseForwards.resolve(e.m, e.base, e.byName(), e.aliases);
    }
}
