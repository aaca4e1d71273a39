package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.btfkit.core.TestData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code btfkit dump} prints exactly what {@code bpftool btf dump file F format raw} prints:
 * compared live with bpftool when it is installed, and always with the SHA-256 of bpftool 7.1's
 * output recorded in the test resources.
 */
class DumpMatchesBpftoolTest {
    private static final Map<String, String> RECORDED = recorded();

    private static Map<String, String> recorded() {
        Map<String, String> m = new HashMap<>();
        try (InputStream in = DumpMatchesBpftoolTest.class.getResourceAsStream("bpftool-raw-dumps.sha256")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.startsWith("#") && !line.isBlank()) {
                    String[] f = line.split("\t");
                    m.put(f[1], f[0]);
                }
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return m;
    }

    private static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private static void check(String rel, String... baseArgs) {
        Path file = TestData.sharedFile(rel);
        String[] args = Stream.concat(Stream.of("dump", file.toString()), Stream.of(baseArgs)).toArray(String[]::new);
        Cli r = Cli.run(args);
        assertEquals(0, r.exit, r.toString());
        assertEquals(RECORDED.get(rel), sha256(r.out), "digest of bpftool 7.1's dump of " + rel);
        Path bpftool = TestData.tool("bpftool");
        if (bpftool != null) {
            List<String> cmd = new java.util.ArrayList<>(List.of(bpftool.toString()));
            if (baseArgs.length > 0) {
                cmd.addAll(List.of("-B", baseArgs[1]));
            }
            cmd.addAll(List.of("btf", "dump", "file", file.toString(), "format", "raw"));
            assertArrayEquals(TestData.run(cmd), r.out, "live bpftool output");
        }
    }

    @Test
    void vmlinux618() {
        check("corpus/vmlinux-6.18.btf");
    }

    static Stream<String> modules() {
        return TestData.goldenModules().stream();
    }

    @ParameterizedTest
    @MethodSource("modules")
    void goldenModuleOnItsBase(String module) {
        check("golden/modules/" + module + ".btf", "--base", TestData.golden("vmlinux-6.1.0-56.btf").toString());
    }
}
