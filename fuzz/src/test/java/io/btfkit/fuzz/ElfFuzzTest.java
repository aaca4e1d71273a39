package io.btfkit.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.OperationException;
import io.btfkit.core.elf.ElfFile;
import io.btfkit.core.ext.BtfExtReader;
import java.util.LinkedHashMap;
import java.util.Optional;

/**
 * Fuzzes the ELF parser ({@link ElfFile#parse}) and what a command does next with a parsed file:
 * reading every section's bytes, the {@code .BTF.base}, {@code .BTF} (split on the base when
 * there is one) and {@code .BTF.ext} sections, and rewriting the file with a new {@code .BTF}
 * (which may be refused with an {@link OperationException}, never crash, and must parse again
 * with the same sections).
 *
 * <p>Seeds: the shipped sample objects and executables (gcc, clang BPF, ELF32 either-endian).
 */
class ElfFuzzTest {
    @FuzzTest
    void elf(byte[] data) {
        ElfFile elf = Outcomes.orRejected(() -> ElfFile.parse(data));
        if (elf == null) {
            return;
        }
        for (ElfFile.Section s : elf.sections()) {
            elf.sectionData(s);
        }
        Btf base = elf.sectionData(".BTF.base").map(b -> Outcomes.orRejected(() -> BtfReader.read(b))).orElse(null);
        Optional<byte[]> btfBytes = elf.sectionData(".BTF");
        Btf btf = btfBytes.map(b -> Outcomes.orRejected(() -> BtfReader.read(b, base))).orElse(null);
        elf.sectionData(".BTF.ext").ifPresent(b -> Outcomes.orRejected(() -> BtfExtReader.read(b)));
        if (btf == null) {
            return;
        }
        LinkedHashMap<String, byte[]> contents = new LinkedHashMap<>();
        contents.put(".BTF", BtfWriter.write(btf));
        byte[] rewritten = Outcomes.orRejected(() -> elf.withSections(contents));
        if (rewritten != null) {
            ElfFile again = ElfFile.parse(rewritten);
            assertEquals(elf.sections().size(), again.sections().size());
            assertEquals(btf.typeCount(), BtfReader.read(again.sectionData(".BTF").orElseThrow(), base).typeCount());
        }
    }
}
