package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Batch mode over the golden modules reproduces libbpf's outputs byte for byte: split dedup,
 * distill, and relocation of the distilled modules onto three kernels — failures included, each
 * naming libbpf's type first (shared/golden/EXPECTED.tsv).
 */
class GoldenBatchTest {
    @TempDir
    Path tmp;

    private static List<String> modules() {
        return TestData.goldenModules();
    }

    private static String[] args(String cmd, List<String> opts, List<Path> inputs) {
        List<String> a = new ArrayList<>();
        a.add(cmd);
        a.addAll(opts);
        inputs.forEach(p -> a.add(p.toString()));
        return a.toArray(new String[0]);
    }

    @Test
    void dedupAndDistillBatchesMatchLibbpf() throws Exception {
        Path base = TestData.golden("vmlinux-6.1.0-56.btf");
        List<Path> ins = new ArrayList<>();
        modules().forEach(m -> ins.add(TestData.golden("modules/" + m + ".btf")));
        Path dd = tmp.resolve("dedup");
        Cli r = Cli.run(args("dedup", List.of("--base", base.toString(), "--out-dir", dd.toString(), "-q"), ins));
        assertEquals(0, r.exit, r.toString());
        assertTrue(r.err.contains(ins.size() + " ok, 0 failed"), r.err);
        Path ds = tmp.resolve("distill");
        r = Cli.run(args("distill", List.of("--base", base.toString(), "--out-dir", ds.toString(), "-q"), ins));
        assertEquals(0, r.exit, r.toString());
        for (String m : modules()) {
            assertArrayEquals(Files.readAllBytes(TestData.golden("dedup/" + m + ".btf")), Files.readAllBytes(dd.resolve(m + ".btf")), m);
            assertArrayEquals(Files.readAllBytes(TestData.golden("distill/" + m + ".split")),
                    Files.readAllBytes(ds.resolve(m + ".split.btf")), m);
            assertArrayEquals(Files.readAllBytes(TestData.golden("distill/" + m + ".base")),
                    Files.readAllBytes(ds.resolve(m + ".base.btf")), m);
        }
        // relocate the batch's own distilled modules (X.split.btf finds X.base.btf beside it)
        List<Path> splits = new ArrayList<>();
        modules().forEach(m -> splits.add(ds.resolve(m + ".split.btf")));
        Map<String, Map<String, String>> expected = expected();
        for (String target : List.of("6.1.0-56", "6.1.0-47", "6.1.0-56-cloud")) {
            Path od = tmp.resolve("onto-" + target);
            r = Cli.run(args("relocate", List.of("--base", TestData.golden("vmlinux-" + target + ".btf").toString(),
                    "--out-dir", od.toString(), "-q"), splits));
            long fails = expected.values().stream().filter(e -> !e.get(target).equals("OK")).count();
            assertEquals(fails == 0 ? 0 : 1, r.exit, r.toString());
            assertTrue(r.err.contains((splits.size() - fails) + " ok, " + fails + " failed"), r.err);
            for (String m : modules()) {
                String want = expected.get(m).get(target);
                Path got = od.resolve(m + ".btf");
                if (want.equals("OK")) {
                    assertArrayEquals(Files.readAllBytes(TestData.golden("relocate/onto-" + target + "/" + m + ".btf")),
                            Files.readAllBytes(got), m + " onto " + target);
                } else {
                    assertFalse(Files.exists(got), m);
                    String type = want.substring("FAIL:".length());
                    String first = r.err.lines().filter(l -> l.contains(m + ".split.btf:   ")).findFirst().orElseThrow();
                    assertTrue(first.contains("'" + type + "'"), first);
                }
            }
        }
    }

    private static Map<String, Map<String, String>> expected() throws Exception {
        Map<String, Map<String, String>> m = new HashMap<>();
        List<String> lines = Files.readAllLines(TestData.golden("EXPECTED.tsv"));
        String[] head = lines.get(0).split("\t");
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t");
            Map<String, String> row = new HashMap<>();
            for (int i = 1; i < f.length; i++) {
                row.put(head[i].substring("onto-".length()), f[i]);
            }
            m.put(f[0], row);
        }
        return m;
    }
}
