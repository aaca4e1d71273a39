package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.TestData;
import io.btfkit.core.text.RawTextParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The habits of bpftool and pahole btfkit follows: {@code -B}/{@code --base-btf} for the base,
 * {@code --root NAME} (pahole -C), pretty JSON ({@code -p}, bpftool's indentation byte for byte).
 */
class ConventionsTest {
    @TempDir
    static Path tmp;
    static Path base;
    static Path split;

    /**
     * A base where 'foo' names a struct and its typedef, 'bar' a struct, a declaration of it and a
     * variable, 'baz' a union and a function, 'qux' a struct and a typedef of something else.
     */
    @BeforeAll
    static void files() throws Exception {
        Btf b = RawTextParser.parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 'foo' size=4 vlen=1
                	'a' type_id=1 bits_offset=0
                [3] TYPEDEF 'foo' type_id=2
                [4] FWD 'bar' fwd_kind=struct
                [5] STRUCT 'bar' size=8 vlen=1
                	'p' type_id=6 bits_offset=0
                [6] PTR '(anon)' type_id=4
                [7] VAR 'bar' type_id=5, linkage=global
                [8] UNION 'baz' size=4 vlen=0
                [9] FUNC_PROTO '(anon)' ret_type_id=1 vlen=0
                [10] FUNC 'baz' type_id=9 linkage=static
                [11] TYPEDEF 'qux' type_id=1
                [12] STRUCT 'qux' size=0 vlen=0
                """, null);
        base = tmp.resolve("base.btf");
        Files.write(base, BtfWriter.write(b));
        Btf s = RawTextParser.parse("""
                [13] STRUCT 'mod' size=4 vlen=1
                	'f' type_id=3 bits_offset=0
                """, b);
        split = tmp.resolve("mod.btf");
        Files.write(split, BtfWriter.write(s));
    }

    @Test
    void dashBAndBaseBtfAreTheBase() {
        Cli withBase = Cli.run("dump", split.toString(), "--base", base.toString());
        assertEquals(0, withBase.exit, withBase.toString());
        for (String alias : List.of("-B", "--base-btf")) {
            Cli r = Cli.run("dump", split.toString(), alias, base.toString());
            assertEquals(0, r.exit, r.toString());
            assertArrayEquals(withBase.out, r.out, alias);
            Path o = tmp.resolve("v" + alias + ".out");
            assertEquals(0, Cli.run("validate", alias, base.toString(), split.toString()).exit, alias);
            assertEquals(0, Cli.run("dedup", split.toString(), alias, base.toString(), "-o", o.toString()).exit, alias);
        }
        assertEquals(0, Cli.run("stats", "-B" + base, split.toString()).exit, "-BFILE, as bpftool takes it");
        Cli pahole = Cli.run("dump", split.toString(), "--btf_base", base.toString());
        assertEquals(0, pahole.exit, "--btf_base, as pahole spells it: " + pahole);
        assertArrayEquals(withBase.out, pahole.out);
    }

    @Test
    void dashJIsJsonAsInBpftool() {
        String json = Cli.run("dump", split.toString(), "-B", base.toString(), "--format", "json").outText();
        assertEquals(json, Cli.run("dump", split.toString(), "-B", base.toString(), "-j").outText());
        assertEquals(json, Cli.run("dump", split.toString(), "-B", base.toString(), "--json").outText());
        assertEquals(Cli.run("stats", split.toString(), "-B", base.toString(), "--json").outText(),
                Cli.run("stats", split.toString(), "-B", base.toString(), "-j").outText());
        assertEquals(Cli.run("diff", base.toString(), base.toString(), "--json").outText(),
                Cli.run("diff", base.toString(), base.toString(), "-j").outText());
        assertEquals(2, Cli.run("dump", base.toString(), "-j", "--format", "c").exit);
    }

    @Test
    void dashCIsPaholesClass() {
        String c = c("--root", "2");
        Cli r = Cli.run("dump", base.toString(), "-C", "foo");
        assertEquals(0, r.exit, r.toString());
        assertEquals(c, r.outText(), "-C NAME: C output of that type, as pahole -C");
        assertEquals(c, Cli.run("dump", base.toString(), "--root", "struct:foo").outText(), "--root implies --format c");
    }

    @Test
    void rootTakesNamesLikePahole() {
        String byId = c("--root", "2");
        assertTrue(byId.contains("struct foo {"), byId);
        assertEquals(byId, c("--root", "struct:foo"));
        assertEquals(byId, c("--root", "STRUCT:foo"));
        assertEquals(c("--root", "5"), c("--root", "bar"), "a declaration and a variable give way to the definition");
        assertEquals(c("--root", "8"), c("--root", "baz"), "so does a function");
        assertEquals(c("--root", "2"), c("--root", "foo"), "a typedef of its own struct gives way to the struct (pahole -C)");
        assertEquals(c("--root", "3,5"), c("--root", "typedef:foo,bar"));
        Cli sp = Cli.run("dump", split.toString(), "-B", base.toString(), "--format", "c", "--root", "mod,struct:foo");
        assertEquals(0, sp.exit, sp.toString());
        assertTrue(sp.outText().contains("struct mod {"), "a split type by name");
    }

    @Test
    void anUnknownOrAmbiguousRootIsExit2WithTheChoices() {
        Cli amb = Cli.run("dump", base.toString(), "--format", "c", "--root", "qux");
        assertEquals(2, amb.exit, amb.toString());
        assertEquals("btfkit: " + base + ": --root qux: several kinds of type are named 'qux': STRUCT [12], TYPEDEF [11];"
                + " name one as struct:qux or typedef:qux\n", amb.err);
        assertEquals("", amb.outText(), "nothing printed");
        for (String[] bad : new String[][] {
            {"nosuch", "no type named 'nosuch'"}, {"union:foo", "no UNION named 'foo'"}, {"99", "no type of that id"},
            {"blah:foo", "'blah' is not a BTF kind"}, {"", "no type named ''"},
        }) {
            Cli r = Cli.run("dump", base.toString(), "--format", "c", "--root", bad[0]);
            assertEquals(2, r.exit, r.toString());
            assertTrue(r.err.startsWith("btfkit: " + base + ": --root ") && r.err.contains(bad[1]) && r.err.split("\n").length == 1,
                    r.err);
        }
        Cli raw = Cli.run("dump", base.toString(), "--format", "raw", "--root", "foo");
        assertEquals(2, raw.exit, "--root is for C output");
    }

    @Test
    void rootByNameOnARealKernel() {
        Path vmlinux = TestData.golden("vmlinux-6.1.0-56.btf");
        Cli byName = Cli.run("dump", vmlinux.toString(), "--format", "c", "--root", "task_struct");
        assertEquals(0, byName.exit, byName.toString());
        assertTrue(byName.outText().contains("\nstruct task_struct {\n"));
        assertEquals(byName.outText(), Cli.run("dump", vmlinux.toString(), "--format", "c", "--root", "struct:task_struct").outText());
    }

    /** pahole -C min_heap_char prints the struct; 68 names of the 6.18 kernel are a struct and {@code typedef struct X X}. */
    @Test
    void aStructAndItsOwnTypedefGiveTheStruct() {
        Path vmlinux = TestData.vmlinux618();
        Cli r = Cli.run("dump", vmlinux.toString(), "-C", "min_heap_char");
        assertEquals(0, r.exit, r.toString());
        assertTrue(r.outText().contains("\nstruct min_heap_char {\n"), r.outText());
        assertEquals(r.outText(), Cli.run("dump", vmlinux.toString(), "-C", "struct:min_heap_char").outText());
    }

    /** C declares no functions: a FUNC root stands for its prototype's types, and stderr says so. */
    @Test
    void aFunctionRootGivesTheTypesItsPrototypeUses() {
        Path vmlinux = TestData.golden("vmlinux-6.1.0-56.btf");
        Cli r = Cli.run("dump", vmlinux.toString(), "--format", "c", "--root", "vfs_read");
        assertEquals(0, r.exit, r.toString());
        assertTrue(r.outText().contains("\nstruct file {\n"), "struct file *: the struct is printed");
        assertTrue(r.err.matches("btfkit: \\S+: --root vfs_read: FUNC \\[\\d+\\] 'vfs_read' is no C type: the types of its"
                + " prototype \\(return and parameters\\) are printed instead \\(5: TYPEDEF \\[\\d+\\] 'ssize_t', STRUCT \\[\\d+\\] 'file', .*\\)\n"),
                r.err);
        Cli var = Cli.run("dump", base.toString(), "--format", "c", "--root", "7");
        assertEquals(c("--root", "5"), var.outText(), "a VAR gives its type");
        assertTrue(var.err.contains("VAR [7] 'bar' is no C type: its type is printed instead (1: STRUCT [5] 'bar')"), var.err);
    }

    @Test
    void prettyJsonIsCompactJsonIndented() {
        for (Path in : List.of(TestData.sample("bpf/task_trace.bpf.o"), TestData.sample("gcc/job.o"), split)) {
            String[] b = in == split ? new String[] {"-B", base.toString()} : new String[0];
            String compact = Cli.run(concat(new String[] {"dump", in.toString(), "--format", "json"}, b)).outText();
            Cli p = Cli.run(concat(new String[] {"dump", in.toString(), "-p"}, b));
            assertEquals(0, p.exit, p.toString());
            assertEquals(p.outText(), Cli.run(concat(new String[] {"dump", in.toString(), "--format", "json", "--pretty"}, b)).outText());
            assertTrue(p.outText().startsWith("{\n    \"types\": [{\n            \"id\": "), p.outText());
            assertEquals(compact, p.outText().replaceAll("\n *", "").replace("\": ", "\":") + "\n", in.toString());
        }
        assertEquals(2, Cli.run("dump", split.toString(), "-B", base.toString(), "--format", "c", "-p").exit);
    }

    @Test
    void prettyJsonIsBpftoolsByteForByte() {
        Path bpftool = TestData.tool("bpftool");
        Assumptions.assumeTrue(bpftool != null, "skipped: bpftool not installed");
        for (Path in : List.of(TestData.sample("bpf/task_trace.bpf.o"), TestData.sample("bpf/net_stats.bpf.o"),
                TestData.sample("gcc/main.o"), split)) {
            List<String> cmd = new ArrayList<>(List.of(bpftool.toString(), "-p"));
            String[] b = new String[0];
            if (in == split) {
                cmd.addAll(List.of("-B", base.toString()));
                b = new String[] {"-B", base.toString()};
            }
            cmd.addAll(List.of("btf", "dump", "file", in.toString()));
            assertEquals(new String(TestData.run(cmd), StandardCharsets.ISO_8859_1),
                    new String(Cli.run(concat(new String[] {"dump", in.toString(), "-p"}, b)).out, StandardCharsets.ISO_8859_1),
                    in.toString());
        }
    }

    @Test
    void statsAndDiffPrettyPutEveryObjectOnItsOwnLines() {
        Cli s = Cli.run("stats", split.toString(), "-B", base.toString(), "-p");
        assertEquals(0, s.exit, s.toString());
        // four spaces a level, as bpftool -p indents
        assertTrue(s.outText().contains("\"kinds\": [\n        {\n            \"kind\": \"INT\",\n"), s.outText());
        assertFalse(Cli.run("stats", split.toString(), "-B", base.toString(), "--json").outText().contains("{\n      \"kind\""));
        Cli d = Cli.run("diff", base.toString(), TestData.sample("gcc/job.o").toString(), "--pretty");
        assertEquals(1, d.exit, d.toString());
        assertTrue(d.outText().startsWith("{\n    \"summary\": {\n        \""), d.outText());
    }

    private static String c(String... args) {
        Cli r = Cli.run(concat(new String[] {"dump", base.toString(), "--format", "c"}, args));
        assertEquals(0, r.exit, r.toString());
        return r.outText();
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
