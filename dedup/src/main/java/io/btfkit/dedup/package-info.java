/**
 * Deduplication and linking: libbpf's {@code btf__add_btf} followed by {@code btf__dedup}
 * ({@code btfkit dedup}, {@code btfkit link}), standalone or split on a base. The exact coarsest
 * equivalence of the type graph (strongly connected components, hash-consing, side-by-side walks
 * of cycles), after resolving declarations only where a rule of the declaration chain proves
 * which type they declare ({@link io.btfkit.dedup.DeclarationRule}). Entry point:
 * {@link io.btfkit.dedup.Deduplicator}. Algorithm and rules: docs/DEDUP.md.
 */
package io.btfkit.dedup;
