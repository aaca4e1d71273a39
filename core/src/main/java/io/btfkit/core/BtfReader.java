package io.btfkit.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Reads raw BTF (either byte order, classic or layout header, standalone or split) into the
 * columnar model, checking every count, offset and reference before trusting it.
 *
 * <p>Allocation is bounded by the input: the word array is the type section's size and the
 * type index is counted before it is allocated, so a small hostile file cannot make the reader
 * allocate more than a few times its own size.
 *
 * <p>What is checked here is what any later pass relies on: header and section bounds, string
 * section termination, every type fitting in the type section, kinds known (or described by the
 * layout section), every type id and string offset in range. The kernel's semantic rules live in
 * the validator.
 */
public final class BtfReader {
    private BtfReader() {
    }

    public static Btf read(byte[] data) {
        return read(data, 0, data.length, null);
    }

    public static Btf read(byte[] data, Btf base) {
        return read(data, 0, data.length, base);
    }

    /**
     * Reads the blob {@code data[off, off+len)}. Bytes after the last section must be zero
     * (alignment padding); anything else is an error, since it would be silently dropped.
     */
    public static Btf read(byte[] data, int off, int len, Btf base) {
        return read(data, off, len, base, null);
    }

    /**
     * Arrays one reader may reuse from one blob to the next: the type words and the type index
     * while it is built. For a caller that reads many large BTFs one after another, each done
     * with before the next is read ({@code minimize --out-dir}: a vmlinux is 3 MB of words and
     * 0.5-1.5 MB of index under construction), so that they are allocated once instead of
     * filling the heap with garbage for the collector. A BTF read with a scratch keeps its
     * words array: it must not be used once the scratch is read into again. One thread at a
     * time. The arrays grow to the largest input read, never more.
     */
    public static final class Scratch {
        private int[] words = new int[0];
        private int[] starts = new int[0];
        private NameProbe probe;
        /** The ids that passed {@link #probe} in the last read, and how many (-1: not probed). */
        private int[] probed = new int[0];
        private int probedCount = -1;

        /**
         * Sets the test the reader applies to each named type of a standalone BTF read into
         * this scratch while it indexes the words (null: none); the ids that pass are then
         * {@link #probedIds()}.
         */
        public void probe(NameProbe p) {
            this.probe = p;
        }

        /**
         * The ids of the last BTF read into this scratch that passed the probe, ascending, in
         * the first {@link #probedCount()} entries.
         */
        public int[] probedIds() {
            return probed;
        }

        /**
         * How many ids of the last BTF read passed the probe; -1 when that BTF was not probed
         * (no probe, split BTF, or read by the general passes): the caller must then look at
         * every type itself.
         */
        public int probedCount() {
            return probedCount;
        }

        int[] words(int n) {
            if (words.length < n) {
                words = new int[n];
            }
            return words;
        }

        int[] starts(int n) {
            if (starts.length < n) {
                starts = new int[n];
            }
            return starts;
        }
    }

    /**
     * {@link #read(byte[], int, int, Btf)} into {@code scratch}'s arrays when it is not null
     * (the returned BTF's words array may be longer than its type section: the model allows
     * it).
     */
    public static Btf read(byte[] data, int off, int len, Btf base, Scratch scratch) {
        BtfHeader h = BtfHeader.parse(data, off, len);
        checkTrailing(data, off, len, h);
        return readBlob(data, off, h, base, scratch, null, len);
    }

    private static void checkTrailing(byte[] data, int off, int len, BtfHeader h) {
        long end = h.blobLength();
        for (long i = end; i < len; i++) {
            if (data[off + (int) i] != 0) {
                throw new BtfFormatException((len - end) + " bytes follow the BTF sections at offset " + end
                        + (BtfHeader.detect(data, off + (int) end, (int) (len - end)) != null
                        ? " (another BTF blob: concatenated sections are not read as one)" : ""));
            }
        }
    }

    /**
     * {@link #read(byte[], int, int, Btf, Scratch)} of a standalone blob at {@code data[0, len)}
     * whose string section was read apart, into {@code strings} (exactly the section's length;
     * the returned BTF keeps it): the bytes of {@code data} where the section lies are never
     * looked at, so a caller reading a file can put the section straight into its own array
     * instead of copying it out of the file's bytes (2.3 MB a vmlinux).
     *
     * @throws IllegalArgumentException when {@code strings} is not the header's section length
     */
    public static Btf readSplitOut(byte[] data, int len, byte[] strings, Scratch scratch) {
        BtfHeader h = BtfHeader.parse(data, 0, len);
        if (strings.length != h.strLen()) {
            throw new IllegalArgumentException("string section of " + h.strLen() + " bytes, given " + strings.length);
        }
        checkTrailing(data, 0, len, h);
        return readBlob(data, 0, h, null, scratch, strings, len);
    }

    /** Reads one blob whose header has been parsed; bytes after its sections are ignored. */
    public static Btf readBlob(byte[] data, int off, BtfHeader h, Btf base) {
        return readBlob(data, off, h, base, null, null, h.blobLength());
    }

    /**
     * {@code strs}: the string section, read apart (null: in {@code data}); {@code given}: the
     * bytes given for the blob ({@link RawLayout#bytes()}).
     */
    private static Btf readBlob(byte[] data, int off, BtfHeader h, Btf base, Scratch scratch, byte[] strs, long given) {
        int metaStart = off + (int) h.hdrLen();
        LayoutTable layout = h.layoutLen() > 0 ? readLayout(data, metaStart + (int) h.layoutOff(), (int) h.layoutLen(), h.order())
                : null;
        StringTable strings = strs != null ? readStrings(strs, 0, strs.length, base, false)
                : readStrings(data, metaStart + (int) h.strOff(), (int) h.strLen(), base, true);
        ByteBuffer types = ByteBuffer.wrap(data, metaStart + (int) h.typeOff(), (int) h.typeLen()).order(h.order());
        int n = (int) (h.typeLen() / 4);
        int[] words = scratch == null ? new int[n] : scratch.words(n);
        types.asIntBuffer().get(words, 0, n);
        Btf.RawFormat format = new Btf.RawFormat(h.order(), (int) Math.min(h.hdrLen(), Integer.MAX_VALUE), h.flags(), layout);
        if (scratch != null) {
            scratch.probedCount = -1;
        }
        int[] checked = base != null ? null
                // (with a scratch, room for the most types the words can hold: it never grows)
                : scratch == null ? indexChecked(words, n, strings.end(), null)
                : indexChecked(words, n, strings.end(), scratch.starts(n / 3 + 2), strings.bytes(), scratch);
        RawLayout raw = new RawLayout(h, given);
        if (checked != null) {
            return new Btf(null, words, checked, strings, format, raw);
        }
        // split BTF, or something is wrong (or a kind only the layout section describes): the
        // general passes, which name the fault
        int[] starts = index(words, n, layout, base == null ? 1 : base.typeCount());
        Btf btf = new Btf(base, words, starts, strings, format, raw);
        checkReferences(btf);
        return btf;
    }

    private static LayoutTable readLayout(byte[] data, int at, int len, ByteOrder order) {
        int n = len / LayoutTable.ENTRY_BYTES;
        int[] info = new int[n];
        int[] elem = new int[n];
        int[] flags = new int[n];
        ByteBuffer b = ByteBuffer.wrap(data, at, len).order(order);
        for (int k = 0; k < n; k++) {
            int p = at + k * LayoutTable.ENTRY_BYTES;
            info[k] = data[p] & 0xff;
            elem[k] = data[p + 1] & 0xff;
            flags[k] = b.getShort(p + 2) & 0xffff;
        }
        for (int k = 1; k < Math.min(n, Kind.COUNT); k++) {
            if (info[k] != Kind.infoWords(k) * 4 || elem[k] != Kind.elemWords(k) * 4) {
                throw new BtfFormatException("layout section entry for kind " + Kind.name(k) + " says info_sz=" + info[k]
                        + " elem_sz=" + elem[k] + ", but that kind has " + Kind.infoWords(k) * 4 + " and "
                        + Kind.elemWords(k) * 4);
            }
        }
        return new LayoutTable(info, elem, flags);
    }

    /** {@code copy}: the section is part of {@code data} (else it is all of {@code data}, kept as it is). */
    private static StringTable readStrings(byte[] data, int at, int len, Btf base, boolean copy) {
        if (base == null && len == 0) {
            throw new BtfFormatException("string section is empty; standalone BTF needs at least the empty string");
        }
        if (base == null && data[at] != 0) {
            throw new BtfFormatException("string section does not start with the empty string (first byte 0x"
                    + Integer.toHexString(data[at] & 0xff) + ")");
        }
        if (len > 0 && data[at + len - 1] != 0) {
            throw new BtfFormatException("string section is not NUL-terminated (last byte at string offset "
                    + ((base == null ? 0 : base.strings().end()) + len - 1) + " is 0x" + Integer.toHexString(data[at + len - 1] & 0xff) + ")");
        }
        return new StringTable(base == null ? null : base.strings(), copy ? Arrays.copyOfRange(data, at, at + len) : data);
    }

    /**
     * Finds where each type starts, checking that each fits; in one pass, into an array sized
     * for types of eight words (real sections average about ten), doubled when that is short —
     * at most the three-word minimum — then trimmed. (Sized for the minimum from the start, a
     * link of 300 units allocated 20 MB more than it kept.)
     */
    static int[] index(int[] words, int n, LayoutTable layout, int firstId) {
        int most = n / 3 + 1;
        int[] starts = new int[Math.min(most, n / 8 + 16)];
        int count = 0;
        int w = 0;
        while (w < n) {
            if (count + 1 >= starts.length && starts.length < most) {
                starts = java.util.Arrays.copyOf(starts, (int) Math.min(most, 2L * starts.length));
            }
            starts[count] = w;
            w += typeWords(words, n, w, layout, firstId + count);
            count++;
        }
        starts[count] = w;
        return java.util.Arrays.copyOf(starts, count + 1);
    }

    private static int typeWords(int[] words, int wordCount, int w, LayoutTable layout, int id) {
        long byteOff = 4L * w;
        if (wordCount - w < 3) {
            throw new BtfFormatException("type [" + id + "] at type section offset " + byteOff + ": header needs 12 bytes, only "
                    + 4 * (wordCount - w) + " left");
        }
        int info = words[w + 1];
        int kind = Kind.kindOf(info);
        int vlen = Kind.vlenOf(info);
        long n;
        if (Kind.isKnown(kind)) {
            n = Kind.typeWords(kind, vlen);
        } else if (kind != Kind.UNKN && layout != null && layout.covers(kind)) {
            int infoSz = layout.infoSize(kind);
            int elemSz = layout.elemSize(kind);
            if (infoSz % 4 != 0 || elemSz % 4 != 0) {
                throw new BtfFormatException("type [" + id + "] at type section offset " + byteOff + ": kind " + kind
                        + " has a layout (info_sz=" + infoSz + ", elem_sz=" + elemSz + ") that is not word-aligned");
            }
            n = 3 + infoSz / 4 + (long) vlen * (elemSz / 4);
        } else {
            throw new BtfFormatException("type [" + id + "] at type section offset " + byteOff + ": unknown kind " + kind
                    + (kind == Kind.UNKN ? " (UNKN is not a type)" : layout == null ? " and no layout section describes it" : ""));
        }
        if (n > wordCount - w) {
            throw new BtfFormatException("type [" + id + "] " + Kind.name(kind) + " at type section offset " + byteOff + ": vlen "
                    + vlen + " needs " + 4 * n + " bytes, only " + 4 * (wordCount - w) + " left in the type section");
        }
        return (int) n;
    }

    /**
     * Every type id must name an existing type and every string offset a string. In split BTF
     * a reference that does not fit (also a name inside a string) is evidence of a wrong base,
     * reported as such by {@link SplitBaseFit}.
     */
    static void checkReferences(Btf btf) {
        int[] words = btf.words();
        int[] starts = btf.starts();
        int typeCount = btf.typeCount();
        StringTable strings = btf.strings();
        int strEnd = strings.end();
        boolean split = btf.isSplit();
        int first = btf.firstId();
        for (int i = 0; i < starts.length - 1; i++) {
            int s = starts[i];
            int kind = Kind.kindOf(words[s + 1]);
            // (plain loops: this runs on every type of every input, thousands of files in a link)
            int stride = Kind.isKnown(kind) ? TypeRefs.memberNameStride(words, s) : 0;
            int end = stride == 0 ? s + 1 : s + 3 + stride * Kind.vlenOf(words[s + 1]);
            for (int slot = s; slot < end; slot = slot == s ? s + 3 : slot + stride) {
                int off = words[slot];
                if (Integer.compareUnsigned(off, strEnd) >= 0) {
                    throw split ? SplitBaseFit.mismatch(btf) : badString(btf, first + i, s, slot, strEnd);
                }
                if (split && off != 0 && !SplitBaseFit.nameFits(strings, off)) {
                    throw SplitBaseFit.mismatch(btf);
                }
            }
            if (!Kind.isKnown(kind)) {
                continue;
            }
            int refs = TypeRefs.typeIdCount(words, s);
            for (int k = 0; k < refs; k++) {
                int slot = TypeRefs.typeIdSlot(words, s, k);
                if (Integer.compareUnsigned(words[slot], typeCount) >= 0) {
                    if (split) {
                        throw SplitBaseFit.mismatch(btf);
                    }
                    throw new BtfFormatException("type [" + (first + i) + "] " + Kind.name(kind) + describeName(btf, s)
                            + ": " + fieldName(words, s, slot) + " refers to type " + Integer.toUnsignedString(words[slot])
                            + ", but the last type id is " + (typeCount - 1));
                }
            }
        }
    }

    /**
     * The common case of {@link #index} and {@link #checkReferences} for standalone BTF in one
     * pass over the words: the type index, when every type of a known kind fits and every string
     * offset and type id it holds is in range; null otherwise (also for a kind only a layout
     * section describes), and the caller then runs the general passes, which name the fault. On
     * a vmlinux (126,000 types) this costs about half the two passes it replaces, which matters
     * where hundreds of kernels are read in one run ({@code minimize --out-dir}). The slots
     * checked are those of {@link TypeRefs}; ReaderFastPathTest holds the two paths equal.
     */
    static int[] indexChecked(int[] w, int n, int strEnd, int[] startsBuffer) {
        return indexChecked(w, n, strEnd, startsBuffer, null, null);
    }

    /**
     * {@link #indexChecked(int[], int, int, int[])}, applying {@code scratch}'s probe (when it
     * has one) to each named type whose name offset is in range, its names in {@code names} (the
     * BTF's own string section, starting at offset 0); the ids that pass go to the scratch, and
     * its count is set only when the whole pass succeeds.
     */
    static int[] indexChecked(int[] w, int n, int strEnd, int[] startsBuffer, byte[] names, Scratch scratch) {
        NameProbe probe = scratch == null ? null : scratch.probe;
        int[] probed = probe == null ? null : scratch.probed;
        int probedCount = 0;
        boolean[] probeKinds = probe == null ? null : probe.kinds;
        boolean[] oneByte = probe == null ? null : probe.oneByte;
        boolean[] twoBytes = probe == null ? null : probe.twoBytes;
        boolean anyName = probe != null && probe.anyName;
        // unsigned comparison: x < limit as (x ^ MIN) < (limit ^ MIN); the largest type id is
        // gathered (unsigned, flipped) and compared once the type count is known
        final int flip = Integer.MIN_VALUE;
        final int strs = strEnd ^ flip;
        int maxType = flip;
        int most = n / 3 + 1;
        // (a first guess of 6 words a type: kernel and gcc units average 8 to 12, so it rarely grows)
        int[] starts = startsBuffer != null ? startsBuffer : new int[Math.min(most, n / 6 + 16)];
        int count = 0;
        int s = 0;
        while (s < n) {
            if (count + 1 >= starts.length) {
                starts = Arrays.copyOf(starts, (int) Math.min(most, 2L * starts.length));
            }
            starts[count++] = s;
            if (n - s < 3 || (w[s] ^ flip) >= strs) {
                return null;
            }
            int info = w[s + 1];
            // the probe's test, inline (C1 would call a method per type): the kind first, so
            // that most names (a vmlinux's functions) are not even read
            if (probeKinds != null && probeKinds[Kind.kindOf(info)] && w[s] != 0) {
                int b0 = names[w[s]] & 0xff;
                if (b0 != 0 && (anyName || oneByte[b0] || twoBytes[b0 << 8 | (names[w[s] + 1] & 0xff)])) {
                    if (probedCount == probed.length) {
                        probed = Arrays.copyOf(probed, Math.max(64, 2 * probedCount));
                    }
                    probed[probedCount++] = count;
                }
            }
            long end;
            switch (Kind.kindOf(info)) {
                case Kind.FWD, Kind.FLOAT -> end = s + 3;
                case Kind.INT -> end = s + 4;
                case Kind.PTR, Kind.TYPEDEF, Kind.VOLATILE, Kind.CONST, Kind.RESTRICT, Kind.FUNC, Kind.TYPE_TAG -> {
                    end = s + 3;
                    maxType = Math.max(maxType, w[s + 2] ^ flip);
                }
                case Kind.VAR, Kind.DECL_TAG -> {
                    end = s + 4;
                    maxType = Math.max(maxType, w[s + 2] ^ flip);
                }
                case Kind.ARRAY -> {
                    end = s + 6;
                    if (end > n) {
                        return null;
                    }
                    maxType = Math.max(maxType, Math.max(w[s + 3] ^ flip, w[s + 4] ^ flip));
                }
                case Kind.STRUCT, Kind.UNION, Kind.FUNC_PROTO -> {
                    // members: name, type, offset; parameters: name, type
                    int stride = Kind.kindOf(info) == Kind.FUNC_PROTO ? 2 : 3;
                    end = s + 3 + (long) stride * Kind.vlenOf(info);
                    if (end > n) {
                        return null;
                    }
                    if (stride == 2) {
                        maxType = Math.max(maxType, w[s + 2] ^ flip);
                    }
                    for (int m = s + 3, e = (int) end; m < e; m += stride) {
                        if ((w[m] ^ flip) >= strs) {
                            return null;
                        }
                        maxType = Math.max(maxType, w[m + 1] ^ flip);
                    }
                }
                case Kind.ENUM, Kind.ENUM64 -> {
                    // values: name, value (ENUM64: name, low, high)
                    int stride = Kind.kindOf(info) == Kind.ENUM ? 2 : 3;
                    end = s + 3 + (long) stride * Kind.vlenOf(info);
                    if (end > n) {
                        return null;
                    }
                    for (int m = s + 3, e = (int) end; m < e; m += stride) {
                        if ((w[m] ^ flip) >= strs) {
                            return null;
                        }
                    }
                }
                case Kind.DATASEC -> {
                    // variables: type, offset, size
                    end = s + 3 + 3L * Kind.vlenOf(info);
                    if (end > n) {
                        return null;
                    }
                    for (int m = s + 3, e = (int) end; m < e; m += 3) {
                        maxType = Math.max(maxType, w[m] ^ flip);
                    }
                }
                default -> {
                    return null;
                }
            }
            if (end > n) {
                return null;
            }
            s = (int) end;
        }
        // ids 0 (void) to count
        if (maxType >= ((count + 1) ^ flip)) {
            return null;
        }
        starts[count] = s;
        if (probe != null) {
            scratch.probed = probed;
            scratch.probedCount = probedCount;
        }
        return Arrays.copyOf(starts, count + 1);
    }

    private static BtfFormatException badString(Btf btf, int id, int s, int slot, int strEnd) {
        int kind = Kind.kindOf(btf.words()[s + 1]);
        return new BtfFormatException("type [" + id + "] " + Kind.name(kind) + ": "
                + (slot == s ? "name" : "member/value/parameter " + ((slot - s - 3) / Math.max(1, Kind.isKnown(kind) ? Kind.elemWords(kind) : 1)) + " name")
                + " offset " + Integer.toUnsignedString(btf.words()[slot]) + " is past the end of the string section ("
                + strEnd + " bytes)");
    }

    private static String describeName(Btf btf, int s) {
        String n = btf.strings().forMessage(btf.words()[s], java.nio.charset.StandardCharsets.ISO_8859_1);
        return n == null || n.isEmpty() ? "" : " '" + n + "'";
    }

    /** Human name of the type-id field at {@code slot} for error messages. */
    static String fieldName(int[] w, int start, int slot) {
        int kind = Kind.kindOf(w[start + 1]);
        switch (kind) {
            case Kind.ARRAY:
                return slot == start + 3 ? "element type" : "index type";
            case Kind.STRUCT:
            case Kind.UNION:
                return "member " + (slot - start - 4) / 3;
            case Kind.FUNC_PROTO:
                return slot == start + 2 ? "return type" : "parameter " + (slot - start - 4) / 2;
            case Kind.DATASEC:
                return "variable " + (slot - start - 3) / 3;
            default:
                return "type";
        }
    }
}
