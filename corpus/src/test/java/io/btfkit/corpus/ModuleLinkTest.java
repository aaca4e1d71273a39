package io.btfkit.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.TestData;
import io.btfkit.core.io.InputLoader;
import io.btfkit.dedup.BaseIndex;
import io.btfkit.dedup.DedupResult;
import io.btfkit.dedup.Deduplicator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Links of modules on their vmlinux (split output, {@code link --base}): no module type maps to
 * an output type that does not describe it ({@link UnitLinkAudit}, each module its own truth),
 * and the declarations the context rule resolves in whole inputs (DEDUP.md rule 2) are the ones
 * every use of which is proven. The 30 golden modules run always (none has such a
 * declaration); every module of a Debian kernel runs when {@code BTFKIT_DEBIAN_KERNEL} names
 * the output of {@code corpus/scripts/fetch-debian-kernel.sh} (6.1.0-56: 4,023 modules).
 */
class ModuleLinkTest {

    @Test
    void goldenModulesLinkWithoutAWrongMapping() {
        Path vmlinux = TestData.golden("vmlinux-6.1.0-56.btf");
        List<Path> modules = new ArrayList<>();
        for (String m : TestData.goldenModules()) {
            modules.add(TestData.golden("modules/" + m + ".btf"));
        }
        Result r = link(vmlinux, modules);
        assertEquals(0, r.audit.falseMerges(), r.audit.example());
        assertTrue(r.resolved.isEmpty(), "no golden module holds a declaration of a name defined twice: " + r.resolved);
    }

    @Test
    void debianModulesLinkWithoutAWrongMapping() throws IOException {
        String env = System.getenv("BTFKIT_DEBIAN_KERNEL");
        Assumptions.assumeTrue(env != null && !env.isEmpty(),
                "skipped: set BTFKIT_DEBIAN_KERNEL to the output of corpus/scripts/fetch-debian-kernel.sh");
        Path dir = Paths.get(env);
        List<Path> modules;
        try (Stream<Path> s = Files.list(dir.resolve("modules"))) {
            modules = s.filter(p -> p.getFileName().toString().endsWith(".ko")).sorted().toList();
        }
        Result r = link(dir.resolve("vmlinux.btf"), modules);
        System.out.printf("modules: %d, output types: %,d, declarations of names defined twice resolved: %s%n",
                modules.size(), r.audit.outputTypes(), r.resolved);
        assertEquals(0, r.audit.falseMerges(), r.audit.example());
        if (modules.size() == 4023) {
            // Debian 6.1.0-56 (DEDUP.md): the 12 names of issue 25 libbpf also resolves, and
            // kvmgt's opregion tables; never ath.ko's 'ath_bus_ops' (ath5k's and ath9k's differ)
            java.util.Set<String> names = new java.util.TreeSet<>();
            r.resolved.keySet().forEach(k -> names.add(k.substring(k.indexOf(':') + 1)));
            assertEquals(java.util.Set.of("ccp_device", "cmd_ctrl_node", "devcmd2_controller", "intel_gmbus", "l2t_data",
                    "l2t_entry", "opregion_acpi", "opregion_asle", "opregion_swsci", "qrtr_node", "ring_desc", "rx_desc",
                    "rx_sw_desc", "tx_desc", "tx_sw_desc"), names);
            assertEquals(23, r.resolved.size(), r.resolved::toString);
            assertEquals(Integer.valueOf(32), r.resolved.get("chcr.ko:l2t_data"), "cxgb4's, not cxgb3's 48 bytes");
        }
    }

    private record Result(LinkAudit.Report audit, TreeMap<String, Integer> resolved) {
    }

    /**
     * Links the modules as {@code btfkit link --base} does and audits the output; also names the
     * module declarations that became a definition of a name whose definitions differ in size or
     * member count (only the context rule resolves those), each with the size it became.
     */
    private static Result link(Path vmlinux, List<Path> modules) {
        Btf base = InputLoader.load(vmlinux, null).btf();
        List<Btf> units = new ArrayList<>();
        for (Path m : modules) {
            units.add(InputLoader.load(m, base).btf());
        }
        DedupResult r = Deduplicator.link(units, BaseIndex.of(base), Deduplicator.Options.LINK);
        Btf out = r.btf();
        // names whose definitions differ in size or member count: surely two definitions
        java.util.Map<String, java.util.Set<Long>> shapes = new java.util.HashMap<>();
        for (int id = 1; id < out.typeCount(); id++) {
            if (Kind.isComposite(out.kind(id)) && out.nameOff(id) != 0) {
                shapes.computeIfAbsent(out.name(id), x -> new java.util.HashSet<>())
                        .add(((long) out.sizeOrType(id) << 16) | out.vlen(id));
            }
        }
        TreeMap<String, Integer> resolved = new TreeMap<>();
        for (int k = 0; k < units.size(); k++) {
            Btf u = units.get(k);
            for (int id = u.firstId(); id < u.typeCount(); id++) {
                int o = r.outputId(k, id, u.firstId());
                if (u.kind(id) == Kind.FWD && out.kind(o) != Kind.FWD && shapes.getOrDefault(u.name(id), java.util.Set.of()).size() > 1) {
                    resolved.put(modules.get(k).getFileName() + ":" + u.name(id), out.sizeOrType(o));
                }
            }
        }
        return new Result(UnitLinkAudit.audit(units, r), resolved);
    }
}
