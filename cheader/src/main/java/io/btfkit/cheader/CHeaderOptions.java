package io.btfkit.cheader;

/**
 * How {@link CHeaderPrinter} writes C.
 *
 * @param pointerSize   bytes in a pointer (and a {@code long}) on the target: 4 or 8, or 0 to
 *                      take it as libbpf does for raw BTF (the size of the first INT named like
 *                      {@code long}, else 8). Callers reading an ELF file pass its class
 *                      (ELF32: 4, ELF64: 8), as libbpf does.
 * @param currentLibbpf print what libbpf 1.2 and later print where they differ from libbpf 1.1
 *                      (bpftool 7.1): a one-byte enum gets {@code __attribute__((mode(byte)))}
 *                      and an eight-byte enum whose values fit in 32 bits
 *                      {@code __attribute__((mode(word)))}, so such enums keep their BTF size
 *                      when compiled; a TYPE_TAG with kind_flag (an attribute, not a tag)
 *                      prints as {@code __attribute__((NAME))}; gcc's ARM {@code __PolyN_t}
 *                      base types get a typedef to a standard type. On by default, as in
 *                      {@code btfkit dump --format c}: struct layouts then match the BTF; off
 *                      ({@link #BPFTOOL_71}), the output is byte-identical to bpftool 7.1.
 */
public record CHeaderOptions(int pointerSize, boolean currentLibbpf) {
    /** Current libbpf's output (sizes of odd-sized enums preserved). */
    public static final CHeaderOptions CURRENT_LIBBPF = new CHeaderOptions(0, true);
    /** bpftool 7.1's output (Debian's bpftool 7.1, libbpf 1.1), byte for byte. */
    public static final CHeaderOptions BPFTOOL_71 = new CHeaderOptions(0, false);
    /** What the printer's overloads without options, and {@code btfkit dump --format c}, print: {@link #CURRENT_LIBBPF}. */
    public static final CHeaderOptions DEFAULT = CURRENT_LIBBPF;

    public CHeaderOptions {
        if (pointerSize != 0 && pointerSize != 4 && pointerSize != 8) {
            throw new IllegalArgumentException("pointer size " + pointerSize + " (expected 0, 4 or 8)");
        }
    }

    public CHeaderOptions withPointerSize(int size) {
        return new CHeaderOptions(size, currentLibbpf);
    }

    public CHeaderOptions withCurrentLibbpf(boolean on) {
        return new CHeaderOptions(pointerSize, on);
    }
}
