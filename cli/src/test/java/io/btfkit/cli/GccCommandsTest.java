package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.TestData;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.text.RawTextParser;
import io.btfkit.validate.Validator;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * link, convert and validate on gcc 12 objects (the committed samples and hand-made raw
 * text): one warning line per input, --quiet, --fix, --as-written, several blobs per file,
 * the id map through --fix's renumbering, validate's quirk and kernel lines.
 */
class GccCommandsTest {
    @TempDir
    Path tmp;

    private static final String[] OBJECTS = {"queue.o", "job.o", "worker.o", "main.o"};

    private static List<String> samples() {
        List<String> l = new ArrayList<>();
        for (String o : OBJECTS) {
            l.add(TestData.sample("gcc/" + o).toString());
        }
        return l;
    }

    private static String[] args(List<String> head, List<String> files, String... tail) {
        List<String> l = new ArrayList<>(head);
        l.addAll(files);
        l.addAll(List.of(tail));
        return l.toArray(new String[0]);
    }

    @Test
    void gccObjectsLinkOntoABaseAsSplitBtf() throws Exception {
        // gcc writes standalone BTF; with --base its objects are still read standalone and the
        // result is split on the base, sharing the base's types
        Path base = tmp.resolve("base.btf");
        Path split = tmp.resolve("split.btf");
        List<String> all = samples();
        assertEquals(0, Cli.run(args(List.of("link", "-q"), all.subList(0, 2), "-o", base.toString())).exit);
        Cli r = Cli.run(args(List.of("link", "-q", "--base", base.toString()), all.subList(2, 4), "-o", split.toString()));
        assertEquals(0, r.exit, r.toString());
        Btf b = BtfReader.read(Files.readAllBytes(base));
        Btf s = BtfReader.read(Files.readAllBytes(split), b);
        assertTrue(s.ownTypeCount() > 0);
        for (String typedef : List.of("u16", "u32", "u64", "sched_time_t")) {
            assertTrue(b.findByName(typedef, Kind.TYPEDEF) > 0, typedef);
            for (int id = b.typeCount(); id < s.typeCount(); id++) {
                assertFalse(s.kind(id) == Kind.TYPEDEF && typedef.equals(s.name(id)), "base type copied into the split: " + typedef);
            }
        }
        assertTrue(s.findByName("worker", Kind.STRUCT) >= b.typeCount(), "worker is defined only in worker.o");
        assertEquals(List.of(), Validator.validate(s, Validator.Options.STRUCTURAL));
    }

    @Test
    void theLinkTheSummaryLineWarnsOfIsRefusedByTheKernelAndTheFixedOneLoads() throws Exception {
        Path plain = tmp.resolve("plain.btf");
        Path fixed = tmp.resolve("fixed.btf");
        assertEquals(0, Cli.run(args(List.of("link"), samples(), "-o", plain.toString())).exit);
        assertEquals(0, Cli.run(args(List.of("link", "--fix"), samples(), "-o", fixed.toString())).exit);
        // gcc 12's char (SIGNED|CHAR) is the first type the kernel meets: ENOTSUPP
        String verdict = TestData.kernelVerdict(Files.readAllBytes(plain));
        assertTrue(verdict.startsWith("errno 524: ") && verdict.endsWith("Unsupported encoding"), verdict);
        assertEquals("ok", TestData.kernelVerdict(Files.readAllBytes(fixed)));
    }

    @Test
    void linkSaysOneSummaryLineVerboseOnePerInputAndQuietNothing() throws Exception {
        Path out = tmp.resolve("prog.btf");
        Cli r = Cli.run(args(List.of("link"), samples(), "-o", out.toString()));
        assertEquals(0, r.exit, r.toString());
        assertEquals("btfkit: link: 4 of 4 inputs have gcc 12 encodings: 3 normalised, 51 kept; the kernel rejects 18 types"
                + " of the output (--fix rewrites what the objects prove; -v: per input; docs/GCC.md)\n", r.err);
        // as many types as the kernel's rules find broken in the output; none after --fix
        java.util.Set<Integer> broken = new java.util.HashSet<>();
        io.btfkit.validate.Validator.validate(BtfReader.read(Files.readAllBytes(out))).forEach(f -> broken.add(f.typeId()));
        assertEquals(18, broken.size());
        Cli fixed = Cli.run(args(List.of("link", "--fix"), samples(), "-o", tmp.resolve("fixed.btf").toString()));
        assertEquals("btfkit: link: 4 of 4 inputs have gcc 12 encodings: 48 normalised, 6 kept (-v: per input; docs/GCC.md)\n",
                fixed.err);
        assertEquals(123, BtfReader.read(Files.readAllBytes(out)).ownTypeCount());
        Cli v = Cli.run(args(List.of("link", "-v"), samples(), "-o", tmp.resolve("v.btf").toString()));
        String[] lines = v.err.strip().split("\n");
        assertEquals(5, lines.length, v.err);
        assertTrue(lines[3].startsWith("btfkit: " + TestData.sample("gcc/main.o") + ": normalised 1 GCC encodings"
                + " (1 gcc-fwd-type-field); kept 17 ("), lines[3]);
        assertTrue(lines[4].startsWith("btfkit: link: 4 of 4 inputs have gcc 12 encodings: "), lines[4]);
        Cli q = Cli.run(args(List.of("link", "--quiet"), samples(), "-o", tmp.resolve("q.btf").toString()));
        assertEquals(0, q.exit, q.toString());
        assertEquals("", q.err);
        assertArrayEquals(Files.readAllBytes(out), Files.readAllBytes(tmp.resolve("q.btf")));
    }

    @Test
    void linkFixWritesBtfTheKernelAccepts() throws Exception {
        Path out = tmp.resolve("fixed.btf");
        Cli r = Cli.run(args(List.of("link", "--fix", "-q"), samples(), "-o", out.toString()));
        assertEquals(0, r.exit, r.toString());
        Btf btf = BtfReader.read(Files.readAllBytes(out));
        assertEquals(List.of(), Validator.validate(btf));
        assertTrue(btf.ownTypeCount() < 123);
        Cli v = Cli.run("validate", out.toString());
        assertEquals(0, v.exit, v.outText());
        assertEquals("", v.outText(), "no quirk is left, so validate prints nothing");
    }

    @Test
    void mapFollowsTheRenumberingOfFix() throws Exception {
        Path out = tmp.resolve("m.btf");
        Path map = tmp.resolve("m.map");
        Cli r = Cli.run(args(List.of("link", "--fix", "-q"), samples(), "-o", out.toString(), "--map", map.toString()));
        assertEquals(0, r.exit, r.toString());
        Btf linked = BtfReader.read(Files.readAllBytes(out));
        Btf main = InputLoader.load(TestData.sample("gcc/main.o"), null).btf();
        int lines = 0;
        for (String line : Files.readAllLines(map)) {
            String[] f = line.split("\t");
            if (!f[0].endsWith("main.o")) {
                continue;
            }
            lines++;
            int in = Integer.parseInt(f[1]);
            int o = Integer.parseInt(f[2]);
            if (main.kind(in) == Kind.FUNC && main.nameOff(in) == 0) {
                assertEquals(0, o, "a removed anonymous FUNC maps to void");
            } else if (main.kind(in) == Kind.STRUCT) {
                assertEquals(main.name(in), linked.name(o));
                assertEquals(main.sizeOrType(in), linked.sizeOrType(o));
            }
        }
        assertEquals(main.ownTypeCount(), lines, "one line per type as read");
    }

    @Test
    void asWrittenKeepsGccsEncodings() throws Exception {
        Btf fwd = RawTextParser.parse("""
                [1] FWD 'opaque' fwd_kind=struct type=6
                [2] PTR '(anon)' type_id=1
                """, null);
        Path in = tmp.resolve("fwd.btf");
        Files.write(in, BtfWriter.write(fwd));
        // the output carries what the input carried, and says so (docs/VALIDATE.md)
        Cli kept = Cli.run("link", "--as-written", in.toString(), "-o", tmp.resolve("a.btf").toString());
        assertEquals(0, kept.exit, kept.toString());
        assertEquals("btfkit: " + in + ": warning: output carries the input's type [1] FWD 'opaque': fwd-type broken"
                + " (size/type word is 6, must be 0) (the kernel rejects it)\n", kept.err);
        Cli good = Cli.run("link", in.toString(), "-o", tmp.resolve("b.btf").toString());
        assertEquals(0, good.exit, good.toString());
        assertTrue(good.err.contains("link: 1 of 1 input has gcc 12 encodings: 1 normalised, 0 kept"), good.err);
    }

    @Test
    void everyBlobOfAConcatenatedInputIsLinked() throws Exception {
        ByteArrayOutputStream two = new ByteArrayOutputStream();
        for (String o : new String[] {"queue.o", "worker.o"}) {
            two.writeBytes(BtfWriter.write(InputLoader.load(TestData.sample("gcc/" + o), null).btf()));
        }
        Path ldr = tmp.resolve("qw.btf");
        Files.write(ldr, two.toByteArray());
        Path both = tmp.resolve("both.btf");
        Path each = tmp.resolve("each.btf");
        Cli r = Cli.run("link", "-q", ldr.toString(), "-o", both.toString(), "--map", tmp.resolve("b.map").toString());
        assertEquals(0, r.exit, r.toString());
        assertEquals(0, Cli.run("link", "-q", TestData.sample("gcc/queue.o").toString(),
                TestData.sample("gcc/worker.o").toString(), "-o", each.toString()).exit);
        assertArrayEquals(Files.readAllBytes(each), Files.readAllBytes(both), "two blobs link as two objects");
        assertTrue(Files.readString(tmp.resolve("b.map")).contains(ldr + "#2\t1\t"));
        Cli d = Cli.run("dump", ldr.toString());
        assertEquals(1, d.exit, d.toString());
        assertTrue(d.err.contains("holds 2 BTF blobs"), d.err);
        Path copy = tmp.resolve("copy.btf");
        assertEquals(0, Cli.run("convert", ldr.toString(), "-o", copy.toString()).exit);
        assertArrayEquals(Files.readAllBytes(ldr), Files.readAllBytes(copy), "convert keeps every blob");
    }

    @Test
    void convertFixMakesEachSampleKernelAcceptable() throws Exception {
        for (String o : OBJECTS) {
            Path in = TestData.sample("gcc/" + o);
            Path raw = tmp.resolve(o + ".btf");
            Cli c = Cli.run("convert", "--fix", in.toString(), "-o", raw.toString());
            assertEquals(0, c.exit, c.toString());
            assertTrue(c.err.startsWith("btfkit: convert: 1 of 1 input has gcc 12 encodings: "), c.err);
            assertEquals(1, c.err.strip().split("\n").length, c.err);
            Cli cv = Cli.run("convert", "--fix", "-v", in.toString(), "-o", raw.toString());
            assertTrue(cv.err.startsWith("btfkit: " + in + ": normalised "), cv.err);
            assertEquals(List.of(), Validator.validate(BtfReader.read(Files.readAllBytes(raw))), o);
            Path elf = tmp.resolve(o);
            assertEquals(0, Cli.run("convert", "--fix", "-q", in.toString(), "--out-format", "elf", "-o", elf.toString()).exit);
            assertEquals(0, Cli.run("validate", elf.toString()).exit, o + " as ELF");
        }
        Path plain = tmp.resolve("plain.btf");
        Cli p = Cli.run("convert", TestData.sample("gcc/main.o").toString(), "-o", plain.toString());
        assertEquals("btfkit: " + TestData.sample("gcc/main.o") + ": warning: output carries the input's type [40] FWD 'worker':"
                + " fwd-type broken (size/type word is 6, must be 0) (the kernel rejects it)\n", p.err,
                "without --fix convert changes nothing, and says what it carried that the kernel rejects");
        assertArrayEquals(InputLoader.load(TestData.sample("gcc/main.o"), null).btf().words(),
                BtfReader.read(Files.readAllBytes(plain)).words());
    }

    @Test
    void validateExplainsTheQuirksAndTheVerdict() {
        Cli v = Cli.run("validate", TestData.sample("gcc/main.o").toString());
        assertEquals(1, v.exit);
        String out = v.outText();
        assertTrue(out.contains("type [40] FWD 'worker': fwd-type broken"), out);
        assertTrue(out.contains("\nquirk gcc-fwd-type-field: 1 (first: type [40] FWD 'worker'): "), out);
        assertTrue(out.contains("\nquirk gcc-anon-func: 3 "), out);
        // validate has no --fix: its advice names the command that has it (convert; link --fix does the same)
        assertEquals(out.split("--fix", -1).length, out.split("convert --fix", -1).length, out);
        assertTrue(Cli.run("help", "convert").outText().contains("--fix"));
        assertTrue(Cli.run("validate", "--fix", TestData.sample("gcc/main.o").toString()).err.startsWith("btfkit: validate: unknown option '--fix'"));
        assertTrue(out.contains("\nquirk gcc-datasec-section: 2 (first: type [66] VAR 'jobs')"), out);
        String last = out.strip().substring(out.strip().lastIndexOf('\n') + 1);
        assertTrue(last.startsWith("kernel: rejects it (18 findings: ") && last.endsWith("; after convert --fix: accepts"), last);
        Cli clang = Cli.run("validate", TestData.sample("bpf/task_trace.bpf.o").toString());
        assertFalse(clang.outText().contains("quirk "), "no gcc quirk lines for clang's BTF");
        assertFalse(clang.outText().contains("kernel: "));
    }

    @Test
    void batchConvertRefusesInputsThatWouldShareAnOutputName() throws Exception {
        Path a = Files.createDirectories(tmp.resolve("a")).resolve("main.o");
        Path b = Files.createDirectories(tmp.resolve("b")).resolve("main.o");
        Files.copy(TestData.sample("gcc/main.o"), a);
        Files.copy(TestData.sample("gcc/queue.o"), b);
        Path out = tmp.resolve("out");
        Cli r = Cli.run("convert", "--fix", "-q", "--out-dir", out.toString(), a.toString(), b.toString());
        assertEquals(2, r.exit, r.toString());
        assertTrue(r.err.startsWith("btfkit: " + out.resolve("main.btf") + ": would be written for both "), r.err);
        assertFalse(Files.exists(out.resolve("main.btf")));
    }

    @Test
    void fixAndAsWrittenExcludeEachOther() {
        Cli r = Cli.run(args(List.of("link", "--fix", "--as-written"), samples(), "-o", "x.btf"));
        assertEquals(2, r.exit);
        assertTrue(r.err.contains("exclude each other"), r.err);
    }
}
