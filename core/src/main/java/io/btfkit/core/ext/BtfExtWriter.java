package io.btfkit.core.ext;

import io.btfkit.core.BtfException;
import java.nio.ByteBuffer;

/**
 * Encodes a {@link BtfExt}: header, then func_info, line_info and core_relo back to back in that
 * order (the layout clang and libbpf's linker write), each as its record size followed by its
 * blocks. For any input read in that layout, {@code write(read(x))} is byte-identical to x.
 */
public final class BtfExtWriter {
    private BtfExtWriter() {
    }

    public static byte[] write(BtfExt ext) {
        int hdrLen = ext.headerLength();
        long total = hdrLen;
        for (BtfExtInfo.Kind k : BtfExtInfo.Kind.values()) {
            total += ext.info(k).encodedLength();
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new BtfException(".BTF.ext of " + total + " bytes is too large to encode");
        }
        byte[] out = new byte[(int) total];
        ByteBuffer b = ByteBuffer.wrap(out).order(ext.order());
        b.putShort(0, (short) BtfExtHeader.MAGIC);
        out[2] = 1;
        out[3] = 0;
        b.putInt(4, hdrLen);
        int off = 0;
        int field = 8;
        for (BtfExtInfo.Kind k : BtfExtInfo.Kind.values()) {
            BtfExtInfo info = ext.info(k);
            int len = (int) info.encodedLength();
            if (field + 8 <= hdrLen) {
                b.putInt(field, off);
                b.putInt(field + 4, len);
            }
            field += 8;
            writeInfo(b, info, hdrLen + off);
            off += len;
        }
        return out;
    }

    private static void writeInfo(ByteBuffer b, BtfExtInfo info, int at) {
        if (!info.isPresent()) {
            return;
        }
        b.putInt(at, info.recordSize());
        int p = at + 4;
        int[] words = info.words();
        int rw = info.recordWords();
        for (int s = 0; s < info.sectionCount(); s++) {
            b.putInt(p, info.sectionNameOff(s));
            b.putInt(p + 4, info.recordCount(s));
            p += 8;
            int from = info.sectionStart(s) * rw;
            int to = from + info.recordCount(s) * rw;
            for (int w = from; w < to; w++, p += 4) {
                b.putInt(p, words[w]);
            }
        }
    }
}
