package io.btfkit.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.Kind;
import io.btfkit.core.text.RawTextParser;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link BtfDiff} on hand-written raw-text pairs, one change category at a time. */
class BtfDiffTest {
    private static final String BASE_TYPES = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] INT 'unsigned int' size=4 bits_offset=0 nr_bits=32 encoding=(none)
            [3] TYPEDEF 'u32' type_id=2
            [4] STRUCT 'foo' size=4 vlen=1
            \t'x' type_id=1 bits_offset=0
            [5] STRUCT 'bar' size=4 vlen=1
            \t'y' type_id=1 bits_offset=0
            [6] PTR '(anon)' type_id=4
            [7] PTR '(anon)' type_id=5
            """;

    private static Btf btf(String more) {
        return RawTextParser.parse(BASE_TYPES + more, null);
    }

    private static DiffReport diff(String a, String b) {
        return BtfDiff.diff(btf(a), btf(b));
    }

    private static String text(String a, String b) {
        return DiffTextPrinter.print(diff(a, b));
    }

    @Test
    void identicalInputsGiveAnEmptyReport() {
        String t = """
                [8] STRUCT 's' size=16 vlen=2
                \t'p' type_id=6 bits_offset=0
                \t'n' type_id=3 bits_offset=64
                [9] ENUM '(anon)' encoding=UNSIGNED size=4 vlen=1
                \t'A' val=1
                """;
        DiffReport r = diff(t, t);
        assertTrue(r.isEmpty());
        assertEquals("0 changed, 0 removed, 0 added\n", DiffTextPrinter.print(r));
    }

    @Test
    void structMembersAddedRemovedMovedRetypedAndResized() {
        String a = """
                [8] STRUCT 's' size=16 vlen=4
                \t'p' type_id=6 bits_offset=0
                \t'gone' type_id=1 bits_offset=64
                \t'n' type_id=3 bits_offset=96
                \t'flags' type_id=2 bits_offset=128 bitfield_size=3
                """;
        String b = """
                [8] STRUCT 's' size=24 vlen=4
                \t'p' type_id=7 bits_offset=0
                \t'n' type_id=3 bits_offset=64
                \t'flags' type_id=2 bits_offset=132 bitfield_size=5
                \t'foo' type_id=3 bits_offset=160
                """;
        assertEquals("""
                1 changed, 0 removed, 0 added

                ~ struct s: size 16 -> 24
                    ~ member 'p': type struct foo * -> struct bar *
                    - member 'gone' (int) at 8
                    ~ member 'n' (u32): offset 12 -> 8
                    ~ member 'flags' (unsigned int:5): offset 16 -> 16:4; bitfield 3 -> 5
                    + member 'foo' (u32) at 20
                """, text(a, b));
        TypeDiff s = diff(a, b).find(Status.CHANGED, "struct", "s");
        assertEquals(List.of(new PropertyChange("size", "16", "24")), s.properties());
        MemberDiff flags = s.members().get(3);
        assertEquals(List.of("offset", "bitfield"), flags.changes());
        assertEquals(new MemberInfo("unsigned int", 128, 3, 4), flags.before());
        assertEquals(new MemberInfo("unsigned int", 132, 5, 4), flags.after());
    }

    @Test
    void changesInsideANamedTypeAreReportedThereOnlyButAnEmbeddedOneShowsItsSize() {
        String a = """
                [8] STRUCT 'user' size=12 vlen=2
                \t'f' type_id=6 bits_offset=0
                \t'inner' type_id=4 bits_offset=64
                """;
        String b = """
                [8] STRUCT 'user' size=12 vlen=2
                \t'f' type_id=6 bits_offset=0
                \t'inner' type_id=4 bits_offset=64
                """;
        // struct foo grows from 4 to 8 bytes in b: foo changes; 'user' embeds it by value
        String grownFoo = BASE_TYPES.replace("[4] STRUCT 'foo' size=4 vlen=1\n\t'x' type_id=1 bits_offset=0\n",
                "[4] STRUCT 'foo' size=8 vlen=2\n\t'x' type_id=1 bits_offset=0\n\t'z' type_id=1 bits_offset=32\n");
        DiffReport r = BtfDiff.diff(btf(a), RawTextParser.parse(grownFoo + b, null));
        assertEquals("""
                2 changed, 0 removed, 0 added

                ~ struct foo: size 4 -> 8
                    + member 'z' (int) at 4
                ~ struct user
                    ~ member 'inner' (struct foo): size 4 -> 8
                """, DiffTextPrinter.print(r));
    }

    @Test
    void pointerUsersDoNotChangeWhenThePointeeDoes() {
        String a = """
                [8] STRUCT 'user' size=8 vlen=1
                \t'f' type_id=6 bits_offset=0
                """;
        String grownFoo = BASE_TYPES.replace("[4] STRUCT 'foo' size=4", "[4] STRUCT 'foo' size=8");
        DiffReport r = BtfDiff.diff(btf(a), RawTextParser.parse(grownFoo + a, null));
        assertEquals(1, r.types().size());
        assertEquals("foo", r.types().get(0).name());
    }

    @Test
    void anonymousMembersAreComparedThroughTheNamedType() {
        String a = """
                [8] UNION '(anon)' size=4 vlen=2
                \t'i' type_id=1 bits_offset=0
                \t'u' type_id=2 bits_offset=0
                [9] STRUCT '(anon)' size=4 vlen=1
                \t'q' type_id=1 bits_offset=0
                [10] STRUCT 'outer' size=12 vlen=3
                \t'(anon)' type_id=8 bits_offset=0
                \t'named' type_id=9 bits_offset=32
                \t'last' type_id=1 bits_offset=64
                """;
        String b = """
                [8] UNION '(anon)' size=4 vlen=2
                \t'i' type_id=1 bits_offset=0
                \t'w' type_id=3 bits_offset=0
                [9] STRUCT '(anon)' size=8 vlen=2
                \t'q' type_id=1 bits_offset=0
                \t'r' type_id=1 bits_offset=32
                [10] STRUCT 'outer' size=16 vlen=3
                \t'(anon)' type_id=8 bits_offset=0
                \t'named' type_id=9 bits_offset=32
                \t'last' type_id=1 bits_offset=96
                """;
        assertEquals("""
                1 changed, 0 removed, 0 added

                ~ struct outer: size 12 -> 16
                    - member 'u' (unsigned int) at 0
                    + member 'w' (u32) at 0
                    ~ member 'named' (struct {...}): size 4 -> 8
                    + member 'named.r' (int) at 8
                    ~ member 'last' (int): offset 8 -> 12
                """, text(a, b));
    }

    @Test
    void typedefOfAnAnonymousStructIsComparedLikeAStruct() {
        String a = """
                [8] STRUCT '(anon)' size=4 vlen=1
                \t'counter' type_id=1 bits_offset=0
                [9] TYPEDEF 'atomic_t' type_id=8
                [10] TYPEDEF 'handle_t' type_id=6
                """;
        String b = """
                [8] STRUCT '(anon)' size=8 vlen=1
                \t'counter' type_id=1 bits_offset=32
                [9] TYPEDEF 'atomic_t' type_id=8
                [10] TYPEDEF 'handle_t' type_id=7
                """;
        assertEquals("""
                2 changed, 0 removed, 0 added

                ~ typedef atomic_t: size 4 -> 8
                    ~ member 'counter' (int): offset 0 -> 4
                ~ typedef handle_t: type struct foo * -> struct bar *
                """, text(a, b));
    }

    @Test
    void enumValuesKindSizeAndSign() {
        String a = """
                [8] ENUM 'state' encoding=UNSIGNED size=4 vlen=3
                \t'ON' val=1
                \t'OFF' val=0
                \t'OLD' val=7
                [9] ENUM 'wide' encoding=UNSIGNED size=4 vlen=1
                \t'W' val=1
                """;
        String b = """
                [8] ENUM 'state' encoding=SIGNED size=4 vlen=3
                \t'ON' val=2
                \t'OFF' val=0
                \t'NEW' val=-1
                [9] ENUM64 'wide' encoding=UNSIGNED size=8 vlen=1
                \t'W' val=18446744073709551615ULL
                """;
        assertEquals("""
                2 changed, 0 removed, 0 added

                ~ enum state: signedness unsigned -> signed
                    ~ value 'ON' = 1 -> 2
                    + value 'NEW' = -1
                    - value 'OLD' = 7
                ~ enum wide: kind ENUM -> ENUM64; size 4 -> 8
                    ~ value 'W' = 1 -> 18446744073709551615
                """, text(a, b));
    }

    @Test
    void funcPrototypeChanges() {
        String a = """
                [8] FUNC_PROTO '(anon)' ret_type_id=1 vlen=3
                \t'skb' type_id=6
                \t'len' type_id=3
                \t'flags' type_id=2
                [9] FUNC 'xmit' type_id=8 linkage=global
                [10] FUNC_PROTO '(anon)' ret_type_id=0 vlen=0
                [11] FUNC 'init' type_id=10 linkage=static
                """;
        String b = """
                [8] FUNC_PROTO '(anon)' ret_type_id=6 vlen=2
                \t'skb' type_id=7
                \t'size' type_id=3
                [9] FUNC 'xmit' type_id=8 linkage=global
                [10] FUNC_PROTO '(anon)' ret_type_id=0 vlen=0
                [11] FUNC 'init' type_id=10 linkage=global
                """;
        assertEquals("""
                2 changed, 0 removed, 0 added

                ~ func init: linkage static -> global
                ~ func xmit: return int -> struct foo *
                    ~ param 1 'skb': type struct foo * -> struct bar *
                    ~ param 2 'size': name 'len' -> 'size'
                    - param 3 'flags' (unsigned int)
                    was: int xmit(struct foo *skb, u32 len, unsigned int flags)
                    now: struct foo *xmit(struct bar *skb, u32 size)
                """, text(a, b));
    }

    @Test
    void varIntFloatDatasecAndFwd() {
        String a = """
                [8] VAR 'counter' type_id=1, linkage=static
                [9] DATASEC '.data' size=4 vlen=1
                \ttype_id=8 offset=0 size=4
                [10] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=SIGNED
                [11] FLOAT 'double' size=8
                [12] FWD 'later' fwd_kind=struct
                """;
        String b = """
                [8] VAR 'counter' type_id=3, linkage=global
                [9] DATASEC '.data' size=8 vlen=1
                \ttype_id=8 offset=4 size=4
                [10] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=(none)
                [11] FLOAT 'double' size=16
                [12] FWD 'later' fwd_kind=union
                """;
        assertEquals("""
                5 changed, 0 removed, 0 added

                ~ var counter: linkage static -> global; type int -> u32
                ~ datasec .data: size 4 -> 8
                ~ int char: encoding signed -> none
                ~ float double: size 8 -> 16
                ~ fwd later: fwd kind struct -> union
                """, text(a, b));
    }

    @Test
    void addedAndRemovedTypesWithTheirDescription() {
        String a = """
                [8] FUNC_PROTO '(anon)' ret_type_id=0 vlen=1
                \t'p' type_id=6
                [9] FUNC 'old_fn' type_id=8 linkage=static
                """;
        String b = """
                [8] ENUM 'fresh' encoding=UNSIGNED size=4 vlen=1
                \t'X' val=0
                [9] DECL_TAG 'bpf_kfunc' type_id=5 component_idx=-1
                """;
        assertEquals("""
                0 changed, 1 removed, 2 added

                - func old_fn: static void old_fn(struct foo *p)

                + enum fresh: size 4, 1 value
                + decl_tag bpf_kfunc -> struct bar
                """, text(a, b));
        TypeDiff removed = diff(a, b).find(Status.REMOVED, "func", "old_fn");
        assertEquals(9, removed.idA());
        assertEquals(0, removed.idB());
        assertNull(removed.descriptionB());
    }

    @Test
    void severalDefinitionsOfOneNameArePairedByIdentityThenSize() {
        String a = """
                [8] STRUCT 'dup' size=8 vlen=1
                \t'a' type_id=1 bits_offset=0
                [9] STRUCT 'dup' size=16 vlen=1
                \t'b' type_id=1 bits_offset=0
                [10] STRUCT 'dup' size=32 vlen=1
                \t'c' type_id=1 bits_offset=0
                """;
        String b = """
                [8] STRUCT 'dup' size=16 vlen=1
                \t'b' type_id=1 bits_offset=0
                [9] STRUCT 'dup' size=8 vlen=1
                \t'a' type_id=2 bits_offset=0
                """;
        assertEquals("""
                1 changed, 1 removed, 0 added

                ~ struct dup  [3 definitions in a, 2 in b; matched by size]
                    ~ member 'a': type int -> unsigned int

                - struct dup: size 32, 1 member  [3 definitions in a, 2 in b; no match]
                """, text(a, b));
    }

    @Test
    void thousandsOfDefinitionsOfOneNameArePairedInIdOrder() {
        BtfBuilder a = new BtfBuilder();
        BtfBuilder b = new BtfBuilder();
        int i32 = a.addInt("int", 4, Kind.INT_SIGNED);
        b.addInt("int", 4, Kind.INT_SIGNED);
        for (int i = 0; i < 600; i++) {
            a.addStruct("x", 4 + i);
            a.addMember("m" + i, i32, 0, 0);
            b.addStruct("x", 4 + i);
            b.addMember("n" + i, i32, 0, 0);
        }
        DiffReport r = BtfDiff.diff(a.build(), b.build());
        assertEquals(600, r.count(Status.CHANGED));
        assertEquals("600 definitions in a, 600 in b; matched by order", r.types().get(0).note());
        assertEquals(r.types().get(0).idA(), r.types().get(0).idB());
    }

    @Test
    void anonymousEnumsArePairedBySharedEnumeratorNames() {
        String a = """
                [8] ENUM '(anon)' encoding=UNSIGNED size=4 vlen=2
                \t'RED' val=0
                \t'GREEN' val=1
                [9] ENUM '(anon)' encoding=UNSIGNED size=4 vlen=1
                \t'SAME' val=5
                [10] ENUM '(anon)' encoding=UNSIGNED size=4 vlen=1
                \t'GONE' val=5
                """;
        String b = """
                [8] ENUM '(anon)' encoding=UNSIGNED size=4 vlen=1
                \t'SAME' val=5
                [9] ENUM '(anon)' encoding=UNSIGNED size=4 vlen=3
                \t'RED' val=0
                \t'GREEN' val=1
                \t'BLUE' val=2
                """;
        assertEquals("""
                1 changed, 1 removed, 0 added

                ~ enum (anon) {RED, ...}  [matched by shared enumerator names]
                    + value 'BLUE' = 2

                - enum (anon) {GONE}: size 4, 1 value
                """, text(a, b));
    }

    @Test
    void declTagsAreKeyedByWhatTheyTag() {
        String base = """
                [8] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1
                \t'ctx' type_id=6
                [9] FUNC 'kf' type_id=8 linkage=global
                """;
        String a = base + "[10] DECL_TAG 'bpf_kfunc' type_id=9 component_idx=-1\n";
        String b = base + "[10] DECL_TAG 'nonnull' type_id=9 component_idx=0\n"
                + "[11] DECL_TAG 'bpf_kfunc' type_id=9 component_idx=-1\n"
                + "[12] DECL_TAG 'm' type_id=4 component_idx=0\n";
        assertEquals("""
                0 changed, 0 removed, 2 added

                + decl_tag m -> struct foo member 'x'
                + decl_tag nonnull -> func kf param 'ctx'
                """, text(a, b));
    }

    @Test
    void cSpellingOfDeclarators() {
        Btf t = RawTextParser.parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=SIGNED
                [3] CONST '(anon)' type_id=2
                [4] PTR '(anon)' type_id=3
                [5] ARRAY '(anon)' type_id=4 index_type_id=1 nr_elems=4
                [6] PTR '(anon)' type_id=5
                [7] FUNC_PROTO '(anon)' ret_type_id=4 vlen=2
                \t'a' type_id=1
                \t'(anon)' type_id=0
                [8] PTR '(anon)' type_id=7
                [9] CONST '(anon)' type_id=8
                [10] ARRAY '(anon)' type_id=8 index_type_id=1 nr_elems=2
                [11] FUNC 'f' type_id=7 linkage=global
                [12] VOLATILE '(anon)' type_id=6
                """, null);
        TypeNames n = new Side(t).names;
        assertEquals("const char *", n.of(4));
        assertEquals("const char *[4]", n.of(5));
        assertEquals("const char *(*)[4]", n.of(6));
        assertEquals("const char *(*)(int, ...)", n.of(8));
        assertEquals("const char *(*const)(int, ...)", n.of(9));
        assertEquals("const char *(*[2])(int, ...)", n.of(10));
        assertEquals("const char *f(int a, ...)", n.function(11));
        assertEquals("const char *(*volatile)[4]", n.of(12));
        assertEquals("void", n.of(0));
    }

    @Test
    void reportIsStableAndJsonHasTheDocumentedFields() {
        String a = """
                [8] STRUCT 's' size=4 vlen=1
                \t'p' type_id=1 bits_offset=0
                [9] ENUM 'e' encoding=UNSIGNED size=4 vlen=1
                \t'A' val=1
                """;
        String b = """
                [8] STRUCT 's' size=8 vlen=1
                \t'p' type_id=1 bits_offset=32
                [9] ENUM 'e' encoding=UNSIGNED size=4 vlen=1
                \t'A' val=2
                [10] FUNC_PROTO '(anon)' ret_type_id=0 vlen=1
                \t'x' type_id=1
                [11] FUNC 'f' type_id=10 linkage=global
                """;
        DiffReport r = diff(a, b);
        assertEquals(r, diff(a, b));
        assertEquals("""
                {
                  "summary": {
                    "changed": 2,
                    "removed": 0,
                    "added": 1
                  },
                  "types": [
                    {"status": "changed", "kind": "STRUCT", "name": "s", "label": "s", "id_a": 8, "id_b": 8, \
                "description_a": "size 4, 1 member", "description_b": "size 8, 1 member", "note": null, \
                "properties": [{"property": "size", "before": "4", "after": "8"}], \
                "members": [{"name": "p", "changes": ["offset"], \
                "before": {"type": "int", "bit_offset": 0, "bitfield_size": 0, "size": 4}, \
                "after": {"type": "int", "bit_offset": 32, "bitfield_size": 0, "size": 4}}], "values": [], "params": []},
                    {"status": "changed", "kind": "ENUM", "name": "e", "label": "e", "id_a": 9, "id_b": 9, \
                "description_a": "size 4, 1 value", "description_b": "size 4, 1 value", "note": null, "properties": [], \
                "members": [], "values": [{"name": "A", "before": 1, "after": 2}], "params": []},
                    {"status": "added", "kind": "FUNC", "name": "f", "label": "f", "id_a": 0, "id_b": 11, \
                "description_a": null, "description_b": "void f(int x)", "note": null, "properties": [], "members": [], \
                "values": [], "params": []}
                  ]
                }
                """, DiffJsonPrinter.print(r));
    }

    @Test
    void splitInputsCompareTheirOwnTypes() {
        Btf base = btf("");
        Btf a = RawTextParser.parse("""
                [8] STRUCT 'mod' size=4 vlen=1
                \t'f' type_id=6 bits_offset=0
                """, base);
        Btf b = RawTextParser.parse("""
                [8] STRUCT 'mod' size=8 vlen=1
                \t'f' type_id=7 bits_offset=0
                """, base);
        DiffReport r = BtfDiff.diff(a, b);
        assertEquals(1, r.types().size());
        TypeDiff t = r.find(Status.CHANGED, "struct", "mod");
        assertNotNull(t);
        assertEquals("struct bar *", t.members().get(0).after().type());
        assertEquals(Kind.STRUCT, t.kind());
        assertTrue(BtfDiff.diff(a, a).isEmpty());
        // with the base, foo and bar are compared too (equal here)
        assertEquals(r, BtfDiff.diff(a, b, new BtfDiff.Options(true)));
    }

    /**
     * distill copies base typedefs into the split (relocating it keeps them): own types alone,
     * they are "added"; with the base, a copy identical to the base's definition is no change.
     */
    @Test
    void withTheBaseATypeMovedFromBaseToSplitIsNoChange() {
        Btf base = btf("");
        Btf a = RawTextParser.parse("""
                [8] STRUCT 'mod' size=4 vlen=1
                	'f' type_id=3 bits_offset=0
                """, base);
        Btf b = RawTextParser.parse("""
                [8] TYPEDEF 'u32' type_id=2
                [9] STRUCT 'mod' size=4 vlen=1
                	'f' type_id=8 bits_offset=0
                """, base);
        assertEquals("0 changed, 0 removed, 1 added\n\n+ typedef u32: unsigned int\n", DiffTextPrinter.print(BtfDiff.diff(a, b)));
        assertTrue(BtfDiff.diff(a, b, new BtfDiff.Options(true)).isEmpty(), DiffTextPrinter.print(BtfDiff.diff(a, b, new BtfDiff.Options(true))));
        Btf c = RawTextParser.parse("""
                [8] TYPEDEF 'u32' type_id=1
                [9] STRUCT 'mod' size=4 vlen=1
                	'f' type_id=8 bits_offset=0
                """, base);
        assertEquals(1, BtfDiff.diff(a, c, new BtfDiff.Options(true)).count(Status.ADDED), "a different u32 is still news");
    }

    @Test
    void filtersKeepKindsAndNames() {
        String a = """
                [8] STRUCT 'dev_a' size=4 vlen=0
                [9] UNION 'dev_b' size=4 vlen=0
                [10] TYPEDEF 'dev_t' type_id=1
                [11] ENUM64 'dev_e' encoding=UNSIGNED size=8 vlen=0
                [12] STRUCT 'other' size=4 vlen=0
                """;
        DiffReport all = diff("", a);
        assertEquals(5, all.count(Status.ADDED));
        assertEquals(List.of("dev_a", "dev_b"), names(DiffFilter.of(List.of("struct", "UNION"), "dev_*").apply(all)));
        assertEquals(List.of("dev_e"), names(DiffFilter.of(List.of("enum"), null).apply(all)), "enum takes ENUM64 too");
        assertEquals(List.of("dev_a", "dev_b", "dev_t", "dev_e"), names(DiffFilter.of(List.of(), "dev_[!x]*").apply(all)).stream()
                .sorted(java.util.Comparator.comparing(n -> "abte".indexOf(n.charAt(4)))).toList());
        assertEquals(List.of("other"), names(DiffFilter.of(null, "o?her").apply(all)));
        assertEquals(all, DiffFilter.ALL.apply(all));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> DiffFilter.of(List.of("strct"), null));
        assertTrue(e.getMessage().startsWith("'strct' is not a BTF kind (did you mean 'struct'?)"), e.getMessage());
        assertTrue(java.util.regex.Pattern.matches(DiffFilter.globToRegex("a.b*"), "a.bcd"));
        assertTrue(!java.util.regex.Pattern.matches(DiffFilter.globToRegex("a.b*"), "axbcd"), "a dot is a dot");
    }

    private static List<String> names(DiffReport r) {
        return r.types().stream().map(TypeDiff::name).toList();
    }
}
