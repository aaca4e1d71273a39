package io.btfkit.minimize;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One BPF instruction ({@code struct bpf_insn}: opcode, destination and source registers, 16-bit
 * offset, 32-bit immediate), as libbpf reads the instruction a CO-RE relocation patches. A 64-bit
 * immediate load ({@code ldimm64}) takes two slots; {@link #next} is the second one.
 *
 * @param next the following slot when this is an {@code ldimm64} and the section has it, else null
 */
record Insn(int code, int dst, int src, short off, int imm, Insn next) {
    /** Instruction classes ({@code BPF_CLASS(code)}). */
    static final int LD = 0x00, LDX = 0x01, ST = 0x02, STX = 0x03, ALU = 0x04, ALU64 = 0x07;
    /** {@code BPF_LD | BPF_IMM | BPF_DW}: the first slot of a 64-bit immediate load. */
    static final int LDIMM64 = 0x18;
    /** Size of one slot in bytes. */
    static final int SIZE = 8;

    int insnClass() {
        return code & 0x07;
    }

    /** Whether an ALU instruction takes an immediate operand ({@code BPF_K}) rather than a register. */
    boolean immediateSource() {
        return (code & 0x08) == 0;
    }

    boolean isLdimm64() {
        return code == LDIMM64;
    }

    boolean isLoadOrStore() {
        int c = insnClass();
        return c == LDX || c == ST || c == STX;
    }

    /** The memory access size of a load or store in bytes ({@code BPF_SIZE}: W, H, B, DW). */
    int memBytes() {
        return switch (code & 0x18) {
            case 0x00 -> 4;
            case 0x08 -> 2;
            case 0x10 -> 1;
            default -> 8;
        };
    }

    /**
     * The instruction at byte {@code off} of a program section, or null when the section does not
     * hold a whole one there. The register nibbles follow the object's byte order (destination in
     * the low nibble on little-endian objects, in the high one on big-endian ones).
     */
    static Insn at(byte[] section, int off, ByteOrder order) {
        if (off < 0 || off % SIZE != 0 || off > section.length - SIZE) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(section).order(order);
        Insn second = null;
        int code = section[off] & 0xff;
        if (code == LDIMM64 && off + 2 * SIZE <= section.length) {
            second = decode(b, off + SIZE, order, null);
        }
        return decode(b, off, order, second);
    }

    private static Insn decode(ByteBuffer b, int off, ByteOrder order, Insn next) {
        int regs = b.get(off + 1) & 0xff;
        boolean little = order == ByteOrder.LITTLE_ENDIAN;
        int dst = little ? regs & 0x0f : regs >>> 4;
        int src = little ? regs >>> 4 : regs & 0x0f;
        return new Insn(b.get(off) & 0xff, dst, src, b.getShort(off + 2), b.getInt(off + 4), next);
    }
}
