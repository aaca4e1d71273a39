package io.btfkit.corpus;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.io.FileBytes;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.minimize.CoreProgram;
import io.btfkit.minimize.CoreRelocator;
import io.btfkit.minimize.Minimizer;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Times the phases of {@code minimize --out-dir} per target, in one thread of one JVM, over
 * every raw BTF file of a directory (an archive of {@code corpus/scripts/minimize-archive.sh}):
 * reading the file, parsing it (into reused arrays, as the command does), indexing candidates, resolving and marking, building and
 * encoding. Usage: {@code MinimizeBench DIR PROG.bpf.o... [-Dbtfkit.rounds=3]}; prints the mean
 * milliseconds per target of each phase, one line per round (the first round includes warm-up).
 */
public final class MinimizeBench {
    private MinimizeBench() {
    }

    public static void main(String[] args) throws IOException, BtfException {
        List<Path> kernels;
        try (Stream<Path> s = Files.list(Path.of(args[0]))) {
            kernels = s.filter(p -> p.toString().endsWith(".btf")).sorted().toList();
        }
        List<CoreProgram> programs = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            LoadedInput li = InputLoader.load(Path.of(args[i]), null);
            programs.add(CoreProgram.parse(args[i], li.btf(), li.ext()));
        }
        byte[] buf = new byte[16 << 20];
        BtfReader.Scratch scratch = new BtfReader.Scratch();
        int rounds = Integer.getInteger("btfkit.rounds", 3);
        for (int round = 1; round <= rounds; round++) {
            long[] t = new long[5];
            for (Path k : kernels) {
                long t0 = System.nanoTime();
                int n;
                try (FileChannel ch = FileChannel.open(k)) {
                    n = (int) ch.size();
                    FileBytes.readFully(ch, buf, n);
                }
                long t1 = System.nanoTime();
                Btf target = InputLoader.readOneStandaloneBlob(buf, n, scratch);
                long t2 = System.nanoTime();
                CoreRelocator relocator = new CoreRelocator(target, programs);
                long t3 = System.nanoTime();
                Minimizer m = new Minimizer(target);
                for (CoreProgram p : programs) {
                    m.recordAll(relocator, p);
                }
                long t4 = System.nanoTime();
                byte[] out = BtfWriter.write(m.build());
                long t5 = System.nanoTime();
                t[0] += t1 - t0;
                t[1] += t2 - t1;
                t[2] += t3 - t2;
                t[3] += t4 - t3;
                t[4] += t5 - t4 + (out.length > 0 ? 0 : 1);
            }
            double per = 1e6 * kernels.size();
            System.out.printf("round %d, %d targets, ms per target: read %.2f parse %.2f index %.2f resolve %.2f build %.2f total %.2f%n",
                    round, kernels.size(), t[0] / per, t[1] / per, t[2] / per, t[3] / per, t[4] / per,
                    (t[0] + t[1] + t[2] + t[3] + t[4]) / per);
        }
    }
}
