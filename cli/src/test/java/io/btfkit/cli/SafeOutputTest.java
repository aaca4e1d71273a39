package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Outputs are all or nothing: a failure while writing, or the process being killed, leaves
 * neither a partial output nor a temporary file behind.
 */
class SafeOutputTest {
    @TempDir
    Path tmp;

    private long filesIn(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    @Test
    void aWriteFailingHalfwayLeavesNothing() throws Exception {
        Path out = tmp.resolve("out.btf");
        FileException e = assertThrows(FileException.class, () -> Outputs.write(out, os -> {
            os.write(new byte[100_000]);
            throw new IOException("disk full (injected)");
        }, List.of(), false));
        assertTrue(e.getMessage().contains("disk full"), e.getMessage());
        assertFalse(Files.exists(out));
        assertEquals(0, filesIn(tmp), "no temporary file left");
    }

    @Test
    void anOutputGetsTheModeOfAPlainWrite() throws Exception {
        Path plain = tmp.resolve("plain");
        Files.write(plain, new byte[] {1});
        Path out = tmp.resolve("out.btf");
        Outputs.write(out, new byte[] {1, 2}, List.of(), false);
        assertArrayEquals(new byte[] {1, 2}, Files.readAllBytes(out));
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(out),
                "0666 less the umask, not a temp file's 0600");
    }

    @Test
    void aFailedWriteKeepsThePreviousOutput() throws Exception {
        Path out = tmp.resolve("out.btf");
        Files.write(out, new byte[] {1, 2, 3});
        assertThrows(FileException.class, () -> Outputs.write(out, os -> {
            os.write(new byte[10]);
            throw new IOException("injected");
        }, List.of(), false));
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(out));
        assertEquals(1, filesIn(tmp));
    }

    @Test
    void killedMidRunLeavesNoPartialOutput() throws Exception {
        Path in = TestData.vmlinux618();
        Path ref = tmp.resolve("ref.json");
        assertEquals(0, Cli.run("dump", in.toString(), "--format", "json", "-o", ref.toString()).exit);
        byte[] want = Files.readAllBytes(ref);
        Path dir = Files.createDirectory(tmp.resolve("runs"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (int round = 0; round < 6; round++) {
            Path out = dir.resolve("out" + round + ".json");
            Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "io.btfkit.cli.Main",
                    "dump", in.toString(), "--format", "json", "-o", out.toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            Thread.sleep(150L + 150L * round);
            p.destroy(); // SIGTERM: the shutdown hook removes the temporary file
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            if (Files.exists(out)) {
                assertArrayEquals(want, Files.readAllBytes(out), "an output that exists is complete");
            }
            try (Stream<Path> s = Files.list(dir)) {
                assertTrue(s.allMatch(f -> f.getFileName().toString().startsWith("out")
                        && !f.getFileName().toString().endsWith(".tmp")), "no temporary file left (round " + round + ")");
            }
        }
    }
}
