package io.btfkit.core.elf;

import io.btfkit.core.TestData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/** Runs readelf and bpftool on ELF bytes for cross-checks; tests skip when a tool is absent. */
final class ElfTools {
    private ElfTools() {
    }

    /** Result of one tool run. */
    record Run(int exit, String out, String err) {
    }

    static Path requireTool(String name) {
        return TestData.requireTool(name);
    }

    static byte[] sampleBytes(String rel) {
        Path p = TestData.sample(rel);
        Assumptions.assumeTrue(Files.exists(p), "skipped: " + p + " not available");
        return TestData.bytes(p);
    }

    /** Runs {@code tool args... FILE} on a temporary copy of {@code elf}. */
    static Run run(byte[] elf, String tool, String... args) {
        Path exe = requireTool(tool);
        try {
            Path f = Files.createTempFile("btfkit-elf", ".o");
            try {
                Files.write(f, elf);
                List<String> cmd = new ArrayList<>();
                cmd.add(exe.toString());
                cmd.addAll(List.of(args));
                cmd.add(f.toString());
                Path errFile = Files.createTempFile("btfkit-elf", ".err");
                try {
                    Process p = new ProcessBuilder(cmd).redirectError(errFile.toFile()).start();
                    byte[] out = p.getInputStream().readAllBytes();
                    int rc = p.waitFor();
                    return new Run(rc, new String(out, StandardCharsets.UTF_8),
                            Files.readString(errFile, StandardCharsets.UTF_8));
                } finally {
                    Files.deleteIfExists(errFile);
                }
            } finally {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Runs {@code check} when {@code tool} is installed: for tool cross-checks inside tests that assert more. */
    static void ifTool(String tool, Runnable check) {
        if (TestData.tool(tool) != null) {
            check.run();
        }
    }

    /**
     * {@code readelf -a -W}, when readelf is installed: asserts exit 0 and nothing on stderr
     * (readelf's warnings go there).
     */
    static void readelfClean(byte[] elf) {
        if (TestData.tool("readelf") == null) {
            return;
        }
        Run r = run(elf, "readelf", "-a", "-W");
        if (r.exit() != 0 || !r.err().isEmpty()) {
            throw new AssertionError("readelf -a exited " + r.exit() + " with stderr:\n" + r.err());
        }
    }

    /** {@code bpftool btf dump file X format raw}: the raw-text dump; asserts exit 0. */
    static String bpftoolDump(byte[] elf) {
        Run r = run(elf, "bpftool", "btf", "dump", "file");
        if (r.exit() != 0) {
            throw new AssertionError("bpftool btf dump exited " + r.exit() + ": " + r.err());
        }
        return r.out();
    }
}
