package io.btfkit.diff;

/**
 * One member of a STRUCT/UNION as the diff sees it, on one side. Members of anonymous structs
 * and unions are lifted into the named type that contains them (see {@link MemberDiff}).
 *
 * @param type         the member's type as C spells it ({@code struct list_head},
 *                     {@code void (*)(struct device *)}, {@code char[16]}, {@code union {...}})
 * @param bitOffset    offset from the start of the named type, in bits
 * @param bitfieldSize bitfield width in bits, 0 when the member is not a bitfield
 * @param size         size of the member's type in bytes, -1 when it has none (void, functions)
 */
public record MemberInfo(String type, long bitOffset, int bitfieldSize, long size) {
}
