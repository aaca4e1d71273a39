package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.TestData;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * Issue 23's hostile shapes through whole commands, each input built here: every run ends with
 * the right exit status and a bounded, one-line-per-problem report — no partial output with
 * exit 0. (The modules' own tests hold the details: minimize's CoreHostileTest, diff's
 * BtfDiffHostileTest, core's ConcatenatedBlobsTest, relocate's RelocatorTest.)
 */
class HostileShapesTest {
    @TempDir
    Path tmp;

    private Path write(String name, Btf btf) throws Exception {
        Path p = tmp.resolve(name);
        Files.write(p, BtfWriter.write(btf));
        return p;
    }

    private Path xz(String name, byte[] data) throws Exception {
        Path p = tmp.resolve(name);
        try (OutputStream os = new XZOutputStream(Files.newOutputStream(p), new LZMA2Options(6))) {
            os.write(data);
        }
        return p;
    }

    private static Cli run(Object... args) {
        return Cli.run(java.util.Arrays.stream(args).map(Object::toString).toArray(String[]::new));
    }

    /** The longest line of a text. */
    private static int longest(String text) {
        int m = 0;
        for (String l : text.split("\n", -1)) {
            m = Math.max(m, l.length());
        }
        return m;
    }

    /** 1: task_struct over 4 anonymous members of the next level, 16 levels: 4^16 paths, searched once each. */
    @Test
    void coreCheckOfNestedAnonymousMembers() throws Exception {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int inner = b.addStruct(null, 4);
        b.addMember("nothing", i, 0, 0);
        for (int level = 0; level <= 16; level++) {
            int next = b.addStruct(level == 16 ? "task_struct" : null, 16);
            for (int m = 0; m < 4; m++) {
                b.addMember(null, inner, 32 * m, 0);
            }
            inner = next;
        }
        Path target = write("nested.btf", b.build());
        Cli c = run("core-check", TestData.sample("bpf/core_reads.bpf.o"), "--btf", target);
        assertEquals(3, c.exit, c.toString()); // nothing fails, some instructions are poisoned
        assertTrue(c.outText().contains("byte_off struct task_struct.pid (0:0) -> no match: instruction poisoned"), c.outText());
        Cli m = run("minimize", target, "-o", tmp.resolve("min.btf"), TestData.sample("bpf/core_reads.bpf.o"));
        assertEquals(0, m.exit, m.toString());
    }

    /** 4: prototypes returning and taking pointers to the previous level, 30,000 deep: refused, naming the file. */
    @Test
    void diffOfSpellingsBoundedPerSideNamesTheFile() throws Exception {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int prev = i;
        for (int level = 0; level < 30_000; level++) {
            int proto = b.addFuncProto(prev);
            b.addParam(null, prev);
            b.addParam(null, prev);
            prev = b.addPtr(proto);
        }
        int f = b.addFuncProto(i);
        b.addParam("x", prev);
        b.addFunc("f", f, Kind.LINKAGE_GLOBAL);
        Path big = write("b.btf", b.build());
        BtfBuilder e = new BtfBuilder();
        e.addInt("int", 4, Kind.INT_SIGNED);
        Path small = write("a.btf", e.build());
        Cli c = run("diff", small, big);
        assertEquals(1, c.exit, c.toString());
        assertTrue(c.err.startsWith("btfkit: " + big + ": spelling its types takes more than 134217728 characters"), c.err);
        assertEquals(0, c.out.length, "nothing printed");
    }

    /** 3: 5,000 structs over one shared tree whose 4,096 leaf paths all moved: refused before printing. */
    @Test
    void diffOfSharedAnonymousSubtreesBoundedPerRun() throws Exception {
        Path a = write("a.btf", shared(5000, 0));
        Path b = write("b.btf", shared(5000, 8));
        Cli c = run("diff", a, b, "--json");
        assertEquals(1, c.exit, c.toString());
        assertTrue(c.err.matches("btfkit: " + java.util.regex.Pattern.quote(a.toString()) + ": diff against "
                + java.util.regex.Pattern.quote(b.toString()) + ": the report would take more than 64 MiB \\([0-9]+ changes so far\\);"
                + " nothing was printed\n"), c.err);
        assertEquals(0, c.out.length);
    }

    private static Btf shared(int n, int leafAt) {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int inner = b.addStruct(null, 4);
        b.addMember("leaf", i, leafAt, 0);
        for (int level = 0; level < 3; level++) {
            int next = b.addStruct(null, 4);
            for (int m = 0; m < 16; m++) {
                b.addMember(null, inner, 0, 0);
            }
            inner = next;
        }
        for (int k = 0; k < n; k++) {
            b.addStruct("s" + k, 4);
            b.addMember(null, inner, 0, 0);
        }
        return b.build();
    }

    /** 5: a small xz of a million empty 25-byte blobs: refused by every command before any blob is read. */
    @Test
    void aFloodOfEmptyBlobsIsRefused() throws Exception {
        byte[] one = {(byte) 0x9f, (byte) 0xeb, 1, 0, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0};
        byte[] all = new byte[one.length * 1_000_000];
        for (int k = 0; k < 1_000_000; k++) {
            System.arraycopy(one, 0, all, k * one.length, one.length);
        }
        Path flood = xz("flood.btf.xz", all);
        assertTrue(Files.size(flood) < 16 << 10, Files.size(flood) + " bytes");
        for (List<Object> cmd : List.<List<Object>>of(List.of("validate", flood), List.of("stats", flood),
                List.of("link", flood, "-o", tmp.resolve("l.btf")), List.of("dedup", flood, "-o", tmp.resolve("d.btf")))) {
            Cli c = run(cmd.toArray());
            assertEquals(2, c.exit, cmd + ": " + c);
            assertEquals("btfkit: " + flood + ": more than 65536 BTF blobs back to back (blob 65537 at offset 1638400); one input"
                    + " may hold at most 65536 units\n", c.err, cmd.toString());
        }
        assertFalse(Files.exists(tmp.resolve("l.btf")));
    }

    /** 6: a struct, its members and a typedef sharing one 4 MiB name, with findings: every line quotes it cut. */
    @Test
    void oneHugeNameIsCutWhereverMessagesQuoteIt() throws Exception {
        String name = "n".repeat(4 << 20);
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        b.addStruct(name, 4);
        b.addMember(name, i, 0, 0);
        b.addMember(name, i, 64, 0); // past the size: a finding naming struct and member
        b.addTypedef(name, i);
        Path in = write("huge.btf", b.build());
        String cut = "n".repeat(256) + "\u2026(4194304 bytes)";
        Cli v = run("validate", in);
        assertEquals(1, v.exit, v.toString());
        assertTrue(v.outText().contains("type [2] STRUCT '" + cut + "': member-size broken (member 1 '" + cut + "' of 4 bytes"),
                v.outText().substring(0, 400));
        assertTrue(longest(v.outText()) < 2048, longest(v.outText()) + " characters");
        for (List<Object> cmd : List.<List<Object>>of(List.of("dedup", in, "-o", tmp.resolve("d.btf")),
                List.of("link", in, "-o", tmp.resolve("l.btf")), List.of("convert", in, "-o", tmp.resolve("c.btf")),
                List.of("permute", in, "--sort", "name", "-o", tmp.resolve("p.btf")),
                List.of("core-check", TestData.sample("bpf/core_reads.bpf.o"), "--btf", in))) {
            Cli c = run(cmd.toArray());
            assertTrue(c.exit <= 1 || c.exit == 3, cmd + ": " + c.exit); // core-check: 3, poisoned instructions
            assertTrue(longest(c.err) < 2048, cmd + ": a line of " + longest(c.err) + " characters");
            assertTrue(c.out.length < 1 << 20, cmd + ": " + c.out.length + " bytes printed");
        }
        Cli d = run("dedup", in, "-o", tmp.resolve("d.btf"));
        assertTrue(d.err.contains("warning: output carries the input's type [2] STRUCT '" + cut + "'"), d.err);
    }

    /** 7: 60,000 ambiguous distilled types: one line each up to 100, then a count. */
    @Test
    void relocateAmbiguityListsAreCapped() throws Exception {
        BtfBuilder d = new BtfBuilder();
        BtfBuilder n = new BtfBuilder();
        for (int k = 0; k < 60_000; k++) {
            d.addStruct("s", 4);
            n.addStruct("s", 4);
        }
        Btf dist = d.build();
        BtfBuilder s = new BtfBuilder(dist);
        s.addPtr(1);
        Path distFile = write("d.base.btf", dist);
        Path split = write("d.split.btf", s.build());
        Path newBase = write("new.btf", n.build());
        Cli c = run("relocate", split, "--dist-base", distFile, "--base", newBase, "-o", tmp.resolve("r.btf"));
        assertEquals(1, c.exit, c.toString());
        String[] lines = c.err.split("\n");
        assertEquals(102, lines.length, c.err.substring(0, 300));
        assertEquals("btfkit: " + split + ": cannot relocate: 60000 types have no match in the new base", lines[0]);
        assertEquals("btfkit: " + split + ":   and 59900 more", lines[101]);
        assertFalse(Files.exists(tmp.resolve("r.btf")));
    }

    /** {@code copies} times {@code n} distinct two-type cycles, {@code struct nI { struct nI *p; }}. */
    private static Btf cycles(int n, int copies) {
        BtfBuilder b = new BtfBuilder();
        for (int c = 0; c < copies; c++) {
            for (int i = 0; i < n; i++) {
                int s = b.addStruct("n" + i, 8);
                b.addMember("p", s + 1, 0, 0);
                b.addPtr(s);
            }
        }
        return b.build();
    }

    private static long allocatedBytes() {
        com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (long a : t.getThreadAllocatedBytes(t.getAllThreadIds())) {
            sum += Math.max(a, 0);
        }
        return sum;
    }

    /**
     * 8: a link of two inputs of many distinct cycles costs what a dedup of the same types in
     * one input costs — the same bytes, and memory linear in the types: each new cyclic
     * component once allocated a copy of its members, two hash maps and six arrays (714 bytes a
     * type in all here, 255 now; a link of 2 x 1,000,000 such cycles took 1.4 GB), now reused.
     */
    @Test
    void aLinkOfManyCyclesCostsWhatTheirDedupCosts() throws Exception {
        int n = 100_000;
        Path f = write("F.btf", cycles(n, 1));
        Path ff = write("FF.btf", cycles(n, 2));
        long before = allocatedBytes();
        Cli link = run("link", f, f, "-o", tmp.resolve("link.btf"));
        long perType = (allocatedBytes() - before) / (4L * n);
        assertEquals(0, link.exit, link.toString());
        Cli dedup = run("dedup", ff, "-o", tmp.resolve("dedup.btf"));
        assertEquals(0, dedup.exit, dedup.toString());
        assertTrue(java.util.Arrays.equals(Files.readAllBytes(tmp.resolve("link.btf")),
                Files.readAllBytes(tmp.resolve("dedup.btf"))), "link F F and dedup F+F give the same bytes");
        assertTrue(perType < 450, "the link allocated " + perType + " bytes a type");
    }
}
