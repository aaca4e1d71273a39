package io.btfkit.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.TestData;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.minimize.CoreRelocator;
import io.btfkit.minimize.ReloResult;
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

    static Stream<Path> targets() {
        return Stream.of(TestData.vmlinux618(), TestData.golden("vmlinux-6.1.0-47.btf"), TestData.golden("vmlinux-6.1.0-56.btf"),
                TestData.golden("vmlinux-6.1.0-56-cloud.btf"));
    }

    static Stream<Arguments> cases() {
        return Stream.of("task_trace.bpf.o", "net_stats.bpf.o", "core_reads.bpf.o")
                .flatMap(prog -> targets().map(t -> Arguments.of(prog, t)));
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("cases")
    void sameValuesAsLibbpf(String prog, Path target) throws IOException {
        compare(TestData.sample("bpf/" + prog), target);
    }

    /**
     * clang 14 cannot emit TYPE_MATCHES: core_reads.bpf.o's type_exists records are turned into
     * type_matches ones (kind 8 → 12 in .BTF.ext: libbpf checks the instruction's immediate
     * against the local value, which is 1 for both kinds; pid_t matches, task_struct does
     * not: clang names its 64-bit int 'unsigned long long', the kernel's BTF 'long long unsigned int'), and libbpf asked about that object.
     */
    @ParameterizedTest(name = "type_matches on {0}")
    @MethodSource("targets")
    void typeMatchesAsLibbpf(Path target, @org.junit.jupiter.api.io.TempDir Path tmp) throws IOException {
        Path object = withTypeMatches(tmp);
        String out = compare(object, target);
        assertTrue(out.contains("relo #9 insn #25 = 1"), out); // pid_t matches

    }

    /** core_reads.bpf.o with its three type_exists records turned into type_matches ones, written in {@code dir}. */
    static Path withTypeMatches(Path dir) throws IOException {
        String prog = "core_reads.bpf.o";
        byte[] bytes = Files.readAllBytes(TestData.sample("bpf/" + prog));
        io.btfkit.core.ext.BtfExtInfo info = InputLoader.load(TestData.sample("bpf/" + prog), null).ext().coreRelo();
        int patched = 0;
        for (int r = 0; r < info.recordCount(); r++) {
            io.btfkit.core.ext.BtfExtInfo.CoreRelo c = info.coreRelo(r);
            if (c.kind() != io.btfkit.minimize.ReloKind.TYPE_EXISTS.ordinal()) {
                continue;
            }
            java.nio.ByteBuffer want = java.nio.ByteBuffer.allocate(16).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                    .putInt(c.insnOff()).putInt(c.typeId()).putInt(c.accessStrOff()).putInt(c.kind());
            int at = indexOf(bytes, want.array());
            assertTrue(at >= 0 && indexOf(java.util.Arrays.copyOfRange(bytes, at + 1, bytes.length), want.array()) < 0);
            bytes[at + 12] = (byte) io.btfkit.minimize.ReloKind.TYPE_MATCHES.ordinal();
            patched++;
        }
        assertEquals(3, patched);
        Path object = dir.resolve("core_matches.bpf.o");
        Files.write(object, bytes);
        return object;
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** Compares btfkit with libbpf on one object and target; returns btfkit's outcomes. */
    private static String compare(Path object, Path target) throws IOException {
        Assumptions.assumeTrue(Files.exists(target), "skipped: " + target + " missing");
        Path oracle = harness();
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
        return btfkit.toString();
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

    static synchronized Path harness() throws IOException {
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
