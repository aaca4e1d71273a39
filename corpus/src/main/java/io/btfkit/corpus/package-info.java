/**
 * Tools for measuring btfkit on real and generated data, not part of the command: unit splits of
 * a vmlinux ({@link io.btfkit.corpus.CuSplitter}), link benchmarks and audits for false merges and
 * missed proofs ({@link io.btfkit.corpus.LinkAudit}, {@link io.btfkit.corpus.ProofAudit}), random
 * BTF generators for property tests, and JMH benchmarks ({@code bench}). Results: docs/BENCHMARKS.md.
 */
package io.btfkit.corpus;
