package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Running out of heap is a one-line message with exit status 2, not a JVM stack trace: a link
 * in a child JVM with a heap far too small for its inputs (built here: raw BTF of 1M INTs).
 */
class OutOfMemoryTest {
    private static final int TYPES = 1 << 20;

    @TempDir
    Path tmp;

    @Test
    void linkOutOfHeapIsAMessage() throws Exception {
        Path unit = Files.write(tmp.resolve("unit.btf"), ints(TYPES));
        List<String> args = new ArrayList<>(List.of("link"));
        for (int i = 0; i < 3; i++) {
            args.add(Files.copy(unit, tmp.resolve("u" + i + ".btf")).toString());
        }
        args.addAll(List.of("-o", tmp.resolve("out.btf").toString()));
        Result r = runWithHeap("48m", args);
        assertEquals(2, r.exit, r.err);
        assertEquals("btfkit: out of memory linking 3 inputs (heap 48 MB); give more with BTFKIT_JAVA_OPTS=-Xmx256m",
                r.err.strip());
        assertFalse(Files.exists(tmp.resolve("out.btf")), "no output");
    }

    /** In batch mode the input that ran out of heap fails with the message; the run ends with exit 1. */
    @Test
    void batchInputOutOfHeapIsAMessage() throws Exception {
        Path unit = Files.write(tmp.resolve("unit.btf"), ints(TYPES));
        Path b = Files.copy(unit, tmp.resolve("b.btf"));
        Path dir = Files.createDirectory(tmp.resolve("out"));
        Result r = runWithHeap("40m", List.of("dedup", unit.toString(), b.toString(), "--out-dir", dir.toString()));
        assertEquals(1, r.exit, r.err);
        assertTrue(r.err.contains("btfkit: " + unit + ": out of memory in dedup (heap 40 MB); give more with "
                + "BTFKIT_JAVA_OPTS=-Xmx256m"), r.err);
        assertFalse(r.err.contains("\tat "), "no stack trace: " + r.err);
    }

    private record Result(int exit, String err) {
    }

    private static Result runWithHeap(String heap, List<String> args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx" + heap, "-XX:+UseSerialGC", "-cp",
                System.getProperty("java.class.path"), "io.btfkit.cli.Main"));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        byte[] err = p.getErrorStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child JVM ended");
        return new Result(p.exitValue(), new String(err, StandardCharsets.UTF_8));
    }

    /** Raw little-endian BTF of {@code n} INT types named "i". */
    private static byte[] ints(int n) {
        byte[] strings = "\0i\0".getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocate(24 + 16 * n + strings.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) 0xeb9f).put((byte) 1).put((byte) 0).putInt(24);
        b.putInt(0).putInt(16 * n).putInt(16 * n).putInt(strings.length);
        for (int i = 0; i < n; i++) {
            b.putInt(1).putInt(1 << 24).putInt(4).putInt(32); // name "i", kind INT, size 4, 32 bits
        }
        b.put(strings);
        return b.array();
    }
}
