package io.btfkit.minimize;

import io.btfkit.core.elf.ElfFile;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The instructions of a BPF object's program sections, by section name: where libbpf finds the
 * instruction a CO-RE relocation patches, and so decides whether a load or store of a field
 * whose size changed is poisoned ({@link InsnPatch}). {@link #NONE} when the object's bytes are
 * not at hand (a {@code .BTF}/{@code .BTF.ext} pair alone): resolution then stops at the value.
 */
public final class ProgramCode {
    /** No instructions known. */
    public static final ProgramCode NONE = new ProgramCode(Map.of(), ByteOrder.LITTLE_ENDIAN);

    private final Map<String, byte[]> sections;
    private final ByteOrder order;

    private ProgramCode(Map<String, byte[]> sections, ByteOrder order) {
        this.sections = sections;
        this.order = order;
    }

    /**
     * The sections of {@code elf} that the relocations name (the first section of each name, as
     * libbpf matches {@code .BTF.ext} sections by name).
     */
    public static ProgramCode of(ElfFile elf, List<LocalRelo> relos) {
        Map<String, byte[]> out = new HashMap<>();
        for (LocalRelo r : relos) {
            if (!out.containsKey(r.section())) {
                elf.section(r.section()).ifPresent(s -> out.put(r.section(), elf.sectionData(s)));
            }
        }
        return new ProgramCode(Map.copyOf(out), elf.order());
    }

    /** Program sections given as bytes, by name (for tests and tools that hold no ELF file). */
    static ProgramCode of(Map<String, byte[]> sections, ByteOrder order) {
        return new ProgramCode(Map.copyOf(sections), order);
    }

    /** Whether instructions are known at all. */
    public boolean isKnown() {
        return this != NONE;
    }

    /** The instruction a relocation patches, or null when the object does not have one there. */
    Insn at(LocalRelo r) {
        byte[] s = sections.get(r.section());
        return s == null ? null : Insn.at(s, r.insnOff(), order);
    }
}
