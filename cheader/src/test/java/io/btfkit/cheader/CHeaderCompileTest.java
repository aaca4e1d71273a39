package io.btfkit.cheader;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.TestData;
import io.btfkit.core.text.RawTextParser;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Printed headers compile with {@code gcc -fsyntax-only} and {@code clang -target bpf
 * -fsyntax-only}, and lay types out as the BTF says: static assertions of every selected
 * struct's size and member offsets ({@link LayoutAsserts}) are compiled with the header.
 * Skipped (with a message) when a compiler is missing.
 *
 * <p>Two things no printer can fix are left out of the assertions: bpftool 7.1 gives enums of
 * 1 or 8 bytes no mode attribute, so structs embedding them are asserted only with
 * {@link CHeaderOptions#CURRENT_LIBBPF}; and {@code __builtin_va_list} has a different size on
 * each target, so structs embedding it are not asserted for targets other than the BTF's.
 */
class CHeaderCompileTest {
    /** Structs with tricky layouts asserted whatever the sampling picks. */
    private static final List<String> ALWAYS = List.of("task_struct", "sk_buff", "inode", "zone", "page", "file",
            "net_device", "bpf_prog", "bio", "bpf_binary_header", "xdp_md", "perf_event");
    /** Every how-many-th assertable vmlinux struct is asserted (≈ 500 of 9,700). */
    private static final int VMLINUX_STRIDE = 20;

    @TempDir
    Path dir;

    private Path write(String name, Btf btf, CHeaderOptions options) {
        Path f = dir.resolve(name);
        try (OutputStream os = Files.newOutputStream(f)) {
            CHeaderPrinter.print(btf, os, options);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return f;
    }

    private Path writeText(String name, String text) {
        try {
            return Files.writeString(dir.resolve(name), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Header and assertions for the structs {@code select} picks, minus those embedding an
     * enum the options cannot size (and, when {@code foreignTarget}, a va_list).
     */
    private Path asserts(String name, Btf btf, CHeaderOptions options, IntPredicate select,
                         boolean foreignTarget) {
        Path header = write(name + ".h", btf, options);
        LayoutAsserts a = new LayoutAsserts(btf, header.getFileName().toString());
        for (int id = btf.firstId(); id < btf.typeCount(); id++) {
            if (!a.assertable(id) || !select.test(id)) {
                continue;
            }
            int t = id;
            boolean enumProblem = LayoutAsserts.embeds(btf, t, e -> options.currentLibbpf()
                    ? LayoutAsserts.unsizableEnum(btf, e) : LayoutAsserts.oddSizedEnum(btf, e));
            if (enumProblem || (foreignTarget && LayoutAsserts.embeds(btf, t, e -> LayoutAsserts.vaList(btf, e)))) {
                continue;
            }
            a.add(id);
        }
        assertTrue(a.structs() > 0, "nothing to assert in " + name);
        return writeText(name + "-layout.c", a.source());
    }

    private IntPredicate vmlinuxSelection(Btf btf) {
        int[] n = {0};
        return id -> ALWAYS.contains(btf.name(id)) || n[0]++ % VMLINUX_STRIDE == 0;
    }

    @Test
    void vmlinux618HeaderCompilesWithItsLayout() {
        Btf btf = BtfReader.read(TestData.bytes(TestData.vmlinux618()));
        Path gccLayout = asserts("vmlinux", btf, CHeaderOptions.BPFTOOL_71, vmlinuxSelection(btf), false);
        CCompiler.gcc(List.of()).assertCompiles(gccLayout);
        Path bpfLayout = asserts("vmlinux-bpf", btf, CHeaderOptions.BPFTOOL_71, vmlinuxSelection(btf), true);
        CCompiler.clang("bpf").assertCompiles(bpfLayout);
    }

    /** With current libbpf's mode attributes the odd-sized enums keep their size: inode, bio and the rest lay out right. */
    @Test
    void vmlinux618WithCurrentLibbpfLaysOutEnumsOfEverySize() {
        Btf btf = BtfReader.read(TestData.bytes(TestData.vmlinux618()));
        IntPredicate oddEnums = id -> LayoutAsserts.embeds(btf, id, e -> LayoutAsserts.oddSizedEnum(btf, e));
        IntPredicate select = vmlinuxSelection(btf).or(oddEnums);
        CCompiler.gcc(List.of()).assertCompiles(asserts("vmlinux-current", btf, CHeaderOptions.CURRENT_LIBBPF, select, false));
        CCompiler.clang("bpf").assertCompiles(asserts("vmlinux-current-bpf", btf, CHeaderOptions.CURRENT_LIBBPF, select, true));
    }

    static Stream<String> samples() {
        return CSamples.OBJECTS.stream();
    }

    /** Every sample's header, with all its structs asserted, on gcc and on clang for the object's own target. */
    @ParameterizedTest
    @MethodSource("samples")
    void sampleHeaderCompilesWithItsLayout(String name) {
        CSamples.Sample s = CSamples.load(name);
        String stem = name.replace('/', '-');
        boolean bpf = name.startsWith("bpf/");
        Path gccLayout = asserts(stem + "-gcc", s.btf(), s.options(), id -> true, bpf);
        CCompiler.gcc(s.gccFlags()).assertCompiles(gccLayout);
        String target = s.pointerSize() == 4 ? "i386-linux-gnu" : name.contains("bpfeb") ? "bpfeb" : "bpf";
        Path clangLayout = asserts(stem + "-clang", s.btf(), s.options(), id -> true, !bpf);
        CCompiler.clang(target).assertCompiles(clangLayout);
    }

    /** A module's header without its base holds every base type the module needs. */
    @Test
    void goldenModulesAloneCompile() {
        List<String> modules = TestData.goldenModules();
        Assumptions.assumeFalse(modules.isEmpty(), "skipped: golden modules not available");
        CCompiler gcc = CCompiler.gcc(List.of());
        CCompiler clang = CCompiler.clang("bpf");
        for (String module : modules) {
            Btf btf = CSamples.goldenModule(module);
            gcc.assertCompiles(write(module + ".h", btf, CHeaderOptions.BPFTOOL_71));
            clang.assertCompiles(write(module + "-bpf.h", btf, CHeaderOptions.BPFTOOL_71));
        }
    }

    /** The hand-written cases of {@link CHeaderPrinterTest} that are valid C (all but the name clashes). */
    @Test
    void handWrittenCasesCompileWithTheirLayout() {
        Map<String, String> cases = Map.of("cycles", CHeaderPrinterTest.CYCLES, "bitfields", CHeaderPrinterTest.BITFIELDS,
                "packed", CHeaderPrinterTest.PACKED, "anonymous", CHeaderPrinterTest.ANONYMOUS,
                "functions", CHeaderPrinterTest.FUNCTIONS, "enums", CHeaderPrinterTest.ENUMS,
                "qualifiers", CHeaderPrinterTest.QUALIFIERS);
        CCompiler gcc = CCompiler.gcc(List.of());
        CCompiler clang = CCompiler.clang("bpf");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Btf btf = RawTextParser.parse(c.getValue(), null);
            gcc.assertCompiles(asserts(c.getKey(), btf, CHeaderOptions.CURRENT_LIBBPF, id -> true, false));
            clang.assertCompiles(asserts(c.getKey() + "-bpf", btf, CHeaderOptions.CURRENT_LIBBPF, id -> true, false));
        }
    }
}
