/**
 * BTF printed as a C header that compiles and whose layouts match the BTF: the
 * {@code vmlinux.h} of bpftool's {@code btf dump file F format c} (libbpf's {@code btf_dump}),
 * byte for byte with bpftool 7.1 under {@code --c-style bpftool71}; {@code --root} limits it to
 * named types and what they need, as {@code pahole -C} does. Entry point:
 * {@link io.btfkit.cheader.CHeaderPrinter}. Rules: docs/C-HEADER.md.
 */
package io.btfkit.cheader;
