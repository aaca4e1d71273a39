package io.btfkit.core.ext;

import io.btfkit.core.BtfFormatException;
import java.nio.ByteBuffer;

/**
 * Reads a {@code .BTF.ext} section (either byte order) into a {@link BtfExt}.
 *
 * <p>Checks what libbpf checks before trusting the data, with the place of each failure: header
 * (see {@link BtfExtHeader}), each subsection's record size (at least the known struct, a
 * multiple of 4), each block's header and record count (non-zero, fitting in what is left), and
 * no trailing bytes in a subsection. Blocks are counted in a first pass so the arrays are
 * allocated at their exact size, never more than the data can hold. Bytes after the last
 * subsection must be zero (padding). Type ids and string offsets are not checked here: that
 * needs the {@code .BTF} (see {@link BtfExt#forEachReference}).
 */
public final class BtfExtReader {
    private BtfExtReader() {
    }

    public static BtfExt read(byte[] data) {
        return read(data, 0, data.length);
    }

    public static BtfExt read(byte[] data, int off, int len) {
        BtfExtHeader h = BtfExtHeader.parse(data, off, len);
        long end = h.blobLength();
        for (long i = end; i < len; i++) {
            if (data[off + (int) i] != 0) {
                throw new BtfFormatException((len - end) + " bytes follow the last .BTF.ext subsection at offset " + end
                        + " and are not zero padding (non-zero byte at offset " + i + ")");
            }
        }
        ByteBuffer b = ByteBuffer.wrap(data).order(h.order());
        BtfExtInfo[] infos = new BtfExtInfo[3];
        for (BtfExtInfo.Kind k : BtfExtInfo.Kind.values()) {
            long subLen = h.length(k);
            infos[k.ordinal()] = subLen == 0 ? BtfExtInfo.absent(k)
                    : readInfo(b, k, off + (int) (h.hdrLen() + h.offset(k)), (int) subLen, (int) (h.hdrLen() + h.offset(k)));
        }
        return new BtfExt(h.order(), (int) h.hdrLen(), infos[0], infos[1], infos[2]);
    }

    /**
     * @param at   absolute position of the subsection in the array
     * @param base its offset within the .BTF.ext blob, for messages
     */
    private static BtfExtInfo readInfo(ByteBuffer b, BtfExtInfo.Kind kind, int at, int len, int base) {
        String what = kind.label();
        if (len < 4) {
            throw new BtfFormatException(".BTF.ext " + what + " at offset " + base + " is " + len + " bytes, too short for its record size");
        }
        long recSize = b.getInt(at) & 0xffffffffL;
        if (recSize < kind.minRecordSize() || (recSize & 3) != 0) {
            throw new BtfFormatException(".BTF.ext " + what + " record size " + recSize + " (offset " + base + ") is invalid: want a multiple of 4, at least "
                    + kind.minRecordSize());
        }
        if (len == 4) {
            throw new BtfFormatException(".BTF.ext " + what + " at offset " + base + " has a record size but no records");
        }
        int sections = 0;
        long records = 0;
        int p = 4;
        while (p < len) {
            if (len - p < 8) {
                throw new BtfFormatException(".BTF.ext " + what + " block " + sections + " at offset " + (base + p) + ": header needs 8 bytes, only "
                        + (len - p) + " left");
            }
            long n = b.getInt(at + p + 4) & 0xffffffffL;
            if (n == 0) {
                throw new BtfFormatException(".BTF.ext " + what + " block " + sections + " at offset " + (base + p) + " has no records");
            }
            if (n > (len - p - 8) / recSize) {
                throw new BtfFormatException(".BTF.ext " + what + " block " + sections + " at offset " + (base + p) + ": " + n + " records of "
                        + recSize + " bytes need " + Long.toUnsignedString(n * recSize) + " bytes, only " + (len - p - 8) + " left");
            }
            p += 8 + (int) (n * recSize);
            records += n;
            sections++;
        }
        int rw = (int) (recSize / 4);
        int[] names = new int[sections];
        int[] starts = new int[sections + 1];
        int[] words = new int[(int) (records * rw)];
        p = 4;
        int w = 0;
        for (int s = 0; s < sections; s++) {
            names[s] = b.getInt(at + p);
            int n = b.getInt(at + p + 4);
            starts[s] = w / rw;
            p += 8;
            for (int i = 0; i < n * rw; i++, p += 4) {
                words[w++] = b.getInt(at + p);
            }
        }
        starts[sections] = w / rw;
        return new BtfExtInfo(kind, (int) recSize, names, starts, words);
    }
}
