package io.btfkit.core.stats;

/**
 * One kind's share of a BTF's own types.
 *
 * @param kind     the kind number ({@code BTF_KIND_*})
 * @param name     the kind as bpftool spells it ({@code STRUCT}); {@code KIND_<n>} for a kind
 *                 btfkit does not know (readable through a layout section)
 * @param count    number of types of this kind
 * @param bytes    bytes of the type section they take (headers and their extra words)
 * @param elements their vlen elements: members, enumerators, parameters or DATASEC entries
 *                 (0 for kinds whose vlen counts nothing, like FUNC)
 */
public record KindStats(int kind, String name, long count, long bytes, long elements) {
}
