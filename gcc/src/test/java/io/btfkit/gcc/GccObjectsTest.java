package io.btfkit.gcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import io.btfkit.core.TestData;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.validate.Finding;
import io.btfkit.validate.Validator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quirks on objects gcc 12 writes here and now ({@code gcc -gbtf -c -O2}), checked against
 * what the object's ELF tables (read with {@code readelf}) say. Skipped where gcc 12 or
 * binutils are absent.
 */
class GccObjectsTest {
    @TempDir
    static Path dir;

    private static final String QUIRKS_C = """
            struct s;
            union u;
            enum e;
            struct s *ps;
            union u *pu;
            enum e *pe;
            typedef void (*cb_t)(int);
            cb_t cb;
            char c;
            signed char sc;
            unsigned char uc;
            extern int ext_var;
            extern int shared;
            int shared = 3;
            static int counter = 7;
            int *pcounter = &counter;
            const char *const names[] = {"a", "b"};
            long zeroed[4];
            int use(void) { return ext_var + shared; }
            extern int efunc(int);
            static int sfunc(int x) { return x * 2 + counter++; }
            int gfunc(int y) { return sfunc(y) + efunc(y); }
            """;

    @BeforeAll
    static void gcc12() {
        String gcc = TestData.requireTool("gcc").toString();
        Assumptions.assumeTrue(tool(gcc, "-dumpversion").startsWith("12"), "skipped: gcc 12 not available (gcc is another version)");
    }

    private static String tool(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor() == 0 ? out.trim() : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private static Path compile(String name, String source) throws IOException {
        Path c = dir.resolve(name + ".c");
        Files.writeString(c, source);
        Path o = dir.resolve(name + ".o");
        String out = tool("gcc", "-gbtf", "-c", "-O2", c.toString(), "-o", o.toString());
        Assumptions.assumeTrue(Files.exists(o), "skipped: gcc -gbtf failed: " + out);
        return o;
    }

    /** {@code readelf -sW}: symbol name to {section index, value} for defined objects. */
    private static Map<String, long[]> symbols(Path o) {
        String out = tool(TestData.requireTool("readelf").toString(), "-sW", o.toString());
        Map<String, long[]> m = new HashMap<>();
        for (String line : out.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 8 && f[3].equals("OBJECT") && f[6].matches("\\d+")) {
                m.put(f[7], new long[] {Long.parseLong(f[6]), Long.parseLong(f[1], 16)});
            }
        }
        return m;
    }

    @Test
    void fwdWordsAreWhatGcc12Leaves() throws IOException {
        Btf btf = InputLoader.load(compile("fwd", QUIRKS_C), null).btf();
        int s = btf.findByName("s", Kind.FWD);
        int u = btf.findByName("u", Kind.FWD);
        int e = btf.findByName("e", Kind.FWD);
        assertTrue(btf.sizeOrType(s) != 0 && !btf.kindFlag(s), "struct s: kind_flag 0, word " + btf.sizeOrType(s));
        assertTrue(btf.kindFlag(u), "union u: kind_flag 1");
        assertTrue(!btf.kindFlag(e) && btf.sizeOrType(e) != btf.sizeOrType(s), "enum e: a struct FWD with another word");
        GccNormalizer.UnitResult r = GccNormalizer.normalize(InputLoader.load(dir.resolve("fwd.o"), null),
                GccNormalizer.Level.LINK).units().get(0);
        assertEquals(Kind.ENUM, r.btf().kind(e));
        assertEquals(Kind.FWD, r.btf().kind(s));
        assertEquals(0, r.btf().sizeOrType(s));
    }

    @Test
    void fixGivesBtfTheKernelAccepts() throws IOException {
        Path o = compile("quirks", QUIRKS_C);
        LoadedInput in = InputLoader.load(o, null);
        List<Finding> before = Validator.validate(in.btf());
        assertTrue(before.size() > 5, before.toString());
        GccNormalizer.FileResult r = GccNormalizer.normalize(in, GccNormalizer.Level.FIX);
        Btf fixed = r.units().get(0).btf();
        assertEquals(List.of(), Validator.validate(fixed), GccText.dump(fixed));
        for (GccQuirk q : new GccQuirk[] {GccQuirk.FWD_TYPE_FIELD, GccQuirk.ENUM_FWD, GccQuirk.CHAR_ENCODING,
            GccQuirk.ANON_FUNC, GccQuirk.DUPLICATE_VAR, GccQuirk.DATASEC_LAYOUT, GccQuirk.EXTERN_VAR,
            GccQuirk.FUNC_LINKAGE, GccQuirk.EXTERN_FUNC}) {
            assertTrue(r.applied().count(q) > 0, q + " not applied: " + r.applied() + " / kept " + r.kept());
        }
        assertEquals(Kind.LINKAGE_GLOBAL, fixed.vlen(fixed.findByName("gfunc", Kind.FUNC)));
        assertEquals(Kind.LINKAGE_STATIC, fixed.vlen(fixed.findByName("sfunc", Kind.FUNC)));
        assertEquals(-1, fixed.findByName("efunc", Kind.FUNC));
        assertEquals(1, countNamed(fixed, "shared", Kind.VAR));
    }

    private static int countNamed(Btf b, String name, int kind) {
        int n = 0;
        for (int id = 1; id < b.typeCount(); id++) {
            n += b.kind(id) == kind && name.equals(b.name(id)) ? 1 : 0;
        }
        return n;
    }

    @Test
    void datasecsMatchTheSymbolTable() throws IOException {
        Path o = compile("layout", QUIRKS_C);
        Map<String, long[]> syms = symbols(o);
        Btf fixed = GccNormalizer.normalize(InputLoader.load(o, null), GccNormalizer.Level.FIX).units().get(0).btf();
        int checked = 0;
        List<String> sections = new ArrayList<>();
        for (int id = 1; id < fixed.typeCount(); id++) {
            if (fixed.kind(id) != Kind.DATASEC) {
                continue;
            }
            sections.add(fixed.name(id));
            assertTrue(fixed.sizeOrType(id) > 0);
            for (int k = 0; k < fixed.vlen(id); k++) {
                String var = fixed.name(fixed.extra(id, 3 * k));
                long[] sym = syms.get(var);
                assertTrue(sym != null, var + " has no symbol but is listed in " + fixed.name(id));
                assertEquals(sym[1], Integer.toUnsignedLong(fixed.extra(id, 3 * k + 1)), var + " offset");
                checked++;
            }
        }
        assertEquals(syms.size(), checked, "every defined variable is listed once: " + syms.keySet());
        assertTrue(sections.contains(".data.rel.ro.local") && sections.contains(".data.rel.local"),
                "gcc files 'names' under .rodata and 'pcounter' under .data; the object keeps them elsewhere: " + sections);
    }

    @Test
    void ldRelocatableObjectIsReadAsItsUnits() throws IOException {
        Path a = compile("a", "struct s { int x; } va; int fa(void) { return va.x; }\n");
        Path b = compile("b", "struct s; struct s *pb; enum e; enum e *pe; int fb(void) { return 1; }\n");
        Path ab = dir.resolve("ab.o");
        tool(TestData.requireTool("ld").toString(), "-r", a.toString(), b.toString(), "-o", ab.toString());
        Assumptions.assumeTrue(Files.exists(ab), "skipped: ld -r failed");
        LoadedInput in = InputLoader.load(ab, null);
        assertEquals(2, in.units().size());
        assertEquals(InputLoader.load(a, null).btf().ownTypeCount(), in.units().get(0).ownTypeCount());
        assertEquals(InputLoader.load(b, null).btf().ownTypeCount(), in.units().get(1).ownTypeCount());
        assertThrows(OperationException.class, in::btf);
        GccNormalizer.FileResult r = GccNormalizer.normalize(in, GccNormalizer.Level.FIX);
        assertEquals(2, r.applied().count(GccQuirk.CONCATENATED_BLOBS));
        assertEquals(0, r.applied().count(GccQuirk.DATASEC_LAYOUT), "the symbol table is the merged object's");
        assertTrue(r.kept().count(GccQuirk.DATASEC_LAYOUT) > 0);
    }
}
