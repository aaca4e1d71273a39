/**
 * Relocation of split BTF from its distilled base onto a new base (a vmlinux), as libbpf's
 * {@code btf__relocate} and the kernel's module loader do it, byte for byte and with the same
 * failures ({@link io.btfkit.relocate.Relocator}, {@code btfkit relocate}). Rules:
 * docs/DISTILL-RELOCATE.md.
 */
package io.btfkit.relocate;
