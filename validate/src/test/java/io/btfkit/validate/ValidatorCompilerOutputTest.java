package io.btfkit.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * BTF that gcc ({@code -gbtf}) and clang ({@code -target bpf}) write into object files is
 * structurally valid, so {@link Validator#checkOutput} lets a link/dedup of such objects
 * through; the kernel profile reports only what libbpf fixes up at load time or what the
 * kernel refuses in compiler output (gcc 12's SIGNED|CHAR char, anonymous FUNCs, packed
 * doubles). Skipped when the compilers or llvm-objcopy are missing.
 */
class ValidatorCompilerOutputTest {
    private static final String SOURCE = """
            enum e { EA = -1, EB = 5 };
            struct __attribute__((packed)) pk { char c; double d; int i; long long q:33; };
            struct bf { _Bool b:1; enum e ev:3; char ch:2; unsigned long long big:60; int tail[]; };
            struct empty { };
            union un { struct { int a, b; }; long long l; float f; };
            typedef int (*cb_t)(struct bf *);
            struct ops { cb_t cb; void (*fn)(void); const volatile unsigned short *cvp; struct ops *next; char name[0]; };
            #if __clang__
            #define __user __attribute__((btf_type_tag("user")))
            #define __tag __attribute__((btf_decl_tag("tag")))
            struct tagged { int __user *p __tag; } __tag;
            int __tag tagged_fn(int __user *x __tag) { return *x; }
            struct tagged tg;
            #endif
            extern int CONFIG_HZ __attribute__((section(".kconfig")));
            extern int bpf_kfunc(int x) __attribute__((section(".ksyms")));
            extern int ext_var;
            struct pk gpk; struct bf gbf; struct empty ge; union un gu; struct ops gops;
            static int counter = 3; char str[] = "hello";
            int use(struct bf *b) { static int calls; calls++; return b->b + gpk.c + CONFIG_HZ + bpf_kfunc(1) + ext_var + counter; }
            """;

    /** What the kernel refuses in object-file BTF, and nothing else. */
    private static final Set<String> LOAD_TIME_POLICIES = Set.of("func-linkage", "var-linkage", "datasec-size",
            "datasec-layout", "datasec-entry", "func-param-name", "name-missing", "int-encoding", "float-alignment");

    @TempDir
    Path dir;

    private Btf compile(String compiler, List<String> flags) throws IOException {
        Path cc = TestData.requireTool(compiler);
        Path objcopy = TestData.requireTool("llvm-objcopy");
        Path src = dir.resolve("objects.c");
        Files.writeString(src, SOURCE);
        Path obj = dir.resolve(compiler + ".o");
        List<String> cmd = new ArrayList<>(List.of(cc.toString()));
        cmd.addAll(flags);
        cmd.addAll(List.of("-O2", "-c", src.toString(), "-o", obj.toString()));
        TestData.run(cmd);
        Path btf = dir.resolve(compiler + ".btf");
        TestData.run(List.of(objcopy.toString(), "--dump-section", ".BTF=" + btf, obj.toString()));
        return BtfReader.read(Files.readAllBytes(btf));
    }

    private static void assertObjectBtf(Btf btf) {
        assertEquals(List.of(), Validator.validate(btf, Validator.Options.STRUCTURAL));
        Validator.checkOutput(btf);
        List<Finding> kernel = Validator.validate(btf, Validator.Options.ALL);
        assertFalse(kernel.isEmpty(), "object files are not loadable as they are");
        for (Finding f : kernel) {
            assertTrue(LOAD_TIME_POLICIES.contains(f.rule()), f::toString);
        }
    }

    @Test
    void gccObjectBtfIsStructurallyValid() throws IOException {
        assertObjectBtf(compile("gcc", List.of("-gbtf")));
    }

    @Test
    void clangBpfObjectBtfIsStructurallyValid() throws IOException {
        assertObjectBtf(compile("clang", List.of("-target", "bpf", "-g")));
    }
}
