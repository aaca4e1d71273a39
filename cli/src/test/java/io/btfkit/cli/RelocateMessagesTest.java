package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * relocate needs a distilled base besides the new one (--base): when it has none, or is given a
 * full vmlinux as one, it says what is missing in one line, exit 2 — not "give its base with
 * --base", which the command line did give.
 */
class RelocateMessagesTest {
    @TempDir
    static Path tmp;
    static Path oldKernel;
    static Path newKernel;
    static Path module;

    @BeforeAll
    static void files() {
        oldKernel = TestData.golden("vmlinux-6.1.0-56.btf");
        newKernel = TestData.golden("vmlinux-6.1.0-47.btf");
        module = TestData.golden("modules/yurex.btf");
    }

    private static void assertOneLine(Cli r, Path file, String... gists) {
        assertEquals(2, r.exit, r.toString());
        assertEquals(1, r.err.strip().split("\n").length, r.err);
        assertTrue(r.err.startsWith("btfkit: " + file + ": "), r.err);
        for (String g : gists) {
            assertTrue(r.err.contains(g), g + " in " + r.err);
        }
        assertFalse(r.err.contains("give its base with --base"), r.err);
        assertFalse(Files.exists(tmp.resolve("r.btf")), "nothing written");
    }

    @Test
    void aModulesSplitBtfIsToldToDistillFirst() {
        assertOneLine(Cli.run("relocate", module.toString(), "--base", newKernel.toString(), "-o", tmp.resolve("r.btf").toString()),
                module, "is split BTF, and its distilled base is missing", "--dist-base", "yurex.split.btf and yurex.base.btf",
                "btfkit distill " + module + " --base VMLINUX -o yurex.split.btf --base-out yurex.base.btf");
    }

    @Test
    void aDistilledSplitWithoutItsBaseBesideIt() {
        Path split = tmp.resolve("y.split.btf");
        Path base = tmp.resolve("elsewhere.btf");
        assertEquals(0, Cli.run("distill", module.toString(), "--base", oldKernel.toString(), "-o", split.toString(),
                "--base-out", base.toString()).exit);
        assertOneLine(Cli.run("relocate", split.toString(), "--base", newKernel.toString(), "-o", tmp.resolve("r.btf").toString()),
                split, "its distilled base is missing: y.base.btf is not beside it; give it with --dist-base D");
        Cli ok = Cli.run("relocate", split.toString(), "--base", oldKernel.toString(), "--dist-base", base.toString(), "-o",
                tmp.resolve("ok.btf").toString());
        assertEquals(0, ok.exit, ok.toString());
    }

    @Test
    void aFullVmlinuxAsDistilledBaseIsSaidOnce() {
        assertOneLine(Cli.run("relocate", module.toString(), "--base", newKernel.toString(), "--dist-base", oldKernel.toString(), "-o",
                tmp.resolve("r.btf").toString()), oldKernel, "not a distilled base: ", "FUNC_PROTO=", "(--base-out)");
    }
}
