package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * clang BPF objects leave DATASEC sizes and variable offsets to libbpf's object open: {@code link
 * --fix} fills them in as it does, so the link of the corpus samples is BTF the running kernel
 * loads ({@code bpf(BPF_BTF_LOAD)}, skipped with the reason where this machine does not allow
 * it); plain {@code link} says the kernel will refuse its output; {@code validate} judges a BPF
 * object as libbpf loads it unless {@code --profile kernel} asks for the bytes' verdict.
 */
class BpfObjectLinkTest {
    @TempDir
    Path tmp;

    private static List<String> samples() throws IOException {
        List<String> out = new ArrayList<>();
        try (var s = Files.list(TestData.sample("bpf"))) {
            s.filter(p -> p.getFileName().toString().endsWith(".bpf.o")).sorted().forEach(p -> out.add(p.toString()));
        }
        return out;
    }

    private Cli link(boolean fix, List<String> objects, Path out) {
        List<String> args = new ArrayList<>(List.of("link"));
        if (fix) {
            args.add("--fix");
        }
        args.addAll(objects);
        args.addAll(List.of("-o", out.toString()));
        return Cli.run(args.toArray(new String[0]));
    }

    @Test
    void linkFixOfTheSamplesIsAcceptedByTheKernelRules() throws IOException {
        Path out = tmp.resolve("x.btf");
        Cli r = link(true, samples(), out);
        assertEquals(0, r.exit, r.toString());
        assertEquals("btfkit: link: filled in the DATASEC sizes and variable offsets of 4 BPF objects (13 DATASECs) from"
                + " their ELF tables, as libbpf's object open does\n", r.err);
        Cli v = Cli.run("validate", out.toString());
        assertEquals(0, v.exit, v.outText());
    }

    @Test
    void linkFixOfTheSamplesLoadsIntoTheRunningKernel() throws IOException {
        List<String> all = samples();
        Path out = tmp.resolve("x.btf");
        assertEquals(0, link(true, all, out).exit);
        assertEquals("ok", TestData.kernelVerdict(Files.readAllBytes(out)), "all four");
        for (int i = 0; i + 1 < all.size(); i++) {
            assertEquals(0, link(true, List.of(all.get(i), all.get(i + 1)), out).exit);
            assertEquals("ok", TestData.kernelVerdict(Files.readAllBytes(out)), all.get(i) + " and " + all.get(i + 1));
        }
        // without --fix the kernel refuses it, as the link says
        Cli plain = link(false, all, out);
        assertTrue(plain.err.contains("4 BPF objects (13 DATASECs) leave DATASEC sizes and variable offsets to the loader:"
                + " the kernel rejects the output as it is; --fix fills them in"), plain.err);
        String verdict = TestData.kernelVerdict(Files.readAllBytes(out));
        assertTrue(verdict.startsWith("errno 22: ") && verdict.endsWith("size == 0"), verdict);
    }

    @Test
    void validateJudgesABpfObjectAsLibbpfLoadsIt() {
        String obj = TestData.sample("bpf/net_stats.bpf.o").toString();
        Cli asLoaded = Cli.run("validate", obj);
        assertEquals(0, asLoaded.exit, asLoaded.outText());
        assertEquals("note: judged as libbpf loads it: 4 DATASECs given their ELF section's size and their variables'"
                + " offsets (--profile kernel judges the bytes as they are)\n", asLoaded.outText());
        Cli raw = Cli.run("validate", "--profile", "kernel", obj);
        assertEquals(1, raw.exit);
        assertTrue(raw.outText().startsWith("type [48] DATASEC '.bss': datasec-size broken (size is 0)\n"), raw.outText());
        assertEquals(0, Cli.run("validate", "--profile", "structural", obj).exit);
    }
}
