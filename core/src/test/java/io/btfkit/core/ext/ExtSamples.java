package io.btfkit.core.ext;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.TestData;
import io.btfkit.core.elf.ElfFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/** The clang BPF samples' .BTF and .BTF.ext, read through ElfFile. */
final class ExtSamples {
    private ExtSamples() {
    }

    static final List<String> OBJECTS = List.of("bpf/task_trace.bpf.o", "bpf/net_stats.bpf.o", "bpf/task_trace.bpfeb.o");

    record Sample(String name, Btf btf, byte[] extBytes) {
        BtfExt ext() {
            return BtfExtReader.read(extBytes);
        }
    }

    static Sample load(String name) {
        Path p = TestData.sample(name);
        Assumptions.assumeTrue(Files.exists(p), "skipped: " + p + " not available");
        ElfFile elf = ElfFile.parse(TestData.bytes(p));
        return new Sample(name, BtfReader.read(elf.sectionData(".BTF").orElseThrow()), elf.sectionData(".BTF.ext").orElseThrow());
    }

    static Path source(String name) {
        return TestData.sample(name);
    }
}
