package io.btfkit.corpus.bench;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.corpus.CuSplitter;
import io.btfkit.dedup.BaseIndex;
import io.btfkit.dedup.Deduplicator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Dedup of the 6.18 vmlinux, split dedup of a module, and link of a per-CU split. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g", "-Xss16m"})
public class DedupBenchmarks {
    @Param({"300"})
    public int units;

    private Btf vmlinux;
    private BaseIndex base61;
    private Btf ocfs2;
    private List<Btf> split;

    @Setup
    public void load() {
        vmlinux = BtfReader.read(Inputs.bytes(Inputs.shared("corpus/vmlinux-6.18.btf")));
        Btf b = BtfReader.read(Inputs.bytes(Inputs.shared("golden/vmlinux-6.1.0-56.btf")));
        base61 = BaseIndex.of(b);
        ocfs2 = BtfReader.read(Inputs.bytes(Inputs.shared("golden/modules/ocfs2.btf")), b);
        split = new ArrayList<>();
        for (CuSplitter.Unit u : new CuSplitter(vmlinux, units, 1, 0.5).split()) {
            split.add(u.btf());
        }
    }

    @Benchmark
    public Object dedupVmlinux() {
        return Deduplicator.dedup(vmlinux);
    }

    @Benchmark
    public Object splitDedupModule() {
        return Deduplicator.dedup(ocfs2, base61);
    }

    @Benchmark
    public Object indexBase() {
        return BaseIndex.of(base61.base());
    }

    @Benchmark
    public Object linkUnits() {
        return Deduplicator.link(split, null, Deduplicator.Options.LINK);
    }
}
