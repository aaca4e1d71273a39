package io.btfkit.diff;

import io.btfkit.core.Kind;
import io.btfkit.core.json.JsonWriter;

/**
 * The JSON form of a {@link DiffReport} (field names documented in docs/DIFF.md), pretty-printed
 * and stable: equal reports give byte-identical text. Every field is always present (null or an
 * empty array when it does not apply), so consumers need no existence checks.
 *
 * <pre>
 * {
 *   "summary": {"changed": 1, "removed": 0, "added": 0},
 *   "types": [
 *     {"status": "changed", "kind": "STRUCT", "name": "device", "label": "device",
 *      "id_a": 1485, "id_b": 1484, "description_a": "size 752, 45 members", ...,
 *      "properties": [{"property": "size", "before": "752", "after": "744"}],
 *      "members": [{"name": "foo", "changes": [], "before": {...}, "after": null}], ...}
 *   ]
 * }
 * </pre>
 */
public final class DiffJsonPrinter {
    private DiffJsonPrinter() {
    }

    /** One type per line. */
    public static String print(DiffReport report) {
        return print(report, false);
    }

    /** {@code expanded}: every object and array on lines of its own, indented as {@code bpftool -p}, as {@code --pretty} asks. */
    public static String print(DiffReport report, boolean expanded) {
        JsonWriter w = expanded ? JsonWriter.expanded() : new JsonWriter(2);
        w.beginObject();
        w.name("summary").beginObject();
        for (Status s : Status.values()) {
            w.field(s.word(), report.count(s));
        }
        w.endObject();
        w.name("types").beginArray();
        for (TypeDiff t : report.types()) {
            type(w, t);
        }
        w.endArray();
        w.endObject();
        return w.toString();
    }

    private static void type(JsonWriter w, TypeDiff t) {
        w.beginObject();
        w.field("status", t.status().word());
        w.field("kind", Kind.name(t.kind()));
        w.field("name", t.name());
        w.field("label", t.label());
        w.field("id_a", t.idA());
        w.field("id_b", t.idB());
        w.field("description_a", t.descriptionA());
        w.field("description_b", t.descriptionB());
        w.field("note", t.note());
        w.name("properties").beginArray();
        for (PropertyChange p : t.properties()) {
            w.beginObject().field("property", p.property()).field("before", p.before()).field("after", p.after()).endObject();
        }
        w.endArray();
        w.name("members").beginArray();
        for (MemberDiff m : t.members()) {
            w.beginObject().field("name", m.name());
            w.name("changes").beginArray();
            for (String c : m.changes()) {
                w.value(c);
            }
            w.endArray();
            member(w.name("before"), m.before());
            member(w.name("after"), m.after());
            w.endObject();
        }
        w.endArray();
        w.name("values").beginArray();
        for (ValueDiff v : t.values()) {
            w.beginObject().field("name", v.name());
            w.name("before").number(v.before());
            w.name("after").number(v.after());
            w.endObject();
        }
        w.endArray();
        w.name("params").beginArray();
        for (ParamDiff p : t.params()) {
            w.beginObject().field("index", p.index());
            param(w.name("before"), p.before());
            param(w.name("after"), p.after());
            w.endObject();
        }
        w.endArray();
        w.endObject();
    }

    private static void member(JsonWriter w, MemberInfo m) {
        if (m == null) {
            w.nullValue();
            return;
        }
        w.beginObject().field("type", m.type()).field("bit_offset", m.bitOffset()).field("bitfield_size", m.bitfieldSize())
                .field("size", m.size()).endObject();
    }

    private static void param(JsonWriter w, ParamInfo p) {
        if (p == null) {
            w.nullValue();
            return;
        }
        w.beginObject().field("name", p.name()).field("type", p.type()).endObject();
    }
}
