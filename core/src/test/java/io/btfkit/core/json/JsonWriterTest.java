package io.btfkit.core.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link JsonWriter}: escaping, nesting, empty containers, one-line records below the inline depth. */
class JsonWriterTest {

    @Test
    void escapesWhatRfc8259Requires() {
        JsonWriter w = new JsonWriter();
        w.beginArray().value("a\"b\\c\n\t\r\b\f\u0001\u001f\u00e9/").endArray();
        assertEquals("[\n  \"a\\\"b\\\\c\\n\\t\\r\\b\\f\\u0001\\u001f\u00e9/\"\n]\n", w.toString());
    }

    @Test
    void prettyPrintsAndInlinesDeepContainers() {
        JsonWriter w = new JsonWriter(2);
        w.beginObject();
        w.field("n", -1).field("t", true).name("z").nullValue().name("big").number("18446744073709551615");
        w.name("empty").beginArray().endArray();
        w.name("rows").beginArray();
        w.beginObject().field("a", 1).name("l").beginArray().value("x").value("y").endArray().endObject();
        w.beginObject().endObject();
        w.endArray();
        w.endObject();
        assertEquals("""
                {
                  "n": -1,
                  "t": true,
                  "z": null,
                  "big": 18446744073709551615,
                  "empty": [],
                  "rows": [
                    {"a": 1, "l": ["x", "y"]},
                    {}
                  ]
                }
                """, w.toString());
    }
}
