package io.btfkit.corpus;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.dedup.DedupResult;
import io.btfkit.dedup.Deduplicator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a vmlinux BTF into units, links them in-process and audits the result against the
 * splitter's truth: false merges ({@link LinkAudit}) and missed proofs ({@link ProofAudit};
 * {@code -Dbtfkit.noProofAudit=true} skips that audit). Usage: {@code LinkBench VMLINUX UNITS [SEED] [FWD_P] [OUT]}; prints counts
 * and timings as key=value. {@code -Dbtfkit.split.roots=reference} splits like issue 15's
 * reference split ({@link CuSplitter.Roots#REFERENCE}).
 */
public final class LinkBench {
    private LinkBench() {
    }

    public static void main(String[] args) throws IOException {
        Btf src = BtfReader.read(Files.readAllBytes(Paths.get(args[0])));
        int units = Integer.parseInt(args[1]);
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
        double p = args.length > 3 ? Double.parseDouble(args[3]) : 0.5;
        long t0 = System.nanoTime();
        CuSplitter.Roots mode = CuSplitter.Roots.parse(System.getProperty("btfkit.split.roots", "every"));
        List<CuSplitter.Unit> split = new CuSplitter(src, units, seed, p, mode).split();
        List<Btf> inputs = new ArrayList<>();
        long types = 0;
        for (CuSplitter.Unit u : split) {
            inputs.add(u.btf());
            types += u.btf().ownTypeCount();
        }
        int repeat = Integer.getInteger("btfkit.repeat", 1);
        for (int i = 1; i < repeat; i++) {
            long a = System.nanoTime();
            Deduplicator.link(inputs, null, Deduplicator.Options.LINK);
            System.out.printf("warm-up link %d: %.3f s%n", i, (System.nanoTime() - a) / 1e9);
        }
        long t1 = System.nanoTime();
        DedupResult r = Deduplicator.link(inputs, null, Deduplicator.Options.LINK);
        long t2 = System.nanoTime();
        LinkAudit.Report rep = LinkAudit.audit(src, split, r);
        System.out.printf("units=%d input_types=%d output_types=%d false_merges=%d rounds=%d split_s=%.3f link_s=%.3f%n",
                units, types, rep.outputTypes(), rep.falseMerges(), r.rounds(), (t1 - t0) / 1e9, (t2 - t1) / 1e9);
        int[] twoTags = LinkAudit.definedAndDeclared(split);
        System.out.printf("units defining and declaring one name: %d (%d names)%n", twoTags[0], twoTags[1]);
        if (rep.example() != null) {
            System.out.println("example: " + rep.example());
        }
        if (!Boolean.getBoolean("btfkit.noProofAudit")) {
            ProofAudit.Report proofs = ProofAudit.audit(src, split, r);
            System.out.println("proofs: " + proofs);
            if (proofs.example() != null) {
                System.out.println("missed proof: " + proofs.example());
            }
        }
        if (args.length > 4) {
            Files.write(Paths.get(args[4]), BtfWriter.write(r.btf()));
        }
    }
}
