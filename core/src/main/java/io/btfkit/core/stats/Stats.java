package io.btfkit.core.stats;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.LayoutTable;
import io.btfkit.core.StringTable;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a BTF's bytes go: the facts of its header, its section sizes, and a per-kind table of
 * its own types (count, bytes, elements). What {@code btfkit stats} prints.
 *
 * <p>Counted in one pass over the columnar words; the sizes are those {@code BtfWriter} writes
 * for this BTF's format (header, type section, layout section, string section, contiguous), which
 * for a BTF read from a file are the file's own section sizes.
 *
 * @param littleEndian       byte order
 * @param headerLength       header bytes (24 classic, 32 with layout fields, or longer)
 * @param headerFlags        the header's flags byte
 * @param layoutBytes        bytes of the layout section, 0 when there is none
 * @param layoutKinds        kinds the layout section describes, 0 when there is none
 * @param split              whether the BTF is split on a base
 * @param baseTypes          number of base types (void not counted), 0 when standalone
 * @param baseStringBytes    bytes of the base's string sections, 0 when standalone
 * @param firstId            id of the first own type
 * @param types              number of own types
 * @param namedTypes         own types with a non-empty name
 * @param typeSectionBytes   bytes of the type section
 * @param stringSectionBytes bytes of the own string section
 * @param strings            NUL-terminated strings in the own string section (the empty string included)
 * @param totalBytes         the raw BTF: header, type, layout and string sections
 * @param kinds              every known kind in kind order (zero counts included), then unknown kinds present
 */
public record Stats(boolean littleEndian, int headerLength, int headerFlags, int layoutBytes, int layoutKinds,
        boolean split, int baseTypes, long baseStringBytes, int firstId, int types, int namedTypes,
        long typeSectionBytes, long stringSectionBytes, int strings, long totalBytes, List<KindStats> kinds) {

    public Stats {
        kinds = List.copyOf(kinds);
    }

    public static Stats of(Btf btf) {
        long[] count = new long[128];
        long[] bytes = new long[128];
        long[] elements = new long[128];
        int[] w = btf.words();
        int[] st = btf.starts();
        StringTable strs = btf.strings();
        int named = 0;
        for (int i = 0; i < btf.ownTypeCount(); i++) {
            int s = st[i];
            int info = w[s + 1];
            int kind = Kind.kindOf(info);
            count[kind]++;
            bytes[kind] += 4L * (st[i + 1] - s);
            if (Kind.isKnown(kind) && Kind.elemWords(kind) > 0) {
                elements[kind] += Kind.vlenOf(info);
            }
            int off = w[s];
            if (off != 0 && off < strs.end() && !strs.isEmptyAt(off)) {
                named++;
            }
        }
        List<KindStats> kinds = new ArrayList<>();
        for (int k = 0; k < count.length; k++) {
            if (Kind.isKnown(k) || count[k] > 0) {
                kinds.add(new KindStats(k, Kind.isKnown(k) ? Kind.name(k) : "KIND_" + k, count[k], bytes[k], elements[k]));
            }
        }
        Btf.RawFormat f = btf.format();
        LayoutTable layout = f.layout();
        int layoutBytes = layout == null ? 0 : layout.byteLength();
        long typeBytes = btf.typeSectionBytes();
        long stringBytes = strs.length();
        return new Stats(f.order() == ByteOrder.LITTLE_ENDIAN, f.headerLength(), f.headerFlags(), layoutBytes,
                layout == null ? 0 : layout.size(), btf.isSplit(), btf.firstId() - 1,
                strs.start(), btf.firstId(), btf.ownTypeCount(), named, typeBytes, stringBytes, strs.count(),
                f.headerLength() + typeBytes + layoutBytes + stringBytes, kinds);
    }

    /** The row for {@code kind}, or null when the kind has none and is unknown. */
    public KindStats kind(int kind) {
        for (KindStats k : kinds) {
            if (k.kind() == kind) {
                return k;
            }
        }
        return null;
    }
}
