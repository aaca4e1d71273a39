package io.btfkit.core.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.TestData;
import io.btfkit.core.text.RawTextParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Stats} and its two printers, on raw text and on the real 6.18 vmlinux. */
class StatsTest {
    private static final String SMALL = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] PTR '(anon)' type_id=3
            [3] STRUCT 's' size=8 vlen=2
            \t'a' type_id=1 bits_offset=0
            \t'b' type_id=1 bits_offset=32
            [4] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1
            \t'x' type_id=2
            [5] FUNC 'f' type_id=4 linkage=global
            """;

    @Test
    void countsSizesAndText() {
        Btf btf = RawTextParser.parse(SMALL, null);
        Stats s = Stats.of(btf);
        assertEquals(5, s.types());
        assertEquals(3, s.namedTypes());
        assertEquals(new KindStats(Kind.STRUCT, "STRUCT", 1, 12 + 24, 2), s.kind(Kind.STRUCT));
        assertEquals(new KindStats(Kind.FUNC, "FUNC", 1, 12, 0), s.kind(Kind.FUNC));
        assertEquals(new KindStats(Kind.ENUM64, "ENUM64", 0, 0, 0), s.kind(Kind.ENUM64));
        assertEquals(Kind.MAX_KNOWN, s.kinds().size());
        assertEquals(BtfWriter.write(btf).length, s.totalBytes());
        // "", "int", "s", "a", "b", "x", "f"
        assertEquals(7, s.strings());
        assertEquals("""
                byte order:      little-endian
                header:          24 bytes, flags 0x0, no layout section
                split:           no
                types:           5 (ids 1..5), 3 named
                type section:    96 bytes
                string section:  15 bytes, 7 strings
                total:           135 bytes

                kind             types       bytes   elements
                INT                  1          16          0
                PTR                  1          12          0
                STRUCT               1          36          2
                FUNC                 1          12          0
                FUNC_PROTO           1          20          1
                """, StatsTextPrinter.print(s));
        String json = StatsJsonPrinter.print(s);
        assertTrue(json.startsWith("""
                {
                  "byte_order": "little",
                  "header_length": 24,
                  "header_flags": 0,
                  "layout_bytes": 0,
                  "layout_kinds": 0,
                  "split": false,
                  "base_types": 0,
                  "base_string_bytes": 0,
                  "first_id": 1,
                  "types": 5,
                  "named_types": 3,
                  "type_section_bytes": 96,
                  "string_section_bytes": 15,
                  "strings": 7,
                  "total_bytes": 135,
                  "kinds": [
                    {"kind": "INT", "id": 1, "types": 1, "bytes": 16, "elements": 0},
                """), json);
        assertTrue(json.endsWith("""
                    {"kind": "ENUM64", "id": 19, "types": 0, "bytes": 0, "elements": 0}
                  ]
                }
                """), json);
    }

    @Test
    void splitAndLayoutFacts() {
        Btf base = RawTextParser.parse(SMALL, null);
        Btf split = RawTextParser.parse("[6] PTR '(anon)' type_id=5\n[7] TYPEDEF 'fp' type_id=6\n", base);
        Stats s = Stats.of(split.withFormat(split.format().withLayout()));
        assertTrue(s.split());
        assertEquals(5, s.baseTypes());
        assertEquals(base.strings().length(), s.baseStringBytes());
        assertEquals(6, s.firstId());
        assertEquals(2, s.types());
        assertEquals(1, s.namedTypes());
        assertEquals(32, s.headerLength());
        assertEquals(Kind.COUNT, s.layoutKinds());
        assertEquals(BtfWriter.write(split, split.format().withLayout()).length, s.totalBytes());
        String text = StatsTextPrinter.print(s);
        assertTrue(text.contains("split:           yes, on a base of 5 types and 15 string bytes\n"), text);
        assertTrue(text.contains("types:           2 (ids 6..7), 1 named\n"), text);
        assertTrue(text.contains(", layout section of " + 4 * Kind.COUNT + " bytes (" + Kind.COUNT + " kinds)\n"), text);
    }

    @Test
    void vmlinuxMatchesTheFileAndLibbpf() {
        byte[] raw = TestData.bytes(TestData.vmlinux618());
        Stats s = Stats.of(BtfReader.read(raw));
        assertEquals(raw.length, s.totalBytes());
        assertEquals(126_585, s.types());
        assertEquals(s.typeSectionBytes(), s.kinds().stream().mapToLong(KindStats::bytes).sum());
        assertEquals(s.types(), s.kinds().stream().mapToLong(KindStats::count).sum());
        Path btfref = TestData.requireTool("btfref");
        String out = new String(TestData.run(List.of(btfref.toString(), "stats", TestData.vmlinux618().toString())),
                StandardCharsets.UTF_8);
        long anon = 0;
        for (String line : out.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 4 && Kind.byName(f[0]) > 0) {
                assertEquals(Long.parseLong(f[1]), s.kind(Kind.byName(f[0])).count(), f[0]);
                anon += Long.parseLong(f[3].replace(")", ""));
            }
        }
        assertEquals(s.types() - anon, s.namedTypes());
    }
}
