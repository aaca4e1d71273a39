package io.btfkit.core;

import java.util.Arrays;

/**
 * The optional BTF layout section ({@code struct btf_layout} per kind: {@code info_sz},
 * {@code elem_sz}, {@code flags}), which tells a reader how many bytes a type of a kind it does
 * not know occupies: {@code 12 + info_sz + vlen * elem_sz}.
 */
public final class LayoutTable {
    /** Bytes per entry: u8 info_sz, u8 elem_sz, u16 flags. */
    public static final int ENTRY_BYTES = 4;

    private final int[] infoSize;
    private final int[] elemSize;
    private final int[] flags;

    public LayoutTable(int[] infoSize, int[] elemSize, int[] flags) {
        if (infoSize.length != elemSize.length || infoSize.length != flags.length) {
            throw new IllegalArgumentException("layout arrays differ in length");
        }
        this.infoSize = infoSize.clone();
        this.elemSize = elemSize.clone();
        this.flags = flags.clone();
    }

    /** The table btfkit writes: one entry for every kind it knows (UNKN..ENUM64). */
    public static LayoutTable standard() {
        int n = Kind.COUNT;
        int[] info = new int[n];
        int[] elem = new int[n];
        for (int k = 1; k < n; k++) {
            info[k] = Kind.infoWords(k) * 4;
            elem[k] = Kind.elemWords(k) * 4;
        }
        return new LayoutTable(info, elem, new int[n]);
    }

    public int size() {
        return infoSize.length;
    }

    public int infoSize(int kind) {
        return infoSize[kind];
    }

    public int elemSize(int kind) {
        return elemSize[kind];
    }

    public int flags(int kind) {
        return flags[kind];
    }

    public boolean covers(int kind) {
        return kind >= 0 && kind < infoSize.length;
    }

    /** Section length in bytes. */
    public int byteLength() {
        return infoSize.length * ENTRY_BYTES;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LayoutTable t
                && Arrays.equals(infoSize, t.infoSize)
                && Arrays.equals(elemSize, t.elemSize)
                && Arrays.equals(flags, t.flags);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(infoSize) * 31 + Arrays.hashCode(elemSize);
    }
}
