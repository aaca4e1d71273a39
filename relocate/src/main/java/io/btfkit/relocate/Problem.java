package io.btfkit.relocate;

import io.btfkit.core.Kind;
import io.btfkit.core.Printable;
import java.util.Objects;

/**
 * One reason a relocation is impossible: a distilled base type that maps to no single type of
 * the new base (or, rarely, a type or string of the input that is not a valid distilled BTF).
 *
 * @param typeId  the distilled base type id ({@link Reason#STRING_UNMAPPED}: the split type id)
 * @param kind    its kind ({@link Kind} constant)
 * @param name    its name ({@link Reason#STRING_UNMAPPED}: the string)
 * @param size    its size word (0 for kinds without a size)
 * @param reason  why it cannot be mapped
 * @param detail  what the new base has instead, for people (e.g. "base has [1234] STRUCT 'device' size=744")
 */
public record Problem(int typeId, int kind, String name, int size, Reason reason, String detail) {
    /** Why a distilled type cannot be mapped. */
    public enum Reason {
        /** The new base has no INT/FLOAT/ENUM/ENUM64/FWD/STRUCT/UNION of that name. */
        MISSING("missing"),
        /** The new base has that name only as kinds it cannot match (e.g. a union for a struct FWD). */
        KIND_DIFFERS("kind differs"),
        /** Same name and kind, but no candidate of the required size. */
        SIZE_DIFFERS("size differs"),
        /** A STRUCT/UNION embedded by value in a split type whose new-base namesake has another size. */
        SIZE_CHANGED_EMBEDDED("size changed while embedded"),
        /**
         * A STRUCT/UNION the split needs by size (array element, member, variable, parameter)
         * whose only namesake in the new base is a FWD, which has no size.
         */
        NEEDED_BY_SIZE("needed by size"),
        /** An INT whose namesake of the same size has another encoding (e.g. char no longer signed). */
        ENCODING_DIFFERS("encoding differs"),
        /** Several new-base types match and nothing tells them apart. */
        AMBIGUOUS("several candidates"),
        /** The distilled base holds a type no distilled base may hold (anonymous, or of another kind). */
        INVALID_DISTILLED_TYPE("not a distilled base type"),
        /** A named new-base type matches the distilled base's void entry (an empty name at a non-zero offset). */
        INVALID_NAME("empty name"),
        /** A split string offset points into the distilled base's strings, but no mapped type has it as name. */
        STRING_UNMAPPED("string not mapped");

        private final String text;

        Reason(String text) {
            this.text = text;
        }

        /** Short human words for the reason ("size changed while embedded"). */
        public String text() {
            return text;
        }
    }

    public Problem {
        Objects.requireNonNull(name);
        Objects.requireNonNull(reason);
        Objects.requireNonNull(detail);
    }

    /** One line: {@code STRUCT 'device' [5] size=728: size changed while embedded: base has ...}. */
    public String message() {
        StringBuilder b = new StringBuilder();
        if (reason == Reason.INVALID_NAME) {
            b.append("new base");
        } else if (reason == Reason.STRING_UNMAPPED) {
            b.append("string '").append(Printable.name(name)).append("' of split type [").append(typeId).append(']');
        } else {
            b.append(Kind.name(kind)).append(" '").append(name.isEmpty() ? "(anon)" : Printable.name(name)).append("' [").append(typeId).append(']');
            if (Kind.isKnown(kind) && Kind.hasSize(kind)) {
                b.append(" size=").append(Integer.toUnsignedString(size));
            }
        }
        b.append(": ").append(reason.text());
        if (!detail.isEmpty()) {
            b.append(detail.startsWith("(") ? " " : ": ").append(detail); // "needed by size (array element in ...), ..."
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return message();
    }
}
