package io.btfkit.cli;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Runs a few typical commands on the shipped samples in one JVM, so that
 * {@code -XX:DumpLoadedClassList} (run at build time) records the classes a short command
 * loads for a class-data-sharing archive the launcher then maps: faster start-up.
 * Usage: {@code CdsTraining SAMPLES_DIR TMP_DIR [core]}.
 *
 * <p>With {@code core}, only {@code dedup} and {@code link} run: their own, smaller archive.
 * The JVM keeps every page of the archive it maps (17.0's Debian build relocates it at every
 * start), so the archive's size is in every command's peak memory: the archive of all commands
 * (2,500 classes, 20 MB) cost a vmlinux dedup 67 MB, the core one (12 MB) 60 MB, at the same
 * speed. The launchers map the core archive for those two commands (docs/BENCHMARKS.md).
 */
public final class CdsTraining {
    private CdsTraining() {
    }

    public static void main(String[] args) throws Exception {
        Path samples = Paths.get(args[0]);
        Path tmp = Files.createDirectories(Paths.get(args[1]));
        OutputStream sink = OutputStream.nullOutputStream();
        String bpf = samples.resolve("bpf/task_trace.bpf.o").toString();
        String gcc = samples.resolve("gcc").toString();
        String coreReads = samples.resolve("bpf/core_reads.bpf.o").toString();
        String xz = samples.resolve("compressed/task_trace.bpf.o.xz").toString();
        // a base and split BTF on it, as a kernel and a module are
        String base = tmp.resolve("base.btf").toString();
        String split = tmp.resolve("split.btf").toString();
        String[][] runs = {
            {"dump", bpf},
            {"dump", bpf, "--format", "json"},
            {"stats", bpf},
            {"validate", "--profile", "structural", bpf},
            {"dedup", bpf, "-o", tmp.resolve("d.btf").toString()},
            {"link", samples.resolve("gcc/job.o").toString(), samples.resolve("gcc/main.o").toString(),
                "-o", tmp.resolve("l.btf").toString()},
            {"convert", samples.resolve("compressed/task_trace.bpf.o.xz").toString(), "-o", tmp.resolve("c.btf").toString()},
            {"link", "-q", gcc + "/job.o", gcc + "/queue.o", "-o", base},
            {"link", "-q", "--base", base, gcc + "/main.o", gcc + "/worker.o", "-o", split},
            {"validate", "--base", base, split},
            {"dump", "--base", base, split},
            {"dedup", "--base", base, split, "-o", tmp.resolve("sd.btf").toString()},
            {"distill", "--base", base, split, "--base-out", tmp.resolve("dist.base.btf").toString(),
                "-o", tmp.resolve("dist.split.btf").toString()},
            {"relocate", "--base", base, "--dist-base", tmp.resolve("dist.base.btf").toString(),
                tmp.resolve("dist.split.btf").toString(), "-o", tmp.resolve("rel.btf").toString()},
            // CO-RE: one object's BTF stands in for a kernel's (it holds task_struct and the rest)
            {"core-check", coreReads, "--btf", bpf},
            {"minimize", bpf, "-o", tmp.resolve("min.btf").toString(), coreReads},
            {"minimize", "-q", "--out-dir", tmp.resolve("min").toString(), xz, coreReads},
            // a raw standalone target takes the batch's own reading path (reused arrays, candidate probe)
            {"minimize", "-q", "--out-dir", tmp.resolve("min-raw").toString(), base, tmp.resolve("d.btf").toString(), bpf},
        };
        // command lines picocli parses (QuickArgs leaves help, usage errors and argument groups to
        // it): its classes belong in the archive too
        String[][] picocliRuns = {
            {"--version"},
            {"dump", "--help"},
            {"dedup", bpf},
            {"permute", "--sort", "name", bpf, "-o", tmp.resolve("p.btf").toString()},
        };
        String[][] streamedLinks = {
            // the streamed merge of a link (raw and ELF inputs that need no gcc normalising)
            {"link", "-q", bpf, coreReads, "-o", tmp.resolve("sl.btf").toString()},
            // an output that exists already (its mode is kept)
            {"dedup", bpf, "-o", tmp.resolve("d.btf").toString()},
        };
        boolean core = args.length > 2 && args[2].equals("core");
        for (String[][] list : new String[][][] {picocliRuns, runs, streamedLinks}) {
            for (String[] r : list) {
                if (!core || r[0].equals("dedup") || r[0].equals("link")) {
                    Main.run(r, sink, sink);
                }
            }
        }
    }
}
