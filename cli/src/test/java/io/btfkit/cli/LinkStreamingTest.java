package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * A link of raw BTF files streams them into the merge (sized from their headers, read a round
 * at a time); any other input makes it read everything first. Both ways must give the same
 * bytes and the same --map, and a bad input the same error.
 */
class LinkStreamingTest {
    @TempDir
    Path tmp;

    private static final List<String> MODULES = List.of("ocfs2", "gameport", "mlx4_core", "dax_hmem");

    /** {@code file} compressed with xz as {@code name} in the temporary directory. */
    private Path xz(Path file, String name) throws IOException {
        Path xz = tmp.resolve(name);
        try (OutputStream os = new XZOutputStream(Files.newOutputStream(xz), new LZMA2Options())) {
            os.write(Files.readAllBytes(file));
        }
        return xz;
    }

    private Cli link(List<Path> inputs, String out, String map) {
        List<String> args = new ArrayList<>(List.of("link", "-q", "--base",
                TestData.golden("vmlinux-6.1.0-56.btf").toString(), "-o", tmp.resolve(out).toString(),
                "--map", tmp.resolve(map).toString()));
        inputs.forEach(p -> args.add(p.toString()));
        return Cli.run(args.toArray(String[]::new));
    }

    private static List<Path> modules() {
        return MODULES.stream().map(m -> TestData.golden("modules/" + m + ".btf")).toList();
    }

    @Test
    void rawInputsStreamAndGiveWhatReadingThemAllGives() throws IOException {
        List<Path> raw = modules();
        Cli streamed = link(raw, "s.btf", "s.map");
        assertEquals(0, streamed.exit, streamed.toString());
        assertTrue(LinkCommand.lastStreamed, "raw split inputs are streamed");

        // the same link with one input compressed: not streamable, so every input is read first
        Path xz = xz(raw.get(1), "gameport.btf.xz");
        List<Path> mixed = new ArrayList<>(raw);
        mixed.set(1, xz);
        Cli read = link(mixed, "r.btf", "r.map");
        assertEquals(0, read.exit, read.toString());
        assertFalse(LinkCommand.lastStreamed, "a compressed input is read with the others first");

        assertArrayEquals(Files.readAllBytes(tmp.resolve("r.btf")), Files.readAllBytes(tmp.resolve("s.btf")));
        String readMap = Files.readString(tmp.resolve("r.map")).replace(xz.toString(), raw.get(1).toString());
        assertEquals(readMap, Files.readString(tmp.resolve("s.map")));
        io.btfkit.core.Btf base = io.btfkit.core.io.InputLoader.load(TestData.golden("vmlinux-6.1.0-56.btf"), null).btf();
        long types = raw.stream().mapToLong(p -> io.btfkit.core.io.InputLoader.load(p, base).btf().ownTypeCount()).sum();
        assertEquals(types, Files.readString(tmp.resolve("s.map")).lines().count(), "one map line per input type");
    }

    /**
     * Modules stream too: only their {@code .BTF} section is read (at offset 0x40 in these
     * objects), and the link is the link of the same BTF as raw files, --map included.
     */
    @Test
    void modulesStreamFromTheirBtfSectionAndGiveWhatTheirRawBtfGives() throws IOException {
        List<Path> kos = List.of(TestData.sample("ko/roles.ko"), TestData.sample("ko/yurex.ko"));
        Cli elf = link(kos, "e.btf", "e.map");
        assertEquals(0, elf.exit, elf.toString());
        assertTrue(LinkCommand.lastStreamed, "modules are streamed");
        Cli raw = link(List.of(TestData.golden("modules/roles.btf"), TestData.golden("modules/yurex.btf")), "r.btf", "r.map");
        assertEquals(0, raw.exit, raw.toString());
        assertArrayEquals(Files.readAllBytes(tmp.resolve("r.btf")), Files.readAllBytes(tmp.resolve("e.btf")));
        // each read through its section alone (a read that fails falls back to loading the file)
        io.btfkit.core.Btf base = io.btfkit.core.BtfReader.read(TestData.bytes(TestData.golden("vmlinux-6.1.0-56.btf")));
        for (String m : List.of("roles", "yurex")) {
            Path ko = TestData.sample("ko/" + m + ".ko");
            StreamedInputs.Plan plan = StreamedInputs.plan(ko);
            assertTrue(plan != null && plan.elf() && plan.btf().offset() == 0x40, String.valueOf(plan));
            io.btfkit.core.Btf u = StreamedInputs.read(ko, plan, base, new java.util.ArrayDeque<>(),
                    new io.btfkit.core.BtfReader.Scratch());
            io.btfkit.core.Btf want = io.btfkit.core.BtfReader.read(TestData.bytes(TestData.golden("modules/" + m + ".btf")), base);
            assertTrue(u != null, m);
            assertArrayEquals(io.btfkit.core.BtfWriter.write(want), io.btfkit.core.BtfWriter.write(u), m);
        }
        assertEquals(Files.readString(tmp.resolve("r.map")).replace("modules/roles.btf", "ko/roles.ko")
                .replace("modules/yurex.btf", "ko/yurex.ko").replace(TestData.golden("").toString(), ""),
                Files.readString(tmp.resolve("e.map")).replace(TestData.sample("").toString(), ""));
    }

    @Test
    void aTruncatedRawInputIsTheSameErrorStreamedOrNot() throws IOException {
        List<Path> raw = new ArrayList<>(modules());
        byte[] whole = Files.readAllBytes(raw.get(2));
        Path cut = tmp.resolve("cut.btf");
        Files.write(cut, java.util.Arrays.copyOf(whole, whole.length / 2));
        raw.set(2, cut);
        Cli streamed = link(raw, "s.btf", "s.map");
        assertEquals(2, streamed.exit, streamed.toString());
        assertTrue(streamed.err.startsWith("btfkit: " + cut + ": "), streamed.err);
        assertFalse(Files.exists(tmp.resolve("s.btf")), "nothing written");

        Path xz = xz(raw.get(0), "first.btf.xz");
        raw.set(0, xz);
        Cli read = link(raw, "r.btf", "r.map");
        assertFalse(LinkCommand.lastStreamed);
        assertEquals(streamed.err, read.err, "the same message either way");
        assertEquals(2, read.exit);
    }

    /**
     * gcc objects stream too, after a first pass over their {@code .BTF} for what normalising
     * needs from all of them: {@code --fix}'s bytes, its --map through the renumbering and its
     * per-input lines are those of the link that reads every input first (one input compressed),
     * each for the same file. A BPF object among them (its fixup reads its ELF tables) makes
     * the link read every input first.
     */
    @Test
    void gccObjectsStreamAfterASurveyAndGiveWhatReadingThemAllGives() throws IOException {
        List<Path> objects = new ArrayList<>();
        for (String o : List.of("queue.o", "job.o", "worker.o", "main.o")) {
            objects.add(TestData.sample("gcc/" + o));
        }
        Cli streamed = gccLink(objects, "s.btf", "s.map");
        assertEquals(0, streamed.exit, streamed.toString());
        assertTrue(LinkCommand.lastStreamed, "gcc objects are streamed");

        Path xz = xz(objects.get(1), "job.o.xz");
        List<Path> mixed = new ArrayList<>(objects);
        mixed.set(1, xz);
        Cli read = gccLink(mixed, "r.btf", "r.map");
        assertEquals(0, read.exit, read.toString());
        assertFalse(LinkCommand.lastStreamed, "a compressed input is read with the others first");

        assertArrayEquals(Files.readAllBytes(tmp.resolve("r.btf")), Files.readAllBytes(tmp.resolve("s.btf")));
        assertEquals(Files.readString(tmp.resolve("r.map")).replace(xz.toString(), objects.get(1).toString()),
                Files.readString(tmp.resolve("s.map")));
        assertEquals(read.err.replace(xz.toString(), objects.get(1).toString()), streamed.err);
        assertTrue(streamed.err.lines().count() > objects.size(), "a line per input and the summary: " + streamed.err);

        List<Path> withBpf = new ArrayList<>(objects);
        withBpf.add(TestData.sample("bpf/task_trace.bpf.o"));
        Cli bpf = gccLink(withBpf, "b.btf", "b.map");
        assertEquals(0, bpf.exit, bpf.toString());
        assertFalse(LinkCommand.lastStreamed, "a BPF object makes the link read its inputs first");
    }

    /**
     * A gcc object read for the streamed link's merge — whole, through one reused buffer and
     * scratch, keeping its symbol tables only — normalises to what the ordinary read of the same
     * file normalises to (each before the next is read into the same scratch); an object with a
     * {@code .BTF.ext} (a BPF object) is left to the ordinary read.
     */
    @Test
    void anObjectReadThroughReusedBuffersNormalisesAsTheObjectRead() {
        java.util.Queue<byte[]> buffers = new java.util.concurrent.ConcurrentLinkedQueue<>();
        io.btfkit.core.BtfReader.Scratch scratch = new io.btfkit.core.BtfReader.Scratch();
        List<Path> objects = new ArrayList<>();
        for (String o : List.of("worker.o", "queue.o", "main.o", "job.o")) { // (the largest first: the scratch is reused)
            objects.add(TestData.sample("gcc/" + o));
        }
        io.btfkit.gcc.GccNormalizer.Survey survey = new io.btfkit.gcc.GccNormalizer.Survey();
        objects.forEach(p -> survey.add(Inputs.load(p, null, true)));
        io.btfkit.gcc.GccNormalizer.Plan plan = survey.plan();
        int symbolFixes = 0;
        for (Path p : objects) {
            io.btfkit.core.io.LoadedInput streamed = StreamedInputs.readObject(p, StreamedInputs.plan(p), null, buffers,
                    scratch);
            io.btfkit.core.io.LoadedInput read = Inputs.load(p, null, true);
            assertEquals(io.btfkit.core.text.RawTextPrinter.toText(read.units().get(0)),
                    io.btfkit.core.text.RawTextPrinter.toText(streamed.units().get(0)), p.toString());
            var a = io.btfkit.gcc.GccNormalizer.normalize(streamed, plan, io.btfkit.gcc.GccNormalizer.Level.FIX);
            var b = io.btfkit.gcc.GccNormalizer.normalize(read, plan, io.btfkit.gcc.GccNormalizer.Level.FIX);
            assertEquals(io.btfkit.core.text.RawTextPrinter.toText(b.units().get(0).btf()),
                    io.btfkit.core.text.RawTextPrinter.toText(a.units().get(0).btf()), p.toString());
            assertEquals(b.applied().toString(), a.applied().toString(), p + ": the quirks fixed");
            assertEquals(b.kept().toString(), a.kept().toString(), p + ": the quirks kept");
            symbolFixes += a.applied().count(io.btfkit.gcc.GccQuirk.DATASEC_LAYOUT)
                    + a.applied().count(io.btfkit.gcc.GccQuirk.FUNC_LINKAGE) + a.applied().count(io.btfkit.gcc.GccQuirk.EXTERN_FUNC);
        }
        assertTrue(symbolFixes > 0, "fixes that read the objects' symbol tables");
        Path bpf = TestData.sample("bpf/task_trace.bpf.o");
        StreamedInputs.Plan bpfPlan = StreamedInputs.plan(bpf);
        assertTrue(bpfPlan == null || StreamedInputs.readObject(bpf, bpfPlan, null, buffers, scratch) == null);
    }

    private Cli gccLink(List<Path> inputs, String out, String map) {
        List<String> args = new ArrayList<>(List.of("link", "--fix", "-v", "-o", tmp.resolve(out).toString(),
                "--map", tmp.resolve(map).toString()));
        inputs.forEach(p -> args.add(p.toString()));
        return Cli.run(args.toArray(String[]::new));
    }
}
