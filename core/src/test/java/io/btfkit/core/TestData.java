package io.btfkit.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/** Locates test inputs: the repo's own samples and the shared corpus beside the checkout. */
public final class TestData {
    private TestData() {
    }

    /** The repository root (from the build, else found by walking up to the parent pom). */
    public static Path root() {
        String p = System.getProperty("btfkit.root");
        if (p != null && !p.isEmpty()) {
            return Paths.get(p);
        }
        Path d = Paths.get("").toAbsolutePath();
        while (d != null && !Files.exists(d.resolve("corpus").resolve("samples"))) {
            d = d.getParent();
        }
        return d == null ? Paths.get("").toAbsolutePath() : d;
    }

    /** {@code ../shared} beside the checkout. */
    public static Path shared() {
        String p = System.getProperty("btfkit.shared");
        if (p != null && !p.isEmpty()) {
            return Paths.get(p);
        }
        return root().resolve("..").resolve("shared").normalize();
    }

    /** A file under the shared directory; the test is skipped (with the reason) when it is absent. */
    public static Path sharedFile(String rel) {
        Path f = shared().resolve(rel);
        Assumptions.assumeTrue(Files.exists(f), "skipped: " + f + " not available");
        return f;
    }

    public static Path sample(String rel) {
        return root().resolve("corpus").resolve("samples").resolve(rel);
    }

    public static byte[] bytes(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Path vmlinux618() {
        return sharedFile("corpus/vmlinux-6.18.btf");
    }

    public static Path golden(String rel) {
        return sharedFile("golden/" + rel);
    }

    /** Names (without .btf) of the golden modules. */
    public static List<String> goldenModules() {
        Path dir = shared().resolve("golden/modules");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".btf"))
                    .map(n -> n.substring(0, n.length() - 4)).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Path of an executable on PATH (or in /usr/sbin, where Debian puts bpftool), or null. */
    public static Path tool(String name) {
        String path = System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin";
        for (String dir : path.split(":")) {
            if (dir.isEmpty()) {
                continue;
            }
            Path f = Paths.get(dir, name);
            if (Files.isExecutable(f)) {
                return f;
            }
        }
        return null;
    }

    private static volatile Path btfref;
    private static volatile boolean btfrefTried;

    /**
     * The libbpf reference helper ({@code shared/tools/btfref}): {@code -Dbtfkit.btfref}, else
     * {@code target/btfref} at the repo root, else built there with the shared build script
     * (needs gcc and libbpf-dev); null when it cannot be had.
     */
    public static synchronized Path btfref() {
        if (btfrefTried) {
            return btfref;
        }
        btfrefTried = true;
        String p = System.getProperty("btfkit.btfref");
        Path candidate = p != null && !p.isEmpty() ? Paths.get(p) : root().resolve("target").resolve("btfref");
        if (!Files.isExecutable(candidate)) {
            Path script = shared().resolve("tools/btfref/build.sh");
            if (Files.exists(script) && tool("gcc") != null && Files.exists(Paths.get("/usr/include/bpf/btf.h"))) {
                try {
                    Files.createDirectories(candidate.getParent());
                    Process pr = new ProcessBuilder("bash", script.toString(), candidate.toString())
                            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                    pr.waitFor();
                } catch (IOException e) {
                    return null;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                }
            }
        }
        btfref = Files.isExecutable(candidate) ? candidate : null;
        return btfref;
    }

    /** Runs a command and returns its stdout; fails the test on a non-zero exit. */
    public static byte[] run(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out = p.getInputStream().readAllBytes();
            int rc = p.waitFor();
            if (rc != 0) {
                throw new AssertionError(cmd + " exited " + rc);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
