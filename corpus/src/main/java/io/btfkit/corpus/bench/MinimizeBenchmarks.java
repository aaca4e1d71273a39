package io.btfkit.corpus.bench;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.minimize.CoreProgram;
import io.btfkit.minimize.CoreRelocator;
import io.btfkit.minimize.Minimizer;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The phases of {@code minimize} for one target of a batch (issue 16): reading vmlinux 6.18,
 * indexing its candidates for the three sample objects (and, for comparison, indexing every
 * name), and resolving, marking, building and encoding the minimal BTF. The samples are found
 * under {@code -Dbtfkit.root=DIR} (default {@code .}, the repository).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MinimizeBenchmarks {
    private byte[] raw;
    private Btf target;
    private List<CoreProgram> programs;
    private CoreRelocator relocator;

    @Setup
    public void load() {
        raw = Inputs.bytes(Inputs.shared("corpus/vmlinux-6.18.btf"));
        target = BtfReader.read(raw);
        programs = new ArrayList<>();
        Path samples = Paths.get(System.getProperty("btfkit.root", ".")).resolve("corpus/samples/bpf");
        for (String name : List.of("core_reads.bpf.o", "net_stats.bpf.o", "task_trace.bpf.o")) {
            LoadedInput li = InputLoader.load(samples.resolve(name), null);
            programs.add(CoreProgram.parse(name, li.btf(), li.ext()));
        }
        relocator = new CoreRelocator(target, programs);
    }

    @Benchmark
    public Btf readTarget() {
        return BtfReader.read(raw);
    }

    @Benchmark
    public CoreRelocator indexCandidates() {
        return new CoreRelocator(target, programs);
    }

    @Benchmark
    public CoreRelocator indexEveryName() {
        return new CoreRelocator(target);
    }

    @Benchmark
    public byte[] resolveAndBuild() throws BtfException {
        Minimizer m = new Minimizer(target);
        for (CoreProgram p : programs) {
            m.recordAll(relocator, p);
        }
        return BtfWriter.write(m.build());
    }
}
