package io.btfkit.cli;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Runs a few typical commands on the shipped samples in one JVM, so that
 * {@code -XX:ArchiveClassesAtExit} (run at build time) records the classes a short command
 * loads into a class-data-sharing archive the launcher then maps: faster start-up.
 * Usage: {@code CdsTraining SAMPLES_DIR TMP_DIR}.
 */
public final class CdsTraining {
    private CdsTraining() {
    }

    public static void main(String[] args) throws Exception {
        Path samples = Paths.get(args[0]);
        Path tmp = Files.createDirectories(Paths.get(args[1]));
        OutputStream sink = OutputStream.nullOutputStream();
        String bpf = samples.resolve("bpf/task_trace.bpf.o").toString();
        String[][] runs = {
            {"dump", bpf},
            {"dump", bpf, "--format", "json"},
            {"stats", bpf},
            {"validate", "--profile", "structural", bpf},
            {"dedup", bpf, "-o", tmp.resolve("d.btf").toString()},
            {"link", samples.resolve("gcc/job.o").toString(), samples.resolve("gcc/main.o").toString(),
                "-o", tmp.resolve("l.btf").toString()},
            {"convert", samples.resolve("compressed/task_trace.bpf.o.xz").toString(), "-o", tmp.resolve("c.btf").toString()},
        };
        for (String[] r : runs) {
            Main.run(r, sink, sink);
        }
    }
}
