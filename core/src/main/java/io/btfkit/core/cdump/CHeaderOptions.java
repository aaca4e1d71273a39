package io.btfkit.core.cdump;

/**
 * How {@link CHeaderPrinter} writes C.
 *
 * @param pointerSize        bytes in a pointer (and a {@code long}) on the target: 4 or 8, or 0
 *                           to take it as libbpf does for raw BTF (the size of the first INT
 *                           named like {@code long}, else 8). Callers reading an ELF file pass
 *                           its class (ELF32: 4, ELF64: 8), as libbpf does.
 * @param enumModeAttributes add {@code __attribute__((mode(byte)))} to one-byte enums and
 *                           {@code __attribute__((mode(word)))} to eight-byte enums whose values
 *                           fit in 32 bits, as libbpf 1.2 and later do, so that such enums keep
 *                           their BTF size when compiled. Off by default: bpftool 7.1 (libbpf
 *                           1.1) does not print them, and the default output is byte-identical
 *                           to it.
 */
public record CHeaderOptions(int pointerSize, boolean enumModeAttributes) {
    /** bpftool 7.1's output, byte for byte. */
    public static final CHeaderOptions DEFAULT = new CHeaderOptions(0, false);

    public CHeaderOptions {
        if (pointerSize != 0 && pointerSize != 4 && pointerSize != 8) {
            throw new IllegalArgumentException("pointer size " + pointerSize + " (expected 0, 4 or 8)");
        }
    }

    public CHeaderOptions withPointerSize(int size) {
        return new CHeaderOptions(size, enumModeAttributes);
    }

    public CHeaderOptions withEnumModeAttributes(boolean on) {
        return new CHeaderOptions(pointerSize, on);
    }
}
