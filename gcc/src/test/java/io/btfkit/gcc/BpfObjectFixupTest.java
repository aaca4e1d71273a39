package io.btfkit.gcc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.BtfWriter;
import io.btfkit.core.TestData;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.core.text.RawTextPrinter;
import io.btfkit.validate.Validator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * libbpf's object open on clang BPF objects: the committed samples, and where clang is there an
 * object with statics, hidden and zero-initialised globals; each compared byte for byte with
 * the BTF libbpf's {@code bpf_object__open_file} leaves ({@code gcc/src/test/c/bpfopen.c}, built
 * against libbpf-dev; skipped with the reason where it cannot be built).
 */
class BpfObjectFixupTest {
    @TempDir
    static Path dir;

    /** Statics, a hidden global, zero-initialised ones: every case of btf_fixup_datasec. */
    private static final String VARS_C = """
            static volatile int a1 = 1;
            static volatile long a2 = 2;
            int g1 = 3;
            __attribute__((visibility("hidden"))) int hid = 4;
            static volatile int z1;
            static volatile long z2;
            int gz;
            const volatile int ro = 5;
            int f(void) { return a1 + a2 + g1 + hid + z1 + z2 + gz + ro; }
            """;

    /** Configuration values and kernel symbols: the extern sections libbpf lays out. */
    private static final String EXTERNS_C = """
            #define __kconfig __attribute__((section(".kconfig")))
            #define __ksym __attribute__((section(".ksyms")))
            #define __weak __attribute__((weak))
            enum libbpf_tristate { TRI_NO = 0, TRI_YES = 1, TRI_MODULE = 2 };
            struct task_struct;
            extern unsigned int LINUX_KERNEL_VERSION __kconfig;
            extern _Bool CONFIG_BPF_SYSCALL __kconfig __weak;
            extern char CONFIG_LOCALVERSION[16] __kconfig __weak;
            extern unsigned long long CONFIG_HZ __kconfig __weak;
            extern enum libbpf_tristate CONFIG_BPF_JIT __kconfig __weak;
            extern const int bpf_prog_active __ksym;
            extern struct task_struct *bpf_task_acquire(struct task_struct *) __ksym;
            extern void bpf_task_release(struct task_struct *p) __ksym;
            int counter;
            int f(struct task_struct *t) {
                struct task_struct *a = bpf_task_acquire(t);
                if (a)
                    bpf_task_release(a);
                return LINUX_KERNEL_VERSION + CONFIG_BPF_SYSCALL + CONFIG_LOCALVERSION[0] + (int) CONFIG_HZ
                        + CONFIG_BPF_JIT + bpf_prog_active + counter;
            }
            """;

    private static List<Path> samples() throws IOException {
        List<Path> out = new ArrayList<>();
        try (var s = Files.list(TestData.sample("bpf"))) {
            s.filter(p -> p.getFileName().toString().endsWith(".bpf.o")).sorted().forEach(out::add);
        }
        return out;
    }

    @Test
    void theSamplesGetTheirSectionsSizesAndOffsets() {
        LoadedInput in = InputLoader.load(TestData.sample("bpf/net_stats.bpf.o"), null);
        assertTrue(BpfObjectFixup.isBpfObject(in));
        BpfObjectFixup.Result r = BpfObjectFixup.fix(in);
        assertEquals(null, r.problem());
        assertEquals(4, r.datasecs());
        // readelf -S -s: .bss 8 bytes (global_counter at 0), .data 4, .maps 48 (stats at 0,
        // samples at 0x20), .rodata 2 (the static min_mtu keeps its offset)
        String text = RawTextPrinter.toText(r.btf());
        assertTrue(text.contains("""
                [48] DATASEC '.bss' size=8 vlen=1
                \ttype_id=44 offset=0 size=8 (VAR 'global_counter')
                [49] DATASEC '.data' size=4 vlen=1
                \ttype_id=38 offset=0 size=4 (VAR 'sample_rate')
                [50] DATASEC '.maps' size=48 vlen=2
                \ttype_id=18 offset=0 size=32 (VAR 'stats')
                \ttype_id=24 offset=32 size=16 (VAR 'samples')
                [51] DATASEC '.rodata' size=2 vlen=1
                \ttype_id=47 offset=0 size=2 (VAR 'min_mtu')
                """), text);
        assertEquals(List.of(), Validator.validate(r.btf()), "the kernel accepts it");
    }

    @Test
    void everySampleIsAcceptedByTheKernelRulesOnceFilledIn() throws IOException {
        for (Path p : samples()) {
            BpfObjectFixup.Result r = BpfObjectFixup.fix(InputLoader.load(p, null));
            assertEquals(null, r.problem(), p::toString);
            assertEquals(List.of(), Validator.validate(r.btf()), p::toString);
        }
    }

    @Test
    void theSamplesAsLibbpfOpensThem() throws IOException {
        Path bpfopen = bpfopen();
        for (Path p : samples()) {
            assertArrayEquals(libbpfOpen(bpfopen, p), BtfWriter.write(BpfObjectFixup.fix(InputLoader.load(p, null)).btf()),
                    p::toString);
        }
    }

    @Test
    void staticsHiddenAndZeroInitialisedVariablesAsLibbpfOpensThem() throws IOException, InterruptedException {
        Path obj = compile("vars", VARS_C);
        Path bpfopen = bpfopen();
        BpfObjectFixup.Result r = BpfObjectFixup.fix(InputLoader.load(obj, null));
        assertEquals(1, r.hidden(), "'hid' becomes static");
        assertArrayEquals(libbpfOpen(bpfopen, obj), BtfWriter.write(r.btf()));
        assertEquals(List.of(), Validator.validate(r.btf()));
    }

    @Test
    void externSectionsAsLibbpfOpensThem() throws IOException, InterruptedException {
        Path obj = compile("externs", EXTERNS_C);
        Path bpfopen = bpfopen();
        BpfObjectFixup.Result r = BpfObjectFixup.fix(InputLoader.load(obj, null));
        assertEquals(null, r.problem());
        assertEquals(List.of(".kconfig", ".ksyms"), r.externSections());
        assertEquals(RawTextPrinter.toText(io.btfkit.core.BtfReader.read(libbpfOpen(bpfopen, obj))), RawTextPrinter.toText(r.btf()));
        assertArrayEquals(libbpfOpen(bpfopen, obj), BtfWriter.write(r.btf()));
        assertEquals(List.of(), Validator.validate(r.btf()), "the kernel's rules accept it");
    }

    @Test
    void externSectionsLaidOutLoadIntoTheRunningKernel() throws IOException, InterruptedException {
        Path obj = compile("externs-load", EXTERNS_C);
        LoadedInput in = InputLoader.load(obj, null);
        assertEquals("ok", TestData.kernelVerdict(BtfWriter.write(BpfObjectFixup.fix(in).btf())));
        String raw = TestData.kernelVerdict(BtfWriter.write(in.btf()));
        assertTrue(raw.startsWith("errno 22: "), "as clang wrote it the kernel refuses it: " + raw);
    }

    /** {@code source} compiled with {@code clang -g -O2 -target bpf} into NAME.bpf.o; skipped without clang. */
    private static Path compile(String name, String source) throws IOException, InterruptedException {
        Path clang = TestData.requireTool("clang");
        Path src = dir.resolve(name + ".c");
        Path obj = dir.resolve(name + ".bpf.o");
        Files.writeString(src, source);
        Process p = new ProcessBuilder(clang.toString(), "-g", "-O2", "-target", "bpf", "-c", src.toString(), "-o", obj.toString())
                .inheritIO().start();
        assertEquals(0, p.waitFor());
        return obj;
    }

    /** gcc/src/test/c/bpfopen.c built against libbpf-dev into target/bpfopen; skipped where it cannot be. */
    private static Path bpfopen() throws IOException {
        Path gcc = TestData.requireTool("gcc");
        Assumptions.assumeTrue(Files.exists(Path.of("/usr/include/bpf/libbpf.h")),
                "skipped: libbpf-dev not installed (/usr/include/bpf/libbpf.h), needed to build bpfopen");
        Path out = TestData.root().resolve("target").resolve("bpfopen");
        if (!Files.isExecutable(out)) {
            Files.createDirectories(out.getParent());
            Path src = TestData.root().resolve("gcc/src/test/c/bpfopen.c");
            try {
                Process p = new ProcessBuilder(gcc.toString(), "-O2", "-o", out.toString(), src.toString(), "-lbpf")
                        .inheritIO().start();
                Assumptions.assumeTrue(p.waitFor() == 0, "skipped: could not build " + src + " with -lbpf");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        return out;
    }

    private static byte[] libbpfOpen(Path bpfopen, Path obj) throws IOException {
        Path out = dir.resolve(obj.getFileName() + ".open.btf");
        TestData.run(List.of(bpfopen.toString(), obj.toString(), out.toString()));
        byte[] b = Files.readAllBytes(out);
        assertNotNull(b);
        return b;
    }
}
