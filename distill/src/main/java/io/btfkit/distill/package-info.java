/**
 * Distillation of a module's split BTF into a minimal {@code .BTF.base} and a new split BTF on
 * it, as libbpf's {@code btf__distill_base} (pahole's {@code distilled_base}) does it, byte for
 * byte ({@link io.btfkit.distill.Distiller}, {@code btfkit distill}). Rules: docs/DISTILL-RELOCATE.md.
 */
package io.btfkit.distill;
