package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dump --format c}: the header of the real vmlinux compiles with gcc and clang (BPF target). */
class CHeaderDumpTest {
    @TempDir
    Path tmp;

    @Test
    void vmlinuxHeaderCompiles() throws Exception {
        Path h = tmp.resolve("vmlinux.h");
        Cli r = Cli.run("dump", TestData.vmlinux618().toString(), "--format", "c", "-o", h.toString());
        assertEquals(0, r.exit, r.toString());
        assertTrue(Files.readString(h).contains("struct task_struct {"));
        Path c = tmp.resolve("t.c");
        Files.writeString(c, "#include \"vmlinux.h\"\n_Static_assert(sizeof(struct list_head) == 16, \"layout\");\n");
        boolean any = false;
        if (TestData.tool("gcc") != null) {
            TestData.run(List.of("gcc", "-fsyntax-only", c.toString()));
            any = true;
        }
        if (TestData.tool("clang") != null) {
            TestData.run(List.of("clang", "-target", "bpf", "-fsyntax-only", c.toString()));
            any = true;
        }
        Assumptions.assumeTrue(any, () -> "skipped: no C compiler to check the header with (" + TestData.whyMissing("gcc") + ")");
    }
}
