package io.btfkit.corpus.bench;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.text.RawTextPrinter;
import io.btfkit.validate.Validator;
import java.io.OutputStream;
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

/** Steady-state cost of reading, writing, printing and validating the 6.18 vmlinux BTF. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CoreBenchmarks {
    private byte[] raw;
    private Btf btf;

    @Setup
    public void load() {
        raw = Inputs.bytes(Inputs.shared("corpus/vmlinux-6.18.btf"));
        btf = BtfReader.read(raw);
    }

    @Benchmark
    public Btf parseVmlinux() {
        return BtfReader.read(raw);
    }

    @Benchmark
    public byte[] writeVmlinux() {
        return BtfWriter.write(btf);
    }

    @Benchmark
    public void dumpVmlinux() {
        RawTextPrinter.print(btf, OutputStream.nullOutputStream());
    }

    @Benchmark
    public Object validateVmlinux() {
        return Validator.validate(btf);
    }
}
