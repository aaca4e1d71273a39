package io.btfkit.diff;

import io.btfkit.core.Kind;
import java.util.List;

/**
 * One named type (or anonymous enum, or decl tag) that was added, removed or changed.
 *
 * @param status       added, removed or changed
 * @param kind         the BTF kind ({@link Kind}) on the second side, or the first if removed
 * @param name         the type's name ("" for an anonymous enum)
 * @param label        how reports name it: the name; {@code (anon) {FIRST, ...}} for an anonymous
 *                     enum; {@code VALUE -> func foo} (or {@code ... member 'm'}, {@code ... param 'p'})
 *                     for a decl tag
 * @param idA          type id in the first BTF, 0 when added
 * @param idB          type id in the second BTF, 0 when removed
 * @param descriptionA short description on the first side (size and member count, a FUNC's
 *                     signature, a TYPEDEF's target...), null when added
 * @param descriptionB the same on the second side, null when removed
 * @param note         how the type was matched when its name has several definitions on a side,
 *                     else null
 * @param properties   changes of the type itself (size, kind, linkage, return type, target ...)
 * @param members      STRUCT/UNION member changes (also for a TYPEDEF or VAR of an anonymous
 *                     struct or union), sorted by offset, then name
 * @param values       enumerator changes, in the second side's order, then removed ones
 * @param params       FUNC parameter changes by position
 */
public record TypeDiff(Status status, int kind, String name, String label, int idA, int idB,
        String descriptionA, String descriptionB, String note,
        List<PropertyChange> properties, List<MemberDiff> members, List<ValueDiff> values, List<ParamDiff> params) {

    public TypeDiff {
        properties = List.copyOf(properties);
        members = List.copyOf(members);
        values = List.copyOf(values);
        params = List.copyOf(params);
    }

    /** Whether the entry says anything (an unchanged pair has no changes). */
    public boolean hasChanges() {
        return !properties.isEmpty() || !members.isEmpty() || !values.isEmpty() || !params.isEmpty();
    }

    /** The word reports put before the label: {@code struct}, {@code union}, {@code enum}, {@code typedef}, ... */
    public String kindWord() {
        return kindWord(kind);
    }

    static String kindWord(int kind) {
        switch (kind) {
            case Kind.ENUM64:
                return "enum";
            case Kind.DECL_TAG:
                return "decl_tag";
            default:
                return Kind.name(kind).toLowerCase(java.util.Locale.ROOT);
        }
    }
}
