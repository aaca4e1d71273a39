package io.btfkit.core.stats;

import io.btfkit.core.json.JsonWriter;

/**
 * {@link Stats} as JSON (field names documented in docs/DIFF.md, section "stats"): the header
 * facts, section sizes and type counts, then {@code "kinds"}, one object per kind in kind order,
 * every known kind present (zero counts included) so the shape does not depend on the input.
 */
public final class StatsJsonPrinter {
    private StatsJsonPrinter() {
    }

    /** One kind per line. */
    public static String print(Stats s) {
        return print(s, false);
    }

    /** {@code expanded}: every object on lines of its own (the kinds too), indented as {@code bpftool -p}, as {@code --pretty} asks. */
    public static String print(Stats s, boolean expanded) {
        JsonWriter w = expanded ? JsonWriter.expanded() : new JsonWriter(2);
        w.beginObject();
        w.field("byte_order", s.littleEndian() ? "little" : "big");
        w.field("header_length", s.headerLength());
        w.field("header_flags", s.headerFlags());
        w.field("layout_bytes", s.layoutBytes());
        w.field("layout_kinds", s.layoutKinds());
        w.field("split", s.split());
        w.field("base_types", s.baseTypes());
        w.field("base_string_bytes", s.baseStringBytes());
        w.field("first_id", s.firstId());
        w.field("types", s.types());
        w.field("named_types", s.namedTypes());
        w.field("type_section_bytes", s.typeSectionBytes());
        w.field("string_section_bytes", s.stringSectionBytes());
        w.field("strings", s.strings());
        w.field("total_bytes", s.totalBytes());
        w.name("kinds").beginArray();
        for (KindStats k : s.kinds()) {
            w.beginObject().field("kind", k.name()).field("id", k.kind()).field("types", k.count())
                    .field("bytes", k.bytes()).field("elements", k.elements()).endObject();
        }
        w.endArray();
        w.endObject();
        return w.toString();
    }
}
