package io.btfkit.dedup;

/**
 * Rule 2, the same enclosing definition elsewhere: a declaration a unit holds at a place of a
 * named struct, union, typedef or shared function is the definition every other unit's copy of
 * that enclosing definition holds there, when they all agree ({@link ContextResolver}). Needs
 * each input to be one compilation unit: in a whole program (a module, vmlinux) one declaration
 * node may stand for several units' different tags.
 */
final class ContextRule implements DeclarationRule {
    @Override
    public boolean applies(DeclarationEvidence e) {
        return e.units;
    }

    @Override
    public int resolve(DeclarationEvidence e) {
        return new ContextResolver(e.m, e.definitions(), e.byName(), e.base, e.aliasTarget, e::partOf,
                e.enclosing()).resolve();
    }
}
