/**
 * The kernel's load-time BTF checks ({@code kernel/bpf/btf.c}: {@code btf_parse_hdr},
 * {@code btf_check_all_metas}, {@code btf_check_all_types}, {@code btf_check_type_tags}) as a
 * {@link io.btfkit.validate.Validator} that reports every broken
 * {@link io.btfkit.validate.Rule} ({@code btfkit validate}, kernel and structural profiles), and
 * {@link io.btfkit.validate.OutputCheck}, the check every command runs before it writes BTF: an
 * output carries no defect its inputs did not carry. Rules: docs/VALIDATE.md.
 */
package io.btfkit.validate;
