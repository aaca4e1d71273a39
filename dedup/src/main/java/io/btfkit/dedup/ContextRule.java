package io.btfkit.dedup;

/**
 * Rule 2, the same enclosing definition elsewhere: a declaration a unit holds at a place of a
 * named struct, union, typedef or shared function is the definition every other unit's copy of
 * that enclosing definition holds there, when they all agree ({@link ContextResolver}).
 *
 * <p>When each input is one compilation unit, one proven place resolves the declaration: a unit
 * has one tag per name. In a link of whole programs split on a base (modules on their vmlinux)
 * one declaration node stands for every unit of its input that declared the name, and those
 * units may mean different tags; there the node is resolved only when every type of its input
 * that reaches it is proven ({@link EveryUseProven}): each path up from it ends in an enclosing
 * definition with an agreeing proof, none in a variable, a function only this input has, or a
 * type nothing refers to.
 */
final class ContextRule implements DeclarationRule {
    @Override
    public boolean applies(DeclarationEvidence e) {
        return e.units || e.wholeInputs;
    }

    @Override
    public int resolve(DeclarationEvidence e) {
        return new ContextResolver(e.m, e.definitions(), e.byName(), e.base, e.aliases, e::partOf,
                e.enclosing(), e.wholeInputs).resolve();
    }
}
