/**
 * The structural diff of two BTFs ({@code btfkit diff}): named types matched by kind and name,
 * anonymous enums by their enumerators, each pair compared member by member
 * ({@link io.btfkit.diff.BtfDiff}), printed as text or JSON. No libbpf or bpftool function does
 * this; the closest is comparing two {@code bpftool btf dump} outputs by hand. Rules: docs/DIFF.md.
 */
package io.btfkit.diff;
