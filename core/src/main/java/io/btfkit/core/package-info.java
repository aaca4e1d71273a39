/**
 * The BTF model and its formats: {@link io.btfkit.core.Btf} (types as int words, one string
 * table, standalone or split on a base), {@link io.btfkit.core.Kind}, the string pool and
 * builder, the raw reader and writer in both byte orders with the classic 24-byte header or the
 * layout header ({@link io.btfkit.core.BtfHeader}, {@link io.btfkit.core.LayoutTable}).
 * Subpackages: {@code io} (inputs detected by content: ELF, compression, tar, bzImage),
 * {@code elf}, {@code ext} ({@code .BTF.ext}), {@code text} (bpftool's raw text, both ways,
 * and its JSON), {@code json}, {@code permute} ({@code btfkit permute}) and {@code stats}.
 *
 * <p>Matches libbpf's {@code btf__parse}, {@code btf__parse_split}, {@code btf__raw_data} and
 * {@code btf_ext__new}, and bpftool's {@code btf dump file F format raw} for the text form.
 * Every capability module (validate, dedup, distill, relocate, minimize, cheader, diff, gcc)
 * depends on this one and on nothing else of btfkit's but where it checks its output.
 */
package io.btfkit.core;
