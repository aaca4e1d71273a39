package io.btfkit.dedup;

/**
 * One rule of DEDUP.md's "Declarations: resolved only where proven": it records in
 * {@link DeclarationEvidence#aliasTarget} each declaration it proves to declare one full type.
 * Rules run in {@link DeclarationChain}'s order; a rule sees what the earlier ones resolved and
 * never undoes it. A rule says itself which evidence it needs ({@link #applies}): whether each
 * input is one compilation unit, whether there is a base, how many split inputs.
 */
interface DeclarationRule {
    /** Whether this run holds the evidence the rule reasons from. */
    boolean applies(DeclarationEvidence e);

    /** Records the declarations the rule proves; returns how many it resolved. */
    int resolve(DeclarationEvidence e);
}
