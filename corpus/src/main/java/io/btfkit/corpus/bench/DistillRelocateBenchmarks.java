package io.btfkit.corpus.bench;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.distill.Distiller;
import io.btfkit.relocate.NewBaseIndex;
import io.btfkit.relocate.Relocator;
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

/**
 * Distill of one Debian 6.1 module on its vmlinux, relocation of the distilled module back onto
 * that vmlinux (the base index built once, as a batch does), and building that index.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "-Xss16m"})
public class DistillRelocateBenchmarks {
    /** Golden modules: a large one with many base references and a small one. */
    @Param({"ocfs2", "gameport"})
    public String module;

    private Btf vmlinux;
    private Btf split;
    private Btf distilledSplit;
    private NewBaseIndex newBase;

    @Setup
    public void load() {
        vmlinux = BtfReader.read(Inputs.bytes(Inputs.shared("golden/vmlinux-6.1.0-56.btf")));
        split = BtfReader.read(Inputs.bytes(Inputs.shared("golden/modules/" + module + ".btf")), vmlinux);
        distilledSplit = Distiller.distill(split).newSplit();
        newBase = NewBaseIndex.of(vmlinux);
    }

    @Benchmark
    public Object distillModule() {
        return Distiller.distill(split);
    }

    @Benchmark
    public Object relocateModule() {
        return Relocator.relocate(distilledSplit, newBase);
    }

    @Benchmark
    public Object indexNewBase() {
        return NewBaseIndex.of(vmlinux);
    }
}
