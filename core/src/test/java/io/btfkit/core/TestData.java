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

    /**
     * Names (without .btf) of the golden modules; the test is skipped (with the reason) when they
     * are absent, also where this feeds a parameterized test, which would fail on no arguments.
     */
    public static List<String> goldenModules() {
        Path dir = shared().resolve("golden/modules");
        Assumptions.assumeTrue(Files.isDirectory(dir), () -> "skipped: " + dir + " not available");
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".btf"))
                    .map(n -> n.substring(0, n.length() - 4)).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The environment variable that makes every external tool count as missing (any value but
     * empty or {@code 0}), so that a machine with the tools installed can exercise the skip
     * paths a fresh machine takes; {@code .ci/run} runs the tests once more with it set.
     */
    public static final String NO_TOOLS = "BTFKIT_TEST_NO_TOOLS";

    /** Whether {@link #NO_TOOLS} is set. */
    public static boolean toolsDisabled() {
        String v = System.getenv(NO_TOOLS);
        return v != null && !v.isEmpty() && !v.equals("0");
    }

    /**
     * Path of an executable on PATH (or in /usr/sbin, where Debian puts bpftool), or null; null
     * for every tool when {@link #NO_TOOLS} is set. The one place tests ask for a tool.
     */
    public static Path tool(String name) {
        if (toolsDisabled()) {
            return null;
        }
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

    /**
     * Why a tool is unavailable ({@code "bpftool not available: not on PATH"}), or null when it is
     * there. {@code "btfref"} is the libbpf reference helper ({@link #btfref()}).
     */
    public static String whyMissing(String name) {
        if (toolsDisabled()) {
            return name + " not available: " + NO_TOOLS + " is set";
        }
        if (name.equals("btfref")) {
            return btfref() != null ? null
                    : "btfref (libbpf helper) not available: " + root().resolve("target/btfref")
                    + " missing and not buildable (needs gcc, libbpf-dev and " + shared().resolve("tools/btfref") + ")";
        }
        if (name.equals(KERNEL)) {
            return whyNoKernel();
        }
        return tool(name) != null ? null : name + " not available: not on PATH";
    }

    /** A tool's path; the test is skipped with the reason when it is unavailable. */
    public static Path requireTool(String name) {
        String why = whyMissing(name);
        Assumptions.assumeTrue(why == null, "skipped: " + why);
        return name.equals("btfref") ? btfref() : tool(name);
    }

    /**
     * Skips the test when signal {@code number} (2 for SIGINT) is ignored in this process, and so
     * in every child it starts: a non-interactive shell starts background jobs with SIGINT and
     * SIGQUIT ignored, and the JVM then installs no handler for them, so a child could never be
     * interrupted (Linux: the SigIgn mask of /proc/self/status; elsewhere nothing is skipped).
     */
    public static void assumeSignalNotIgnored(int number) {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return;
        }
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("SigIgn:")) {
                    long mask = Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16);
                    Assumptions.assumeTrue((mask & (1L << (number - 1))) == 0,
                            "skipped: signal " + number + " is ignored in this process (started as a background job"
                            + " of a non-interactive shell?), so no child can be interrupted by it");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The tool name of the running kernel's BTF loader ({@link #kernelVerdict}): {@code
     * bpf(BPF_BTF_LOAD)} through the helper {@code core/src/test/c/btfload.c}, built with gcc
     * into {@code target/btfload}; available where it builds and the kernel lets this process
     * load BTF (root or CAP_BPF).
     */
    public static final String KERNEL = "kernel";

    private static volatile Path btfload;
    private static volatile String noKernel;
    private static volatile boolean kernelTried;

    private static synchronized String whyNoKernel() {
        if (!kernelTried) {
            kernelTried = true;
            Path src = root().resolve("core/src/test/c/btfload.c");
            Path out = root().resolve("target").resolve("btfload");
            if (tool("gcc") == null || !Files.exists(src)) {
                noKernel = "kernel BTF loader not available: building " + src + " needs gcc";
            } else {
                try {
                    Files.createDirectories(out.getParent());
                    Process pr = new ProcessBuilder("gcc", "-O2", "-o", out.toString(), src.toString())
                            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                    if (pr.waitFor() != 0 || !Files.isExecutable(out)) {
                        noKernel = "kernel BTF loader not available: gcc could not build " + src;
                    } else {
                        btfload = out;
                        String v = verdict(out, minimalBtf());
                        if (!v.equals("ok")) {
                            noKernel = "kernel BTF loader not available: this kernel refuses BPF_BTF_LOAD of a valid BTF here ("
                                    + v + "; needs root or CAP_BPF)";
                        }
                    }
                } catch (IOException e) {
                    noKernel = "kernel BTF loader not available: " + e.getMessage();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    noKernel = "kernel BTF loader not available: interrupted";
                }
            }
        }
        return toolsDisabled() ? "kernel BTF loader not available: " + NO_TOOLS + " is set" : noKernel;
    }

    /**
     * The running kernel's verdict on {@code blob} as it is ({@code bpf(BPF_BTF_LOAD)}, no
     * rewriting): {@code "ok"}, or {@code "errno N: REASON"} with the last line of the kernel's
     * verifier log. The test is skipped with the reason where the kernel cannot be asked
     * ({@link #KERNEL}).
     */
    public static String kernelVerdict(byte[] blob) {
        String why = whyMissing(KERNEL);
        Assumptions.assumeTrue(why == null, "skipped: " + why);
        return verdict(btfload, blob);
    }

    private static String verdict(Path helper, byte[] blob) {
        try {
            Path f = Files.createTempFile("btfkit-load-", ".btf");
            try {
                Files.write(f, blob);
                Process p = new ProcessBuilder(helper.toString(), f.toString()).redirectError(ProcessBuilder.Redirect.DISCARD)
                        .start();
                String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                int rc = p.waitFor();
                String[] lines = out.split("\n", -1);
                if (rc == 0) {
                    return "ok";
                }
                if (rc != 1 || lines.length < 2) {
                    throw new AssertionError("btfload exited " + rc + ": " + out);
                }
                return lines[0] + ": " + lines[1];
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

    /** {@code [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED}, little-endian classic header. */
    private static byte[] minimalBtf() {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(24 + 16 + 5).order(java.nio.ByteOrder.nativeOrder());
        b.putShort((short) 0xeb9f).put((byte) 1).put((byte) 0).putInt(24).putInt(0).putInt(16).putInt(16).putInt(5);
        b.putInt(1).putInt(1 << 24).putInt(4).putInt((1 << 24) | 32);
        b.put(new byte[] {0, 'i', 'n', 't', 0});
        return b.array();
    }

    private static volatile Path btfref;
    private static volatile boolean btfrefTried;

    /**
     * The libbpf reference helper ({@code shared/tools/btfref}): {@code -Dbtfkit.btfref}, else
     * {@code target/btfref} at the repo root, else built there with the shared build script
     * (needs gcc and libbpf-dev); null when it cannot be had or {@link #NO_TOOLS} is set.
     */
    public static synchronized Path btfref() {
        if (toolsDisabled()) {
            return null;
        }
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
