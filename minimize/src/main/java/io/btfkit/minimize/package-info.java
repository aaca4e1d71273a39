/**
 * CO-RE relocations resolved as libbpf resolves them when it loads an object ({@code relo_core.c}:
 * {@code bpf_core_calc_relo_insn} with one candidate list per local type for the object, then
 * {@code bpf_core_patch_insn} on each instruction; {@link io.btfkit.minimize.CoreRelocator},
 * {@code btfkit core-check}), and the smallest BTF those relocations need from a target, built as
 * bpftool's {@code gen min_core_btf} builds it ({@link io.btfkit.minimize.Minimizer},
 * {@link io.btfkit.minimize.MinimalBtf}; {@code btfkit minimize}), for a vmlinux and for a
 * module's split BTF. Rules: docs/CORE-RELO.md and docs/MINIMIZE.md.
 */
package io.btfkit.minimize;
