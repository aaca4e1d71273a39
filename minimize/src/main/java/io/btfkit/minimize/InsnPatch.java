package io.btfkit.minimize;

/**
 * What libbpf does to the instruction of a resolved relocation ({@code bpf_core_patch_insn}):
 * patch its immediate or offset (and the access size of a load or store whose field changed
 * size), poison it, or refuse the object. The instruction decides three things the value alone
 * does not:
 * <ul>
 * <li>a load or store ({@code LDX}, {@code ST}, {@code STX}) of a field whose size changed in a
 *     way that cannot be resized safely (not both pointers, not both unsigned integers) is
 *     poisoned, while any other instruction with that offset (an {@code ADD} of it) is patched;</li>
 * <li>the instruction must hold the local value before it is patched (where libbpf checks it),
 *     have a form libbpf knows, and take the new value (an offset fits in 16 signed bits);</li>
 * <li>a resized load or store must have had the local field's size and get one of 1, 2, 4, 8.</li>
 * </ul>
 * The reasons are libbpf's log messages.
 */
final class InsnPatch {
    private InsnPatch() {
    }

    enum Kind {
        PATCHED, POISONED, FAILED
    }

    /** The outcome, with libbpf's reason when the instruction is not simply patched. */
    record Outcome(Kind kind, String why) {
        static final Outcome PATCHED = new Outcome(Kind.PATCHED, null);
    }

    /**
     * @param insn      the instruction, as the object holds it
     * @param index     its index in the section (insn_off / 8), for messages
     * @param local     the relocation's value on the local spec
     * @param target    the value to patch in
     * @param memSizeUnsafe the field changed size and the access may not be resized
     */
    static Outcome apply(Insn insn, int index, ReloValue.Calc local, ReloValue.Calc target, boolean memSizeUnsafe) {
        if (target.poison()) {
            return new Outcome(Kind.POISONED, "no matching targets found");
        }
        long orig = local.value();
        long val = target.value();
        boolean validate = local.validate();
        switch (insn.insnClass()) {
            case Insn.ALU, Insn.ALU64 -> {
                if (!insn.immediateSource()) {
                    return failed("insn #" + index + " (ALU/ALU64) takes a register, not an immediate");
                }
                if (validate && insn.imm() != orig) {
                    return failed("unexpected insn #" + index + " (ALU/ALU64) value: got " + Integer.toUnsignedString(insn.imm())
                            + ", exp " + Long.toUnsignedString(orig) + " -> " + Long.toUnsignedString(val));
                }
                return Outcome.PATCHED;
            }
            case Insn.LDX, Insn.ST, Insn.STX -> {
                if (validate && insn.off() != orig) {
                    return failed("unexpected insn #" + index + " (LDX/ST/STX) value: got " + Integer.toUnsignedString(insn.off())
                            + ", exp " + Long.toUnsignedString(orig) + " -> " + Long.toUnsignedString(val));
                }
                if (Long.compareUnsigned(val, Short.MAX_VALUE) > 0) {
                    return failed("insn #" + index + " (LDX/ST/STX) value too big: " + Long.toUnsignedString(val));
                }
                if (memSizeUnsafe) {
                    return new Outcome(Kind.POISONED, "insn #" + index + " (LDX/ST/STX) accesses field incorrectly: "
                            + "the field's size changed (" + local.memSize() + " -> " + target.memSize()
                            + " bytes) and it is not a pointer or an unsigned integer on both sides");
                }
                if (local.memSize() != target.memSize()) {
                    if (insn.memBytes() != local.memSize()) {
                        return failed("insn #" + index + " (LDX/ST/STX) unexpected mem size: got " + insn.memBytes()
                                + ", exp " + local.memSize());
                    }
                    long n = target.memSize();
                    if (n != 1 && n != 2 && n != 4 && n != 8) {
                        return failed("insn #" + index + " (LDX/ST/STX) invalid new mem size: " + n);
                    }
                }
                return Outcome.PATCHED;
            }
            case Insn.LD -> {
                Insn hi = insn.next();
                if (!insn.isLdimm64() || hi == null || insn.src() != 0 || insn.off() != 0
                        || hi.code() != 0 || hi.dst() != 0 || hi.src() != 0 || hi.off() != 0) {
                    return failed("insn #" + index + " (LDIMM64) has unexpected form");
                }
                long imm = Integer.toUnsignedLong(insn.imm()) | (long) hi.imm() << 32;
                if (validate && imm != orig) {
                    return failed("unexpected insn #" + index + " (LDIMM64) value: got " + Long.toUnsignedString(imm)
                            + ", exp " + Long.toUnsignedString(orig) + " -> " + Long.toUnsignedString(val));
                }
                return Outcome.PATCHED;
            }
            default -> {
                return failed("trying to relocate unrecognized insn #" + index + ", code:0x" + Integer.toHexString(insn.code()));
            }
        }
    }

    private static Outcome failed(String why) {
        return new Outcome(Kind.FAILED, why);
    }
}
