package io.btfkit.corpus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.RequiresTools;
import io.btfkit.core.TestData;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.core.text.RawTextParser;
import io.btfkit.minimize.CoreProgram;
import io.btfkit.minimize.CoreRelocator;
import io.btfkit.minimize.Minimizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hard cases of CO-RE resolution, each a small C program built with clang and a target BTF
 * written by hand, resolved by libbpf ({@link LibbpfCore}), btfkit and bpftool: one candidate
 * list per local type, cut down after each relocation that matches (three shapes), a load of a
 * field whose size changed (poisoned), and a case where bpftool's own {@code gen min_core_btf}
 * writes BTF on which libbpf resolves otherwise than on the full target. For each: btfkit's
 * outcomes equal libbpf's, relocation by relocation (value, poisoned or not, target spec);
 * {@code minimize} writes bpftool's bytes (except the last case, where it must not); and libbpf
 * gets from btfkit's minimal BTF what it gets from the full target.
 */
@RequiresTools({"clang", "bpftool", "btfref"})
class CoreHardCasesTest {
    @TempDir
    Path tmp;

    /** What the three runs gave. */
    private record Run(Path object, Path target, String log, List<LibbpfCore.Outcome> libbpf, Minimizer minimized, Path min,
                       byte[] bpftool) {
    }

    private Run run(String source, String target) throws IOException {
        Path object = LibbpfCore.compile(tmp, "prog", source);
        Btf btf = RawTextParser.parse(target, null);
        Path targetFile = Files.write(tmp.resolve("target.btf"), BtfWriter.write(btf));
        String log = LibbpfCore.log(object, targetFile);
        List<LibbpfCore.Outcome> libbpf = LibbpfCore.outcomes(log);
        assertEquals(libbpf, LibbpfCore.btfkit(object, btf), log);

        LoadedInput in = InputLoader.load(object, null);
        Minimizer m = new Minimizer(btf);
        m.recordAll(new CoreRelocator(btf), CoreProgram.parse(object.toString(), in.btf(), in.ext(), in.elf()));
        Path min = Files.write(tmp.resolve("min.btf"), BtfWriter.write(m.build()));
        Path ref = tmp.resolve("ref.btf");
        TestData.run(List.of(TestData.requireTool("bpftool").toString(), "gen", "min_core_btf", targetFile.toString(),
                ref.toString(), object.toString()));

        // libbpf on the minimal BTF: the values it gets on the full target (type ids aside), and it loads where it loaded
        String onMin = LibbpfCore.log(object, min);
        var kinds = LibbpfCore.kinds(object);
        assertEquals(LibbpfCore.withoutIds(libbpf, kinds), LibbpfCore.withoutIds(LibbpfCore.outcomes(onMin), kinds), onMin);
        if (log.contains("core_oracle: load 0")) {
            assertTrue(onMin.contains("core_oracle: load 0"), onMin);
        }
        return new Run(object, targetFile, log, libbpf, m, min, TestData.bytes(ref));
    }

    private static final String PRELUDE = """
            #define SEC(n) __attribute__((section(n), used))
            typedef unsigned long long u64;
            static long (*bpf_probe_read_kernel)(void *dst, unsigned int size, const void *src) = (void *)113;
            #define CORE_READ(dst, ptr, field) \\
                bpf_probe_read_kernel(&(dst), sizeof(dst), __builtin_preserve_access_index(&(ptr)->field))
            u64 out[16];
            char LICENSE[] SEC("license") = "GPL";
            """;

    /** s.y, then s.x, of {@code struct s { int x; int y; }} read with bpf_core_read. */
    private static final String READ_Y_THEN_X = PRELUDE + """
            struct s { int x; int y; };
            SEC("kprobe/p0")
            int p0(void *ctx)
            {
                struct s *p = ctx;
                int v;
                CORE_READ(v, p, y);
                out[0] = v;
                CORE_READ(v, p, x);
                out[1] = v;
                return 0;
            }
            """;

    private static final String INT = "[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n";

    /**
     * Relocation #0 (s.y) matches only s___2, so #1 (s.x) is resolved against s___2 alone: 4. Against
     * both flavours it would be ambiguous (0 and 4), which is what btfkit reported before.
     */
    @Test
    void aMatchNarrowsTheNextRelocationsCandidates() throws IOException {
        Run r = run(READ_Y_THEN_X, INT + """
                [2] STRUCT 's___1' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0
                [3] STRUCT 's___2' size=12 vlen=3
                \t'pad' type_id=1 bits_offset=0
                \t'x' type_id=1 bits_offset=32
                \t'y' type_id=1 bits_offset=64
                """);
        assertEquals("[kprobe/p0 relo #0 = 8 @ [3] 0:2, kprobe/p0 relo #1 = 4 @ [3] 0:1]", r.libbpf().toString());
        assertArrayEquals(r.bpftool(), TestData.bytes(r.min()));
    }

    /**
     * Both flavours give s.x the offset 0, but libbpf's target spec for #1 is s___2.x (the list
     * holds s___2 only): the minimal BTF keeps s___2 {x, y}. Keeping s___1.x instead (the first
     * candidate of the whole list) leaves libbpf no match for #1 on the minimal BTF.
     */
    @Test
    void theTargetSpecIsTheFirstMatchOfTheNarrowedList() throws IOException {
        Run r = run(READ_Y_THEN_X, INT + """
                [2] STRUCT 's___1' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0
                [3] STRUCT 's___2' size=8 vlen=2
                \t'x' type_id=1 bits_offset=0
                \t'y' type_id=1 bits_offset=32
                """);
        assertEquals("[kprobe/p0 relo #0 = 4 @ [3] 0:1, kprobe/p0 relo #1 = 0 @ [3] 0:0]", r.libbpf().toString());
        assertArrayEquals(r.bpftool(), TestData.bytes(r.min()));
        assertTrue(r.minimized().widened().isEmpty());
    }

    /**
     * #0 reads t.a.a, which only t___a has; #1 reads t.b.b, which only t___b has: after #0 the
     * list holds t___a alone, so libbpf finds no match for #1 and poisons it (the read then makes
     * the verifier reject the program).
     */
    @Test
    void aRelocationTheNarrowedListCannotMatchIsPoisoned() throws IOException {
        Run r = run(PRELUDE + """
                struct ta { int a; };
                struct tb { int b; };
                struct t { struct ta a; struct tb b; };
                SEC("kprobe/p0")
                int p0(void *ctx)
                {
                    struct t *p = ctx;
                    int v;
                    CORE_READ(v, p, a.a);
                    out[0] = v;
                    CORE_READ(v, p, b.b);
                    out[1] = v;
                    return 0;
                }
                """, INT + """
                [2] STRUCT 'ta' size=4 vlen=1
                \t'a' type_id=1 bits_offset=0
                [3] STRUCT 'tb' size=4 vlen=1
                \t'b' type_id=1 bits_offset=0
                [4] STRUCT 't___a' size=4 vlen=1
                \t'a' type_id=2 bits_offset=0
                [5] STRUCT 't___b' size=8 vlen=1
                \t'b' type_id=3 bits_offset=32
                """);
        assertEquals("[kprobe/p0 relo #0 = 0 @ [4] 0:0:0, kprobe/p0 relo #1 = poison]", r.libbpf().toString());
        assertArrayEquals(r.bpftool(), TestData.bytes(r.min()));
    }

    /**
     * {@code struct t { int a; }} read directly ({@code p->a}, a 4-byte load with a byte_off
     * relocation) against {@code struct t { short a; }}: the offset is 0 on both, but a signed
     * field changed size, so libbpf poisons the load, while the same offset taken as a value
     * ({@code __builtin_preserve_field_info}, an ALU instruction) is patched. The unsigned
     * {@code b} grows from 4 to 8 bytes: its load is resized.
     */
    @Test
    void aLoadOfAFieldWhoseSizeChangedIsPoisoned() throws IOException {
        Run r = run(PRELUDE + """
                struct t { int a; unsigned int b; } __attribute__((preserve_access_index));
                SEC("kprobe/p0")
                int p0(struct t *p)
                {
                    out[0] = p->a;
                    out[1] = p->b;
                    out[2] = __builtin_preserve_field_info(p->a, 0);
                    return 0;
                }
                """, """
                [1] INT 'short' size=2 bits_offset=0 nr_bits=16 encoding=SIGNED
                [2] INT 'unsigned long' size=8 bits_offset=0 nr_bits=64 encoding=(none)
                [3] STRUCT 't' size=16 vlen=2
                \t'a' type_id=1 bits_offset=0
                \t'b' type_id=2 bits_offset=64
                """);
        List<String> values = r.libbpf().stream().map(o -> o.value()).sorted().toList();
        assertEquals(List.of("0", "8", "poison"), values, r.log());
        assertTrue(r.log().contains("accesses field incorrectly"), r.log());
        assertArrayEquals(r.bpftool(), TestData.bytes(r.min()));
    }

    /**
     * s.x, then s.y, against s___1 {x} and s___2 {x, y}: #0 matches both flavours (offset 0), so
     * the list keeps both, and #1 finds y in s___2. bpftool keeps only the first match of each
     * relocation, s___1.x and s___2.y; on that output s___2 has no x, #0 cuts the list to s___1,
     * and libbpf poisons #1. btfkit notices and keeps every matching candidate's members.
     */
    @Test
    void whereBpftoolsOutputWouldResolveOtherwiseEveryMatchIsKept() throws IOException {
        Run r = run(PRELUDE + """
                struct s { int x; int y; };
                SEC("kprobe/p0")
                int p0(void *ctx)
                {
                    struct s *p = ctx;
                    int v;
                    CORE_READ(v, p, x);
                    out[0] = v;
                    CORE_READ(v, p, y);
                    out[1] = v;
                    return 0;
                }
                """, INT + """
                [2] STRUCT 's___1' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0
                [3] STRUCT 's___2' size=8 vlen=2
                \t'x' type_id=1 bits_offset=0
                \t'y' type_id=1 bits_offset=32
                """);
        assertEquals("[kprobe/p0 relo #0 = 0 @ [2] 0:0, kprobe/p0 relo #1 = 4 @ [3] 0:1]", r.libbpf().toString());
        assertEquals(1, r.minimized().widened().size());
        Path ref = Files.write(tmp.resolve("bpftool.btf"), r.bpftool());
        List<LibbpfCore.Outcome> onBpftools = LibbpfCore.outcomes(LibbpfCore.log(r.object(), ref));
        assertEquals("[kprobe/p0 relo #0 = 0 @ [2] 0:0, kprobe/p0 relo #1 = poison]", onBpftools.toString());
        assertFalse(java.util.Arrays.equals(r.bpftool(), TestData.bytes(r.min())));
    }

    /**
     * TYPE_MATCHES compares names as libbpf's {@code bpf_core_names_match}: an anonymous type or
     * member matches an anonymous one only — unlike field compatibility, where either side may be
     * anonymous. (clang 14 emits no type_matches: a type_exists record is turned into one.)
     * Local: {@code struct t { struct { int x; } *p; union { int a; }; }}.
     */
    @Test
    void typeMatchesTellsAnonymousFromNamed() throws IOException {
        Path exists = LibbpfCore.compile(tmp, "prog", PRELUDE + """
                struct t { struct { int x; } *p; union { int a; }; };
                SEC("kprobe/p0")
                int p0(void *ctx)
                {
                    out[0] = __builtin_preserve_type_info(*(struct t *)0, 0);
                    return 0;
                }
                """);
        Path object = CoreOracleTest.withTypeMatches(exists, tmp.resolve("matches.bpf.o"), 1);
        String same = """
                [2] STRUCT '(anon)' size=4 vlen=1
                	'x' type_id=1 bits_offset=0
                [3] PTR '(anon)' type_id=2
                [4] UNION '(anon)' size=4 vlen=1
                	'a' type_id=1 bits_offset=0
                [5] STRUCT 't' size=16 vlen=2
                	'p' type_id=3 bits_offset=0
                	'(anon)' type_id=4 bits_offset=64
                """;
        Map<String, String> targets = new java.util.LinkedHashMap<>();
        targets.put("the same anonymous types", same);
        targets.put("a named struct behind the pointer", same.replace("[2] STRUCT '(anon)'", "[2] STRUCT 'named'"));
        targets.put("a named member", same.replace("	'(anon)' type_id=4", "	'u' type_id=4"));
        targets.put("a named union", same.replace("[4] UNION '(anon)'", "[4] UNION 'u'"));
        Map<String, String> values = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, String> e : targets.entrySet()) {
            Btf btf = RawTextParser.parse(INT + e.getValue(), null);
            Path target = Files.write(tmp.resolve("target.btf"), BtfWriter.write(btf));
            String log = LibbpfCore.log(object, target);
            List<LibbpfCore.Outcome> libbpf = LibbpfCore.outcomes(log);
            assertEquals(libbpf, LibbpfCore.btfkit(object, btf), e.getKey() + "\n" + log);
            values.put(e.getKey(), libbpf.get(0).value());
        }
        // the oracle itself: only the first target matches
        assertEquals("{the same anonymous types=1, a named struct behind the pointer=0, a named member=0, a named union=0}",
                values.toString());
    }
}
