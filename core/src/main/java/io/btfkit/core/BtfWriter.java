package io.btfkit.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Encodes a {@link Btf}'s own types and strings as raw BTF: header, type section, optional
 * layout section, string section, contiguous and in that order (the layout libbpf and pahole
 * write). For any input read in that layout, {@code write(read(x))} is byte-identical to x.
 */
public final class BtfWriter {
    private BtfWriter() {
    }

    /** Raw BTF in the format the BTF was read with (or built for). */
    public static byte[] write(Btf btf) {
        return write(btf, btf.format());
    }

    /**
     * Raw BTF in {@code format}.
     *
     * @throws BtfFormatException when a type is of a kind btfkit does not know and the format's
     *         layout section does not describe (a classic header, say): no reader could skip it
     */
    public static byte[] write(Btf btf, Btf.RawFormat format) {
        int hdrLen = format.headerLength();
        LayoutTable layout = format.layout();
        describable(btf, layout);
        int typeLen = btf.typeSectionBytes();
        int layoutLen = layout == null ? 0 : layout.byteLength();
        byte[] strs = btf.strings().bytes();
        long total = (long) hdrLen + typeLen + layoutLen + strs.length;
        if (total > Integer.MAX_VALUE - 8) {
            throw new BtfException("BTF of " + total + " bytes is too large to encode");
        }
        byte[] out = new byte[(int) total];
        ByteOrder order = format.order();
        ByteBuffer b = ByteBuffer.wrap(out).order(order);
        b.putShort(0, (short) BtfHeader.MAGIC);
        out[2] = 1;
        out[3] = (byte) format.headerFlags();
        b.putInt(4, hdrLen);
        b.putInt(8, 0);
        b.putInt(12, typeLen);
        b.putInt(16, typeLen + layoutLen);
        b.putInt(20, strs.length);
        if (hdrLen >= BtfHeader.LAYOUT_LENGTH) {
            b.putInt(24, layout == null ? 0 : typeLen);
            b.putInt(28, layoutLen);
        }
        ByteBuffer types = ByteBuffer.wrap(out, hdrLen, typeLen).order(order).slice().order(order);
        types.asIntBuffer().put(btf.words(), 0, typeLen / 4);
        if (layout != null) {
            int p = hdrLen + typeLen;
            for (int k = 0; k < layout.size(); k++, p += LayoutTable.ENTRY_BYTES) {
                out[p] = (byte) layout.infoSize(k);
                out[p + 1] = (byte) layout.elemSize(k);
                b.putShort(p + 2, (short) layout.flags(k));
            }
        }
        System.arraycopy(strs, 0, out, hdrLen + typeLen + layoutLen, strs.length);
        return out;
    }

    /** Refuses a type of a kind neither btfkit nor {@code layout} describes (issue 23: it was written, unreadable). */
    private static void describable(Btf btf, LayoutTable layout) {
        for (int id = btf.firstId(), end = btf.firstId() + btf.ownTypeCount(); id < end; id++) {
            int kind = btf.kind(id);
            if (!Kind.isKnown(kind) && (layout == null || !layout.covers(kind))) {
                throw new BtfFormatException("type [" + id + "] is of kind " + kind + ", which only a layout section describes;"
                        + (layout == null ? " a classic header has none (keep the layout header: --header layout)"
                        : " the one to write has " + layout.size() + " entries"));
            }
        }
    }
}
