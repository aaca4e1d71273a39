package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.BtfReader;
import io.btfkit.core.text.RawTextPrinter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One rule for every command: an output may carry what its input already carried — written,
 * with one warning line per finding — while a finding the operation introduced is still an
 * error. A self-pointing PTR went through {@code convert} silently and was refused by
 * {@code dedup}, {@code permute} and {@code asm}; libbpf's selftest shapes ("dedup: recursive
 * typedef", "btf_add_btf") must come out as libbpf makes them.
 */
class CarriedFindingsTest {
    @TempDir
    Path tmp;

    private static final String SELF_PTR = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] PTR '(anon)' type_id=2
            """;

    private Path write(String name, String text) throws Exception {
        Path txt = tmp.resolve(name + ".txt");
        Files.writeString(txt, text);
        Path btf = tmp.resolve(name + ".btf");
        Cli r = Cli.run("asm", "--no-verify", txt.toString(), "-o", btf.toString());
        assertEquals(0, r.exit, r.toString());
        return btf;
    }

    private String dump(Path p) throws Exception {
        Cli r = Cli.run("dump", p.toString());
        assertEquals(0, r.exit, r.toString());
        return r.outText();
    }

    @Test
    void everyCommandCarriesASelfPointingPointerAndSaysSo() throws Exception {
        Path in = write("self", SELF_PTR);
        String warning = "btfkit: " + in + ": warning: output carries the input's reference cycle [2] PTR -> [2]"
                + " (the kernel rejects it)\n";
        String[][] commands = {
            {"convert", in.toString(), "--endian", "big"},
            {"dedup", in.toString()},
            {"permute", in.toString(), "--sort", "kind"},
            {"link", in.toString()},
            {"link", "--no-dedup", in.toString()},
        };
        for (String[] c : commands) {
            Path out = tmp.resolve(c[0] + ".out");
            String[] args = java.util.Arrays.copyOf(c, c.length + 2);
            args[c.length] = "-o";
            args[c.length + 1] = out.toString();
            Cli r = Cli.run(args);
            assertEquals(0, r.exit, String.join(" ", c) + ": " + r);
            assertEquals(warning, r.err, String.join(" ", c));
            assertEquals(SELF_PTR, dump(out), String.join(" ", c));
        }
        Path txt = tmp.resolve("self.txt");
        Cli r = Cli.run("asm", txt.toString(), "-o", tmp.resolve("asm.out").toString());
        assertEquals(0, r.exit, r.toString());
        assertEquals("btfkit: " + txt + ": warning: output carries the input's reference cycle [2] PTR -> [2]"
                + " (the kernel rejects it)\n", r.err);
        Cli quiet = Cli.run("convert", in.toString(), "--no-verify", "-o", tmp.resolve("nv.out").toString());
        assertEquals("", quiet.err, "--no-verify checks nothing");
    }

    @Test
    void dedupOfAConstCycleBesideAConstOfVoidCarriesTheCycle() throws Exception {
        // issue 17: was `internal error: NullPointerException` (exit 70)
        Path in = write("c3", """
                [1] CONST '(anon)' type_id=0
                [2] CONST '(anon)' type_id=3
                [3] CONST '(anon)' type_id=2
                """);
        Path out = tmp.resolve("c3.dedup");
        Cli r = Cli.run("dedup", in.toString(), "-o", out.toString());
        assertEquals(0, r.exit, r.toString());
        assertEquals("btfkit: " + in + ": warning: output carries the input's modifier cycle [2] CONST -> [3] CONST -> [2]"
                + " (the kernel rejects it)\n", r.err);
        assertEquals("""
                [1] CONST '(anon)' type_id=0
                [2] CONST '(anon)' type_id=2
                """, dump(out));
    }

    @Test
    void recursiveTypedefDedupsAsLibbpfsSelftest() throws Exception {
        Path in = write("go", """
                [1] TYPEDEF 'Foo' type_id=2
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=0
                [3] TYPEDEF 'Foo' type_id=4
                [4] FUNC_PROTO '(anon)' ret_type_id=3 vlen=0
                """);
        Path out = tmp.resolve("go.dedup");
        Cli r = Cli.run("dedup", in.toString(), "-o", out.toString());
        assertEquals(0, r.exit, r.toString());
        assertTrue(r.err.startsWith("btfkit: " + in + ": warning: output carries the input's type [2] FUNC_PROTO"), r.err);
        assertEquals(1, r.err.lines().count(), "one warning: the second copy's finding is the same one\n" + r.err);
        assertEquals("""
                [1] TYPEDEF 'Foo' type_id=2
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=0
                """, dump(out));
        assertEquals(2, BtfReader.read(Files.readAllBytes(out)).ownTypeCount());
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
    void linkNoDedupAppendsAsLibbpfsBtfAddBtfSelftest() throws Exception {
        Path a = write("gen1", GEN_BTF);
        Path b = write("gen2", GEN_BTF);
        Path out = tmp.resolve("added.btf");
        Cli r = Cli.run("link", "--no-dedup", a.toString(), b.toString(), "-o", out.toString());
        assertEquals(0, r.exit, r.toString());
        assertEquals(RawTextPrinter.toText(BtfReader.read(Files.readAllBytes(out))), dump(out));
        assertEquals("""
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
                """, dump(out));
        // each input's cycle and its DATASEC entry of an INT (gen_btf adds one), per input
        assertEquals(4, r.err.lines().count(), r.err);
        assertTrue(r.err.contains("btfkit: " + a + ": warning: output carries the input's modifier cycle [3] CONST -> [5] RESTRICT"
                + " -> [4] VOLATILE -> [3]"), r.err);
        assertTrue(r.err.contains("btfkit: " + b + ": warning: output carries the input's modifier cycle"), r.err);
    }
}
