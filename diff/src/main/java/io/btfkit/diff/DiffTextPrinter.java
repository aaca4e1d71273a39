package io.btfkit.diff;

import java.util.List;

/**
 * The human report of a {@link DiffReport}: a count line, then the changed types, the removed
 * ones and the added ones (each group in report order, a blank line between groups). One header
 * line per type, marked {@code ~ - +}, with its property changes (changed) or its description
 * (added, removed); then one indented line per member, enumerator or parameter change.
 *
 * <pre>
 * 1 changed, 1 removed, 1 added
 *
 * ~ struct device: size 744 -> 752
 *     + member 'foo' (u32) at 704
 *     ~ member 'p': type struct foo * -> struct bar *
 *     ~ member 'bits' (unsigned int:3): offset 64 -> 64:4
 *
 * - func old_fn: static int old_fn(void)
 *
 * + enum state: size 4, 3 values
 * </pre>
 *
 * Offsets are in bytes, {@code BYTE:BIT} when not byte-aligned; a bitfield's type is followed by
 * {@code :WIDTH}. A note on how a repeated name was matched closes the header line in brackets.
 */
public final class DiffTextPrinter {
    private static final String INDENT = "    ";

    private DiffTextPrinter() {
    }

    public static String print(DiffReport report) {
        StringBuilder sb = new StringBuilder();
        sb.append(report.count(Status.CHANGED)).append(" changed, ").append(report.count(Status.REMOVED))
                .append(" removed, ").append(report.count(Status.ADDED)).append(" added\n");
        for (Status s : Status.values()) {
            List<TypeDiff> group = report.withStatus(s);
            if (group.isEmpty()) {
                continue;
            }
            sb.append('\n');
            for (TypeDiff t : group) {
                type(sb, t);
            }
        }
        return sb.toString();
    }

    private static void type(StringBuilder sb, TypeDiff t) {
        sb.append(t.status().marker()).append(' ').append(t.kindWord()).append(' ').append(t.label());
        if (t.status() == Status.CHANGED) {
            String sep = ": ";
            for (PropertyChange p : t.properties()) {
                sb.append(sep).append(p.property().replace('_', ' ')).append(' ').append(p.before()).append(" -> ")
                        .append(p.after());
                sep = "; ";
            }
        } else {
            String d = t.status() == Status.ADDED ? t.descriptionB() : t.descriptionA();
            if (d != null && !d.isEmpty()) {
                sb.append(": ").append(d);
            }
        }
        if (t.note() != null) {
            sb.append("  [").append(t.note()).append(']');
        }
        sb.append('\n');
        for (MemberDiff m : t.members()) {
            member(sb, m);
        }
        for (ValueDiff v : t.values()) {
            sb.append(INDENT);
            if (v.before() == null) {
                sb.append("+ value '").append(v.name()).append("' = ").append(v.after());
            } else if (v.after() == null) {
                sb.append("- value '").append(v.name()).append("' = ").append(v.before());
            } else {
                sb.append("~ value '").append(v.name()).append("' = ").append(v.before()).append(" -> ").append(v.after());
            }
            sb.append('\n');
        }
        for (ParamDiff p : t.params()) {
            param(sb, p);
        }
        if (!t.params().isEmpty() && t.descriptionA() != null && !t.descriptionA().equals(t.descriptionB())) {
            sb.append(INDENT).append("was: ").append(t.descriptionA()).append('\n');
            sb.append(INDENT).append("now: ").append(t.descriptionB()).append('\n');
        }
    }

    private static void member(StringBuilder sb, MemberDiff m) {
        sb.append(INDENT);
        if (m.isAdded() || m.isRemoved()) {
            MemberInfo i = m.isAdded() ? m.after() : m.before();
            sb.append(m.isAdded() ? "+ member '" : "- member '").append(m.name()).append("' (").append(typeOf(i))
                    .append(") at ").append(offset(i.bitOffset()));
        } else {
            MemberInfo x = m.before();
            MemberInfo y = m.after();
            List<String> changes = m.changes();
            sb.append("~ member '").append(m.name()).append('\'');
            if (!changes.contains("type")) {
                sb.append(" (").append(typeOf(y)).append(')');
            }
            String sep = ": ";
            for (String c : changes) {
                sb.append(sep);
                sep = "; ";
                switch (c) {
                    case "offset" -> sb.append("offset ").append(offset(x.bitOffset())).append(" -> ").append(offset(y.bitOffset()));
                    case "type" -> sb.append("type ").append(x.type()).append(" -> ").append(y.type());
                    case "bitfield" -> sb.append("bitfield ").append(width(x.bitfieldSize())).append(" -> ")
                            .append(width(y.bitfieldSize()));
                    default -> sb.append("size ").append(x.size()).append(" -> ").append(y.size());
                }
            }
        }
        sb.append('\n');
    }

    private static void param(StringBuilder sb, ParamDiff p) {
        sb.append(INDENT);
        ParamInfo x = p.before();
        ParamInfo y = p.after();
        if (x == null || y == null) {
            ParamInfo i = x == null ? y : x;
            sb.append(x == null ? "+ " : "- ").append(paramName(p.index(), i)).append(" (").append(i.type()).append(')');
        } else {
            sb.append("~ ").append(paramName(p.index(), y));
            String sep = ": ";
            if (!x.name().equals(y.name())) {
                sb.append(sep).append("name '").append(x.name()).append("' -> '").append(y.name()).append('\'');
                sep = "; ";
            }
            if (!x.type().equals(y.type())) {
                sb.append(sep).append("type ").append(x.type()).append(" -> ").append(y.type());
            }
        }
        sb.append('\n');
    }

    private static String paramName(int index, ParamInfo p) {
        return p.name().isEmpty() ? "param " + index : "param " + index + " '" + p.name() + "'";
    }

    private static String typeOf(MemberInfo i) {
        return i.bitfieldSize() == 0 ? i.type() : i.type() + ":" + i.bitfieldSize();
    }

    private static String width(int bits) {
        return bits == 0 ? "none" : Integer.toString(bits);
    }

    /** Bytes, or {@code BYTE:BIT} when the offset is not a whole byte. */
    static String offset(long bits) {
        return bits % 8 == 0 ? Long.toString(bits / 8) : (bits / 8) + ":" + (bits % 8);
    }
}
