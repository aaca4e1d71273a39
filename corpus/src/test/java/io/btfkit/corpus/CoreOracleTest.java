package io.btfkit.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.TestData;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.core.relo.CoreRelocator;
import io.btfkit.core.relo.ReloResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * libbpf as the oracle of CO-RE resolution: a small C harness (src/test/c/core_oracle.c, built
 * here with gcc -lbpf) opens each sample BPF object with {@code btf_custom_path} set to a kernel
 * BTF and loads it with libbpf's debug log on; every relocation's outcome is in that log
 * ("patched insn #K ... imm A -> B" or "substituting insn #K w/ invalid insn") whether or not
 * the kernel then accepts the program. btfkit's values must be the same, relocation by
 * relocation. Skipped with a message without gcc or the libbpf headers.
 */
class CoreOracleTest {
    private static final Pattern PATCHED = Pattern.compile("relo #(\\d+): patched insn #(\\d+) \\([^)]*\\) (?:imm|imm64|off) -?\\d+ -> (-?\\d+)");
    private static final Pattern POISONED = Pattern.compile("relo #(\\d+): substituting insn #(\\d+) w/ invalid insn");
    private static Path harness;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String prog : List.of("task_trace.bpf.o", "net_stats.bpf.o", "core_reads.bpf.o")) {
            out.add(Arguments.of(prog, TestData.vmlinux618()));
            for (String g : List.of("vmlinux-6.1.0-47.btf", "vmlinux-6.1.0-56.btf", "vmlinux-6.1.0-56-cloud.btf")) {
                out.add(Arguments.of(prog, TestData.golden(g)));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("cases")
    void sameValuesAsLibbpf(String prog, Path target) throws IOException {
        Assumptions.assumeTrue(Files.exists(target), "skipped: " + target + " missing");
        Path oracle = harness();
        Path object = TestData.sample("bpf/" + prog);
        String log = new String(TestData.run(List.of(oracle.toString(), object.toString(), target.toString())),
                StandardCharsets.UTF_8);
        assertTrue(log.contains("core_oracle: load"), log);
        List<String> libbpf = libbpfOutcomes(log);

        LoadedInput in = InputLoader.load(object, null);
        Btf local = in.btf();
        Btf kernel = InputLoader.load(target, null).btf();
        List<String> btfkit = new ArrayList<>();
        for (ReloResult r : new CoreRelocator(kernel).resolveAll(local, in.ext())) {
            String v = switch (r.status()) {
                case POISONED -> "poison";
                case ERROR -> "error";
                default -> Long.toString(r.value());
            };
            btfkit.add("relo #" + r.relo().index() + " insn #" + r.relo().insnIndex() + " = " + v);
        }
        btfkit.sort(null);
        assertTrue(!btfkit.isEmpty());
        assertEquals(libbpf, btfkit, log);
    }

    /** One line per relocation, sorted ("relo #N insn #K = V"; libbpf numbers relocations per program). */
    static List<String> libbpfOutcomes(String log) {
        List<String> out = new ArrayList<>();
        Map<String, String> poisoned = new TreeMap<>();
        for (String line : log.split("\n")) {
            Matcher m = PATCHED.matcher(line);
            if (m.find()) {
                out.add("relo #" + m.group(1) + " insn #" + m.group(2) + " = " + Long.parseUnsignedLong(m.group(3)));
                continue;
            }
            m = POISONED.matcher(line);
            if (m.find()) {
                // an ldimm64 is poisoned in both halves, the second first: keep the lower index
                String key = line.substring(0, m.start()) + m.group(1);
                int insn = Integer.parseInt(m.group(2));
                String prev = poisoned.get(key);
                if (prev == null || insn < Integer.parseInt(prev.replaceAll(".*insn #(\\d+).*", "$1"))) {
                    poisoned.put(key, "relo #" + m.group(1) + " insn #" + insn + " = poison");
                }
            }
        }
        out.addAll(poisoned.values());
        out.sort(null);
        return out;
    }

    private static synchronized Path harness() throws IOException {
        if (harness != null) {
            return harness;
        }
        Path gcc = TestData.requireTool("gcc");
        Assumptions.assumeTrue(Files.exists(Path.of("/usr/include/bpf/libbpf.h")), "skipped: libbpf-dev headers missing");
        Path src = TestData.root().resolve("corpus/src/test/c/core_oracle.c");
        Path bin = TestData.root().resolve("corpus/target/core_oracle");
        Files.createDirectories(bin.getParent());
        try {
            Process p = new ProcessBuilder(gcc.toString(), "-O1", "-o", bin.toString(), src.toString(), "-lbpf")
                    .redirectErrorStream(true).start();
            String msg = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Assumptions.assumeTrue(p.waitFor() == 0, "skipped: cannot build the libbpf harness: " + msg);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        harness = bin;
        return bin;
    }
}
