package io.btfkit.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.btfkit.core.Btf;
import io.btfkit.core.text.RawTextParser;
import io.btfkit.core.text.RawTextPrinter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reference cycles that no struct or union breaks — modifier and typedef cycles, self-pointing
 * pointers, prototype loops — each as a hand-written case: what dedup and concatenation make
 * of them. libbpf's own selftests give two of them ("dedup: recursive typedef" of
 * {@code prog_tests/btf.c}, "btf_add_btf" of {@code prog_tests/btf_write.c}); for the others
 * libbpf's {@code btf__dedup} fails with {@code -ELOOP} and btfkit keeps the minimal graph.
 */
class DedupCyclesTest {

    private static Btf parse(String text) {
        return RawTextParser.parse(text.stripIndent(), null);
    }

    private static String dedup(String text) {
        return RawTextPrinter.toText(Deduplicator.dedup(parse(text)).btf());
    }

    @Test
    void aModifierCycleBesideAModifierOfVoidDoesNotCrash() {
        // issue 17: the cycle was matched against the CONST of void, whose child is void (an
        // internal error); a two-CONST cycle is one CONST referring to itself
        assertEquals("""
                [1] CONST '(anon)' type_id=0
                [2] CONST '(anon)' type_id=2
                """, dedup("""
                [1] CONST '(anon)' type_id=0
                [2] CONST '(anon)' type_id=3
                [3] CONST '(anon)' type_id=2
                """));
    }

    @Test
    void recursiveTypedefAsLibbpfsSelftest() {
        // "dedup: recursive typedef": Go's `type Foo func() Foo`, twice -> once
        assertEquals("""
                [1] TYPEDEF 'Foo' type_id=2
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=0
                """, dedup("""
                [1] TYPEDEF 'Foo' type_id=2
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=0
                [3] TYPEDEF 'Foo' type_id=4
                [4] FUNC_PROTO '(anon)' ret_type_id=3 vlen=0
                """));
    }

    @Test
    void selfPointingPointersMerge() {
        assertEquals("""
                [1] PTR '(anon)' type_id=1
                """, dedup("""
                [1] PTR '(anon)' type_id=1
                [2] PTR '(anon)' type_id=3
                [3] PTR '(anon)' type_id=2
                """));
    }

    @Test
    void rotatedModifierCyclesAreOneCycle() {
        // CONST -> VOLATILE -> CONST, and the same ring entered at its VOLATILE
        assertEquals("""
                [1] CONST '(anon)' type_id=2
                [2] VOLATILE '(anon)' type_id=1
                [3] PTR '(anon)' type_id=2
                """, dedup("""
                [1] CONST '(anon)' type_id=2
                [2] VOLATILE '(anon)' type_id=1
                [3] PTR '(anon)' type_id=4
                [4] VOLATILE '(anon)' type_id=5
                [5] CONST '(anon)' type_id=4
                """));
    }

    @Test
    void prototypeLoopsThroughPointersMerge() {
        // a function returning a pointer to its own kind, twice
        assertEquals("""
                [1] PTR '(anon)' type_id=2
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1
                \t'p' type_id=1
                """, dedup("""
                [1] PTR '(anon)' type_id=2
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1
                \t'p' type_id=1
                [3] PTR '(anon)' type_id=4
                [4] FUNC_PROTO '(anon)' ret_type_id=3 vlen=1
                \t'p' type_id=5
                [5] PTR '(anon)' type_id=4
                """));
    }

    /** btf_write.c's gen_btf(): every kind, with a CONST -> RESTRICT -> VOLATILE -> CONST cycle. */
    private static final String GEN_BTF = """
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] PTR '(anon)' type_id=1
                [3] CONST '(anon)' type_id=5
                [4] VOLATILE '(anon)' type_id=3
                [5] RESTRICT '(anon)' type_id=4
                [6] ARRAY '(anon)' type_id=2 index_type_id=1 nr_elems=10
                [7] STRUCT 's1' size=8 vlen=2
                \t'f1' type_id=1 bits_offset=0
                \t'f2' type_id=1 bits_offset=32 bitfield_size=16
                [8] UNION 'u1' size=8 vlen=1
                \t'f1' type_id=1 bits_offset=0 bitfield_size=16
                [9] ENUM 'e1' encoding=UNSIGNED size=4 vlen=2
                \t'v1' val=1
                \t'v2' val=2
                [10] FWD 'struct_fwd' fwd_kind=struct
                [11] FWD 'union_fwd' fwd_kind=union
                [12] ENUM 'enum_fwd' encoding=UNSIGNED size=4 vlen=0
                [13] TYPEDEF 'typedef1' type_id=1
                [14] FUNC 'func1' type_id=15 linkage=global
                [15] FUNC_PROTO '(anon)' ret_type_id=1 vlen=2
                \t'p1' type_id=1
                \t'p2' type_id=2
                [16] VAR 'var1' type_id=1, linkage=global
                [17] DATASEC 'datasec1' size=12 vlen=1
                \ttype_id=1 offset=4 size=8 (INT 'int')
                [18] DECL_TAG 'tag1' type_id=16 component_idx=-1
                [19] DECL_TAG 'tag2' type_id=14 component_idx=1
                [20] TYPE_TAG 'tag1' type_id=1
                [21] ENUM64 'e1' encoding=SIGNED size=8 vlen=2
                \t'v1' val=-1LL
                \t'v2' val=4886718345LL
                [22] ENUM64 'e1' encoding=UNSIGNED size=8 vlen=1
                \t'v1' val=18446744073709551615ULL
                """;

    @Test
    void concatenationAsLibbpfsBtfAddBtfSelftest() {
        // "btf_add_btf": btf__add_btf(btf1, btf2) of two gen_btf() copies, written as is
        String expected = GEN_BTF + """
                [23] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [24] PTR '(anon)' type_id=23
                [25] CONST '(anon)' type_id=27
                [26] VOLATILE '(anon)' type_id=25
                [27] RESTRICT '(anon)' type_id=26
                [28] ARRAY '(anon)' type_id=24 index_type_id=23 nr_elems=10
                [29] STRUCT 's1' size=8 vlen=2
                \t'f1' type_id=23 bits_offset=0
                \t'f2' type_id=23 bits_offset=32 bitfield_size=16
                [30] UNION 'u1' size=8 vlen=1
                \t'f1' type_id=23 bits_offset=0 bitfield_size=16
                [31] ENUM 'e1' encoding=UNSIGNED size=4 vlen=2
                \t'v1' val=1
                \t'v2' val=2
                [32] FWD 'struct_fwd' fwd_kind=struct
                [33] FWD 'union_fwd' fwd_kind=union
                [34] ENUM 'enum_fwd' encoding=UNSIGNED size=4 vlen=0
                [35] TYPEDEF 'typedef1' type_id=23
                [36] FUNC 'func1' type_id=37 linkage=global
                [37] FUNC_PROTO '(anon)' ret_type_id=23 vlen=2
                \t'p1' type_id=23
                \t'p2' type_id=24
                [38] VAR 'var1' type_id=23, linkage=global
                [39] DATASEC 'datasec1' size=12 vlen=1
                \ttype_id=23 offset=4 size=8 (INT 'int')
                [40] DECL_TAG 'tag1' type_id=38 component_idx=-1
                [41] DECL_TAG 'tag2' type_id=36 component_idx=1
                [42] TYPE_TAG 'tag1' type_id=23
                [43] ENUM64 'e1' encoding=SIGNED size=8 vlen=2
                \t'v1' val=-1LL
                \t'v2' val=4886718345LL
                [44] ENUM64 'e1' encoding=UNSIGNED size=8 vlen=1
                \t'v1' val=18446744073709551615ULL
                """;
        DedupResult r = Deduplicator.concatenate(List.of(parse(GEN_BTF), parse(GEN_BTF)), null);
        assertEquals(expected, RawTextPrinter.toText(r.btf()));
        assertEquals(25, r.outputId(1, 3, 1), "the second copy's CONST");
    }
}
