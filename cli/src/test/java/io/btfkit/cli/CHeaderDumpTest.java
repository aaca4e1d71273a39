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

    /**
     * docs/C-HEADER.md, the library's overloads without options and the command agree on the
     * default: current libbpf's output, whose 1- and 8-byte enums keep their size (the 6.18 kernel
     * has 8 such enums); bpftool 7.1's exact output is the option.
     */
    @Test
    void theLibraryTheCommandAndTheDocShareTheDefault() throws Exception {
        Path vmlinux = TestData.vmlinux618();
        Cli byDefault = Cli.run("dump", vmlinux.toString(), "--format", "c");
        java.io.ByteArrayOutputStream lib = new java.io.ByteArrayOutputStream();
        io.btfkit.cheader.CHeaderPrinter.print(io.btfkit.core.io.InputLoader.load(vmlinux, null).btf(), lib);
        assertEquals(lib.toString(java.nio.charset.StandardCharsets.ISO_8859_1),
                new String(byDefault.out, java.nio.charset.StandardCharsets.ISO_8859_1));
        assertEquals(8, byDefault.outText().split("__attribute__\\(\\(mode\\(byte\\)\\)\\)", -1).length - 1);
        assertTrue(!Cli.run("dump", vmlinux.toString(), "--format", "c", "--c-style", "bpftool71").outText().contains("mode(byte)"));
        String doc = Files.readString(TestData.root().resolve("docs/C-HEADER.md"));
        assertTrue(doc.contains("its default output is current libbpf's"), "C-HEADER.md names the default");
        assertTrue(!doc.contains("its default output is **byte-identical to bpftool"), "and no longer calls it bpftool 7.1's");
    }

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
