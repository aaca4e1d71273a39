package io.btfkit.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import io.btfkit.core.io.InputLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * libbpf as the oracle of CO-RE resolution ({@link LibbpfCore}): libbpf loads each sample BPF
 * object with a kernel BTF as its custom BTF and logs every relocation's outcome, whether or not
 * the kernel then accepts the program. btfkit's values, poisoned instructions and target specs
 * must be the same, relocation by relocation. Skipped with a message without gcc or the libbpf
 * headers.
 */
class CoreOracleTest {

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
        assertTrue(out.contains("kprobe/do_fork relo #9 = 1 @ "), out); // pid_t matches

    }

    /** core_reads.bpf.o with its three type_exists records turned into type_matches ones, written in {@code dir}. */
    static Path withTypeMatches(Path dir) throws IOException {
        return withTypeMatches(TestData.sample("bpf/core_reads.bpf.o"), dir.resolve("core_matches.bpf.o"), 3);
    }

    /**
     * {@code object} with its {@code expected} type_exists records turned into type_matches ones
     * (clang 14 emits no type_matches), written to {@code out}.
     */
    static Path withTypeMatches(Path object, Path out, int expected) throws IOException {
        byte[] bytes = Files.readAllBytes(object);
        io.btfkit.core.ext.BtfExtInfo info = InputLoader.load(object, null).ext().coreRelo();
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
        assertEquals(expected, patched);
        Files.write(out, bytes);
        return out;
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
        String log = LibbpfCore.log(object, target);
        assertTrue(log.contains("core_oracle: load"), log);
        List<LibbpfCore.Outcome> libbpf = LibbpfCore.outcomes(log);
        List<LibbpfCore.Outcome> btfkit = LibbpfCore.btfkit(object, InputLoader.load(target, null).btf());
        assertTrue(!btfkit.isEmpty());
        assertEquals(libbpf, btfkit, log);
        return btfkit.toString();
    }
}
