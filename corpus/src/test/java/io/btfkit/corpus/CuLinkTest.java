package io.btfkit.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.RequiresTools;
import io.btfkit.core.TestData;
import io.btfkit.core.TypeRefs;
import io.btfkit.validate.Validator;
import io.btfkit.dedup.DedupResult;
import io.btfkit.dedup.Deduplicator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Link of a per-compilation-unit split of the real 6.18 vmlinux (the CI-sized version of the
 * 300/3,000-unit benchmark): no output type stands for a different source type than one of its
 * inputs, the output validates, and every type btfkit keeps beyond libbpf's count is explained
 * by a declaration whose name has several definitions (where libbpf guesses).
 */
class CuLinkTest {
    private static final int UNITS = 24;

    /** The 24-unit split of vmlinux 6.18 and btfkit's link of it, made once for the tests that read it. */
    private record Linked(Btf vmlinux, List<Btf> inputs, List<CuSplitter.Unit> units, DedupResult result) {
    }

    private static Linked linked;

    private static synchronized Linked linked() {
        if (linked == null) {
            Btf vmlinux = BtfReader.read(TestData.bytes(TestData.vmlinux618()));
            List<CuSplitter.Unit> units = new CuSplitter(vmlinux, UNITS, 7, 0.5).split();
            List<Btf> inputs = new ArrayList<>();
            units.forEach(u -> inputs.add(u.btf()));
            linked = new Linked(vmlinux, inputs, units, Deduplicator.link(inputs, null, Deduplicator.Options.LINK));
        }
        return linked;
    }

    @AfterAll
    static void forgetLinked() {
        linked = null;
    }

    @Test
    void linkOfUnitsHasNoFalseMergeAndNoUnexplainedExtra() {
        Linked l = linked();
        DedupResult r = l.result();
        LinkAudit.Report rep = LinkAudit.audit(l.vmlinux(), l.units(), r);
        assertEquals(0, rep.falseMerges(), rep.example());
        ProofAudit.Report proofs = ProofAudit.audit(l.vmlinux(), l.units(), r);
        System.err.println("CuLinkTest: " + proofs);
        assertEquals(0, proofs.missed(), proofs.example());
        assertTrue(Validator.validate(r.btf(), Validator.Options.STRUCTURAL).isEmpty());
        int ambiguousDependents = dependentsOfAmbiguousDeclarations(r.btf());
        assertTrue(r.btf().ownTypeCount() <= l.vmlinux().ownTypeCount() + ambiguousDependents + countDeclarations(r.btf()),
                "output " + r.btf().ownTypeCount() + " vs vmlinux " + l.vmlinux().ownTypeCount());
    }

    /**
     * The same link against libbpf's ({@code btfref dedup} of the same units): btfkit keeps no
     * more types than libbpf beyond the dependents of ambiguous declarations.
     */
    @Test
    @RequiresTools("btfref")
    void linkOfUnitsKeepsNoMoreThanLibbpfBeyondAmbiguousDeclarations() throws Exception {
        Linked l = linked();
        DedupResult r = l.result();
        Btf libbpf = libbpfLink(TestData.requireTool("btfref"), l.inputs());
        System.err.printf("CuLinkTest: %d units, %d input types: btfkit %d types, libbpf %d, vmlinux %d%n", UNITS,
                l.inputs().stream().mapToInt(Btf::ownTypeCount).sum(), r.btf().ownTypeCount(), libbpf.ownTypeCount(),
                l.vmlinux().ownTypeCount());
        assertTrue(r.btf().ownTypeCount() <= libbpf.ownTypeCount() + dependentsOfAmbiguousDeclarations(r.btf()),
                "btfkit keeps " + r.btf().ownTypeCount() + " types, libbpf " + libbpf.ownTypeCount()
                + ": more than ambiguous declarations explain");
    }

    /** libbpf's link of {@code inputs} ({@code btfref dedup} of one file per unit). */
    private static Btf libbpfLink(Path btfref, List<Btf> inputs) throws IOException {
        Path dir = Files.createTempDirectory("btfkit-units-");
        try {
            List<String> cmd = new ArrayList<>(List.of(btfref.toString(), "dedup", "-o", dir.resolve("out.btf").toString()));
            for (int i = 0; i < inputs.size(); i++) {
                Path f = dir.resolve(String.format("u%03d.btf", i));
                Files.write(f, BtfWriter.write(inputs.get(i)));
                cmd.add(f.toString());
            }
            TestData.run(cmd);
            return BtfReader.read(Files.readAllBytes(dir.resolve("out.btf")));
        } finally {
            try (var s = Files.list(dir)) {
                for (Path p : s.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
        }
    }

    /**
     * A split like issue 15's reference split (functions, named types and orphans as roots,
     * random named roots added to every unit, so functions sit in several units; a unit may
     * define one struct and declare another of its name): no false merge, no missed proof.
     */
    @Test
    void referenceSplitLinksWithoutFalseMergeOrMissedProof() {
        Btf vmlinux = BtfReader.read(TestData.bytes(TestData.vmlinux618()));
        List<CuSplitter.Unit> units = new CuSplitter(vmlinux, UNITS, 2, 0.3, CuSplitter.Roots.REFERENCE).split();
        List<Btf> inputs = new ArrayList<>();
        units.forEach(u -> inputs.add(u.btf()));
        DedupResult r = Deduplicator.link(inputs, null, Deduplicator.Options.LINK);
        LinkAudit.Report rep = LinkAudit.audit(vmlinux, units, r);
        assertEquals(0, rep.falseMerges(), rep.example());
        ProofAudit.Report proofs = ProofAudit.audit(vmlinux, units, r);
        int[] twoTags = LinkAudit.definedAndDeclared(units);
        System.err.println("CuLinkTest reference split: " + r.btf().ownTypeCount() + " types, " + twoTags[0]
                + " units defining and declaring one name; " + proofs);
        assertEquals(0, proofs.missed(), proofs.example());
        assertTrue(Validator.validate(r.btf(), Validator.Options.STRUCTURAL).isEmpty());
    }

    /**
     * On the reference split, every type btfkit keeps beyond libbpf's link of the same units
     * reaches a declaration btfkit kept, and no such declaration has evidence: no named type of
     * its unit that another unit holds with a full type at the declaration's place
     * ({@link LibbpfExcess}; libbpf resolves them by its one pick per name).
     */
    @Test
    void referenceSplitKeepsBeyondLibbpfOnlyWhatNoInputProves() throws Exception {
        Path btfref = TestData.requireTool("btfref");
        Btf vmlinux = BtfReader.read(TestData.bytes(TestData.vmlinux618()));
        List<CuSplitter.Unit> units = new CuSplitter(vmlinux, UNITS, 2, 0.3, CuSplitter.Roots.REFERENCE).split();
        List<Btf> inputs = new ArrayList<>();
        units.forEach(u -> inputs.add(u.btf()));
        DedupResult r = Deduplicator.link(inputs, null, Deduplicator.Options.LINK);
        Btf libbpf = libbpfLink(btfref, inputs);
        LibbpfExcess.Report rep = LibbpfExcess.analyse(vmlinux, units, r, libbpf);
        System.err.println("CuLinkTest reference split against libbpf: " + rep);
        assertEquals(0, rep.unexplained(), String.join("\n", rep.details()));
        assertEquals(0, rep.withEvidence(), String.join("\n", rep.details()));
        assertTrue(rep.btfkitTypes() == rep.libbpfTypes() || rep.keptDeclarations() > 0, rep.toString());
    }

    /**
     * Partitioning in parts (one thread each, sharing one class table; what reaches another
     * part's type classified at the end) gives the bytes of partitioning everything at once —
     * every time: the threads race for the table's locks and column chunks differently in each
     * run (a race at a chunk boundary once lost a class's key position), so the two-part links
     * are repeated.
     */
    @Test
    void partsDoNotChangeTheResult() {
        Btf vmlinux = BtfReader.read(TestData.bytes(TestData.vmlinux618()));
        List<CuSplitter.Unit> units = new CuSplitter(vmlinux, 12, 11, 0.5).split();
        List<Btf> inputs = new ArrayList<>();
        units.forEach(u -> inputs.add(u.btf()));
        byte[] whole = null;
        try {
            for (int parts : new int[] {1, 2, 5, 2, 3, 2, 2, 4, 2}) {
                System.setProperty("btfkit.dedup.parts", Integer.toString(parts));
                DedupResult r = Deduplicator.link(inputs, null, Deduplicator.Options.LINK);
                byte[] out = BtfWriter.write(r.btf());
                if (whole == null) {
                    whole = out;
                } else {
                    assertTrue(java.util.Arrays.equals(whole, out), parts + " parts give other bytes than one");
                }
            }
        } finally {
            System.clearProperty("btfkit.dedup.parts");
        }
    }

    private static int countDeclarations(Btf b) {
        int n = 0;
        for (int id = 1; id < b.typeCount(); id++) {
            if (b.kind(id) == Kind.FWD) {
                n++;
            }
        }
        return n;
    }

    /** Types that reach (through references) a FWD whose name several full types carry. */
    static int dependentsOfAmbiguousDeclarations(Btf b) {
        Map<String, Integer> definitions = new HashMap<>();
        for (int id = 1; id < b.typeCount(); id++) {
            if (Kind.isComposite(b.kind(id)) && !b.name(id).isEmpty()) {
                definitions.merge(b.name(id), 1, Integer::sum);
            }
        }
        int n = b.typeCount();
        List<List<Integer>> users = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            users.add(new ArrayList<>());
        }
        for (int id = 1; id < n; id++) {
            int[] w = b.words();
            int s = b.startOf(id);
            int from = id;
            TypeRefs.forEachTypeIdSlot(w, s, slot -> users.get(w[slot]).add(from));
        }
        boolean[] marked = new boolean[n];
        java.util.ArrayDeque<Integer> work = new java.util.ArrayDeque<>();
        for (int id = 1; id < n; id++) {
            if (b.kind(id) == Kind.FWD && definitions.getOrDefault(b.name(id), 0) >= 2) {
                marked[id] = true;
                work.add(id);
            }
        }
        int count = 0;
        while (!work.isEmpty()) {
            int id = work.poll();
            count++;
            for (int u : users.get(id)) {
                if (!marked[u]) {
                    marked[u] = true;
                    work.add(u);
                }
            }
        }
        return count;
    }
}
