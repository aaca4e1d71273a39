package io.btfkit.core;

/**
 * A cheap test on named types that a reader can apply during its one pass over the type words
 * (see {@link BtfReader.Scratch#probe}): a type passes when its kind is marked in {@link #kinds}
 * and its name is not empty and either {@link #anyName} is set or the name's first byte is
 * marked in {@link #oneByte} (a one-byte name) or its first two bytes in {@link #twoBytes}. The
 * reader lists the ids that pass; a caller that would otherwise look at every type's name (the
 * CO-RE candidate search of {@code minimize}: 126,000 types a vmlinux) then looks only at those,
 * while the words are read anyway. What the test means is the caller's business.
 */
public final class NameProbe {
    /** By kind ({@link Kind#kindOf}). */
    final boolean[] kinds = new boolean[128];
    /** By first byte: names of one byte that pass. */
    final boolean[] oneByte = new boolean[256];
    /** By first two bytes (first * 256 + second). */
    final boolean[] twoBytes = new boolean[256 * 256];
    /** Every non-empty name of a marked kind passes. */
    final boolean anyName;

    /**
     * @param kinds the kinds to look at (indexed by kind number; shorter arrays mark no more)
     * @param oneByte by first byte, the one-byte names that pass (256 entries)
     * @param twoBytes by first two bytes, the longer names that pass (65,536 entries)
     * @param anyName every non-empty name of a marked kind passes
     */
    public NameProbe(boolean[] kinds, boolean[] oneByte, boolean[] twoBytes, boolean anyName) {
        System.arraycopy(kinds, 0, this.kinds, 0, Math.min(kinds.length, this.kinds.length));
        System.arraycopy(oneByte, 0, this.oneByte, 0, this.oneByte.length);
        System.arraycopy(twoBytes, 0, this.twoBytes, 0, this.twoBytes.length);
        this.anyName = anyName;
    }

    /**
     * Whether a type of {@code kind} whose name starts at {@code s[i]} (NUL-terminated) passes
     * (the reader has this test inline).
     */
    boolean passes(int kind, byte[] s, int i) {
        if (!kinds[kind]) {
            return false;
        }
        int b0 = s[i] & 0xff;
        return b0 != 0 && (anyName || oneByte[b0] || twoBytes[b0 << 8 | (s[i + 1] & 0xff)]);
    }
}
