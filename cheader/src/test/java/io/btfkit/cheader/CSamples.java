package io.btfkit.cheader;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.TestData;
import io.btfkit.core.elf.ElfFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/** The repository's sample objects that carry .BTF, read as libbpf reads them (pointer size from the ELF class). */
final class CSamples {
    private CSamples() {
    }

    static final List<String> OBJECTS = List.of("gcc/queue.o", "gcc/job.o", "gcc/worker.o", "gcc/main.o",
            "bpf/task_trace.bpf.o", "bpf/net_stats.bpf.o", "bpf/task_trace.bpfeb.o", "elf/queue.i386.o",
            "elf/tiny.exec", "elf/tiny-btf-alloc.exec");

    record Sample(String name, Path path, Btf btf, int pointerSize) {
        CHeaderOptions options() {
            return CHeaderOptions.BPFTOOL_71.withPointerSize(pointerSize);
        }

        /** gcc's target flag matching the object (the i386 one needs -m32). */
        List<String> gccFlags() {
            return pointerSize == 4 ? List.of("-m32") : List.of();
        }
    }

    static Sample load(String name) {
        Path p = TestData.sample(name);
        Assumptions.assumeTrue(Files.exists(p), "skipped: " + p + " not available");
        ElfFile elf = ElfFile.parse(TestData.bytes(p));
        Btf btf = BtfReader.read(elf.sectionData(".BTF").orElseThrow());
        return new Sample(name, p, btf, elf.is64() ? 8 : 4);
    }

    static byte[] resource(String name) {
        try (InputStream in = CSamples.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new AssertionError("missing test resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Btf goldenBase;

    /** The golden modules' base, vmlinux-6.1.0-56 (read once). */
    static synchronized Btf goldenBase() {
        if (goldenBase == null) {
            goldenBase = BtfReader.read(TestData.bytes(TestData.golden("vmlinux-6.1.0-56.btf")));
        }
        return goldenBase;
    }

    static Btf goldenModule(String name) {
        return BtfReader.read(TestData.bytes(TestData.golden("modules/" + name + ".btf")), goldenBase());
    }
}
