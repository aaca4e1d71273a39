package io.btfkit.relocate;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.TestData;
import io.btfkit.distill.Distiller;
import java.util.ArrayList;
import java.util.List;

/**
 * In-process timing of distill and relocate over the golden modules (warm JVM, no JMH). Not a
 * test (surefire does not pick it up): run it by hand with {@code java}, as shown in
 * docs/DISTILL-RELOCATE.md. Prints per-phase totals for each round (indexing the three bases,
 * distilling the 30 modules, relocating them onto the three bases, outputs encoded to bytes);
 * with {@code -Dverbose=true} also every relocation problem of the first round.
 */
public final class GoldenTiming {
    private GoldenTiming() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        boolean verbose = Boolean.getBoolean("verbose");
        List<String> modules = TestData.goldenModules();
        Btf vmlinux = BtfReader.read(TestData.bytes(TestData.golden("vmlinux-6.1.0-56.btf")));
        String[] targets = {"6.1.0-56", "6.1.0-47", "6.1.0-56-cloud"};
        Btf[] bases = new Btf[targets.length];
        for (int t = 0; t < targets.length; t++) {
            bases[t] = BtfReader.read(TestData.bytes(TestData.golden("vmlinux-" + targets[t] + ".btf")));
        }
        List<Btf> splits = new ArrayList<>();
        for (String m : modules) {
            splits.add(BtfReader.read(TestData.bytes(TestData.golden("modules/" + m + ".btf")), vmlinux));
        }
        for (int round = 0; round < rounds; round++) {
            long t0 = System.nanoTime();
            NewBaseIndex[] idx = new NewBaseIndex[bases.length];
            for (int t = 0; t < bases.length; t++) {
                idx[t] = NewBaseIndex.of(bases[t]);
            }
            long t1 = System.nanoTime();
            List<Btf> distilled = new ArrayList<>();
            long bytes = 0;
            for (Btf s : splits) {
                Distiller.Result r = Distiller.distill(s);
                distilled.add(r.newSplit());
                bytes += BtfWriter.write(r.newSplit()).length + BtfWriter.write(r.distilledBase()).length;
            }
            long t2 = System.nanoTime();
            int ok = 0;
            int failed = 0;
            for (int t = 0; t < bases.length; t++) {
                for (int i = 0; i < distilled.size(); i++) {
                    try {
                        bytes += BtfWriter.write(Relocator.relocate(distilled.get(i), idx[t])).length;
                        ok++;
                    } catch (RelocationException e) {
                        failed++;
                        if (verbose && round == 0) {
                            System.out.println(modules.get(i) + " onto " + targets[t] + ":");
                            e.problems().forEach(p -> System.out.println("  " + p.message()));
                        }
                    }
                }
            }
            long t3 = System.nanoTime();
            System.out.printf("round %d: index 3 bases %.1f ms; distill %d modules %.2f ms; relocate %d (%d ok, %d failed) %.2f ms;"
                    + " %d bytes written%n", round, (t1 - t0) / 1e6, splits.size(), (t2 - t1) / 1e6, ok + failed, ok, failed,
                    (t3 - t2) / 1e6, bytes);
        }
    }
}
