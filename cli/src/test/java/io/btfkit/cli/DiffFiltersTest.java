package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code diff --kind, --name, --with-base} on real kernels and a module distilled and relocated back. */
class DiffFiltersTest {
    @TempDir
    Path tmp;

    @Test
    void kindAndNameNarrowTheReport() {
        Path a = TestData.golden("vmlinux-6.1.0-47.btf");
        Path b = TestData.golden("vmlinux-6.1.0-56.btf");
        Cli r = Cli.run("diff", a.toString(), b.toString(), "--kind", "struct,union", "--name", "device*");
        assertEquals(1, r.exit, r.toString());
        assertTrue(r.outText().startsWith("2 changed, 0 removed, 0 added\n\n~ struct device: size 744 -> 752\n"), r.outText());
        Cli none = Cli.run("diff", a.toString(), b.toString(), "--name", "no_such_type_*");
        assertEquals(0, none.exit, "nothing left to report: no difference");
        assertEquals("0 changed, 0 removed, 0 added\n", none.outText());
        Cli bad = Cli.run("diff", a.toString(), b.toString(), "--kind", "strct");
        assertEquals(2, bad.exit);
        assertTrue(bad.err.startsWith("btfkit: --kind 'strct' is not a BTF kind (did you mean 'struct'?)"), bad.err);
    }

    /** distill copies 17 base typedefs into yurex's split; relocated back onto its vmlinux, with the base they are no change. */
    @Test
    void withBaseTypesMovedByDistillAreNoChange() {
        Path vmlinux = TestData.golden("vmlinux-6.1.0-56.btf");
        Path module = TestData.golden("modules/yurex.btf");
        Path split = tmp.resolve("y.split.btf");
        Path relocated = tmp.resolve("y.btf");
        assertEquals(0, Cli.run("distill", module.toString(), "--base", vmlinux.toString(), "-o", split.toString(),
                "--base-out", tmp.resolve("y.base.btf").toString()).exit);
        assertEquals(0, Cli.run("relocate", split.toString(), "--base", vmlinux.toString(), "-o", relocated.toString()).exit);
        String[] args = {"diff", module.toString(), relocated.toString(), "--base-a", vmlinux.toString(), "--base-b", vmlinux.toString()};
        Cli own = Cli.run(args);
        assertEquals(1, own.exit);
        assertTrue(own.outText().startsWith("0 changed, 0 removed, 17 added\n\n+ typedef "), own.outText());
        Cli all = Cli.run(concat(args, "--with-base"));
        assertEquals(0, all.exit, all.outText());
        assertEquals("0 changed, 0 removed, 0 added\n", all.outText());
    }

    private static String[] concat(String[] a, String b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + 1);
        out[a.length] = b;
        return out;
    }
}
