package io.btfkit.corpus.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Where benchmarks find their inputs: {@code -Dbtfkit.shared=DIR} (default {@code ../shared}). */
final class Inputs {
    private Inputs() {
    }

    static Path shared(String rel) {
        Path p = Paths.get(System.getProperty("btfkit.shared", "../shared")).resolve(rel);
        if (!Files.exists(p)) {
            throw new IllegalStateException(p + " not found; set -Dbtfkit.shared=/path/to/shared");
        }
        return p;
    }

    static byte[] bytes(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
