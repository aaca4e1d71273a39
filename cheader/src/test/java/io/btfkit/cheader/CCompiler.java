package io.btfkit.cheader;

import static org.junit.jupiter.api.Assertions.fail;

import io.btfkit.core.TestData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs gcc or clang with {@code -fsyntax-only} on a C file; tests skip when the compiler is missing. */
record CCompiler(String name, Path tool, List<String> flags) {
    static CCompiler gcc(List<String> flags) {
        return find("gcc", flags);
    }

    /** clang for a target triple such as {@code bpf}, {@code bpfeb} or {@code i386-linux-gnu}. */
    static CCompiler clang(String target) {
        return find("clang", List.of("-target", target));
    }

    private static CCompiler find(String name, List<String> flags) {
        Path tool = TestData.requireTool(name);
        return new CCompiler(name, tool, flags);
    }

    /** Fails the test with the compiler's first complaints unless {@code source} compiles. */
    void assertCompiles(Path source) {
        List<String> cmd = new ArrayList<>();
        cmd.add(tool.toString());
        cmd.addAll(flags);
        cmd.addAll(List.of("-fsyntax-only", "-x", "c", source.toString()));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                fail(cmd + " timed out");
            }
            if (p.exitValue() != 0) {
                String text = new String(out, StandardCharsets.UTF_8);
                StringBuilder errors = new StringBuilder();
                text.lines().filter(l -> l.contains("error")).limit(15).forEach(l -> errors.append(l).append('\n'));
                fail(cmd + " exited " + p.exitValue() + ":\n" + errors);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Override
    public String toString() {
        return name + " " + String.join(" ", flags);
    }
}
