package io.btfkit.validate;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Raw BTF blobs of one valid type ({@code [1] INT 'int' size=4 bits_offset=0 nr_bits=32
 * encoding=SIGNED}) laid out in any way a header can describe, and the kernel's verdict on them
 * as a table written from {@code kernel/bpf/btf.c} of Linux 6.18 ({@code btf_parse},
 * {@code btf_parse_hdr}, {@code btf_check_sec_info}, {@code btf_parse_str_sec},
 * {@code btf_parse_type_sec}), independent of btfkit's reader and validator.
 */
final class HeaderLayouts {
    private HeaderLayouts() {
    }

    /** The type section: the one INT. */
    static final int[] TYPES = {1, 1 << 24, 4, (1 << 24) | 32};
    /** The string section. */
    static final byte[] STRINGS = {0, 'i', 'n', 't', 0};

    /**
     * One layout. The header is {@code hdrLen} bytes; its bytes past 24 hold {@code tail}
     * (repeated, or cut) — at 24..31 the layout fields when {@code hdrLen >= 32}. After the
     * header: {@code gapBefore} bytes, the first section, {@code gapBetween} bytes, the second
     * (types then strings, or strings first), {@code trailing} bytes. Gap and trailing bytes hold
     * {@code fill}.
     */
    record Layout(int hdrLen, byte[] tail, int flags, int gapBefore, int gapBetween, boolean stringsFirst, int trailing,
                  byte fill) {
        @Override
        public String toString() {
            StringBuilder t = new StringBuilder();
            for (byte b : tail) {
                t.append(String.format("%02x", b & 0xff));
            }
            return "hdr_len " + hdrLen + " tail " + t + " flags " + flags + " gaps " + gapBefore + "/" + gapBetween
                    + (stringsFirst ? " strings first" : "") + " trailing " + trailing + " fill " + fill;
        }
    }

    /** The bytes of {@code l}, little-endian. */
    static byte[] bytes(Layout l) {
        int typeLen = 4 * TYPES.length;
        int total = l.hdrLen() + l.gapBefore() + typeLen + l.gapBetween() + STRINGS.length + l.trailing();
        ByteBuffer b = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
        int first = l.gapBefore();
        int second = first + (l.stringsFirst() ? STRINGS.length : typeLen) + l.gapBetween();
        int typeOff = l.stringsFirst() ? second : first;
        int strOff = l.stringsFirst() ? first : second;
        b.putShort(0, (short) 0xeb9f).put(2, (byte) 1).put(3, (byte) l.flags()).putInt(4, l.hdrLen());
        b.putInt(8, typeOff).putInt(12, typeLen).putInt(16, strOff).putInt(20, STRINGS.length);
        for (int i = 24; i < l.hdrLen(); i++) {
            b.put(i, l.tail().length == 0 ? 0 : l.tail()[(i - 24) % l.tail().length]);
        }
        for (int i = l.hdrLen(); i < total; i++) {
            b.put(i, l.fill());
        }
        for (int k = 0; k < TYPES.length; k++) {
            b.putInt(l.hdrLen() + typeOff + 4 * k, TYPES[k]);
        }
        b.position(l.hdrLen() + strOff);
        b.put(STRINGS);
        return b.array();
    }

    /**
     * What Linux 6.18 says when {@code blob} is given to {@code BPF_BTF_LOAD}: {@code "ok"}, or
     * the errno name and the verifier log's message ({@code "EINVAL: Unsupported section
     * found"}). The kernel's {@code struct btf_header} is 24 bytes (no layout fields); the
     * little-endian magic is native (x86, arm64). Only the checks such blobs can reach are
     * written out: the one INT is valid.
     */
    static String kernelVerdict(byte[] blob) {
        ByteBuffer b = ByteBuffer.wrap(blob).order(ByteOrder.LITTLE_ENDIAN);
        long size = blob.length;
        if (size > 16L << 20) {
            return "E2BIG: ";
        }
        if (size < 8) {
            return "EINVAL: hdr_len not found";
        }
        long hdrLen = b.getInt(4) & 0xffffffffL;
        if (size < hdrLen) {
            return "EINVAL: btf_header not found";
        }
        for (long i = 24; i < hdrLen; i++) { // bytes past the kernel's 24-byte header
            if (blob[(int) i] != 0) {
                return "E2BIG: Unsupported btf_header";
            }
        }
        byte[] h = new byte[24]; // the header fields the kernel copies (hdr_len of them), zero beyond
        System.arraycopy(blob, 0, h, 0, (int) Math.min(hdrLen, 24));
        ByteBuffer hb = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
        if ((hb.getShort(0) & 0xffff) != 0xeb9f) {
            return "EINVAL: Invalid magic";
        }
        if (h[2] != 1) {
            return "ENOTSUPP: Unsupported version";
        }
        if (h[3] != 0) {
            return "ENOTSUPP: Unsupported flags";
        }
        if (size == (hb.getInt(4) & 0xffffffffL)) {
            return "EINVAL: No data";
        }
        long typeOff = hb.getInt(8) & 0xffffffffL;
        long typeLen = hb.getInt(12) & 0xffffffffL;
        long strOff = hb.getInt(16) & 0xffffffffL;
        long strLen = hb.getInt(20) & 0xffffffffL;
        long hdr = hb.getInt(4) & 0xffffffffL;
        // btf_check_sec_info: sorted by offset, then length; the int casts of the comparison
        // change nothing for offsets below 2^31
        long[][] secs = {{typeOff, typeLen}, {strOff, strLen}};
        if (secs[0][0] > secs[1][0] || secs[0][0] == secs[1][0] && secs[0][1] >= secs[1][1]) {
            secs = new long[][] {secs[1], secs[0]};
        }
        long expected = (size - hdr) & 0xffffffffL;
        long total = 0;
        for (long[] s : secs) {
            if (expected < s[0]) {
                return "EINVAL: Invalid section offset";
            }
            if (total < s[0]) {
                return "EINVAL: Unsupported section found";
            }
            if (total > s[0]) {
                return "EINVAL: Section overlap found";
            }
            if (expected - total < s[1]) {
                return "EINVAL: Total section length too long";
            }
            total += s[1];
        }
        if (expected != total) {
            return "EINVAL: Unsupported section found";
        }
        // btf_parse_str_sec
        long strStart = hdr + strOff;
        if (strStart + strLen != size) {
            return "EINVAL: String section is not at the end";
        }
        if (strLen == 0 || strLen - 1 > 0xffffff || blob[(int) strStart] != 0 || blob[(int) (size - 1)] != 0) {
            return "EINVAL: Invalid string section";
        }
        // btf_parse_type_sec
        if ((typeOff & 3) != 0) {
            return "EINVAL: Unaligned type_off";
        }
        if (typeLen == 0) {
            return "EINVAL: No type found";
        }
        return "ok";
    }
}
