package io.btfkit.validate;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfHeader;
import io.btfkit.core.RawLayout;
import io.btfkit.core.StringTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Rules about the BTF as a whole, as the kernel's {@code btf_parse_hdr},
 * {@code btf_check_sec_info}, {@code btf_parse_str_sec} and {@code btf_add_type} apply them, in
 * that order: header bytes it does not know, header flags, where the sections lie in the bytes,
 * the string section's framing and size, the number of types. The reader already rejects what
 * no reader could read (bad magic, version, section bounds, overlaps); these are the rest.
 *
 * <p>Where the sections lie is known only for BTF read from bytes ({@link Btf#rawLayout()}):
 * the kernel (6.18, without layout support) sorts the type and string sections by offset and
 * wants them to fill the bytes after the header exactly, the first at offset 0, each starting
 * where the previous ends, nothing after the last ("Unsupported section found" for a gap of any
 * size and for trailing bytes); and a header longer than its 24 bytes must hold zeros past them
 * ({@code E2BIG}, "Unsupported btf_header"). BTF built in memory or made by an operation is
 * written contiguously, so only its format's layout section is checked.
 */
final class HeaderRules {
    /** BTF_MAX_TYPE: the largest type id plus one the kernel accepts. */
    static final long MAX_TYPES = 0x000fffffL;
    /** BTF_MAX_NAME_OFFSET. */
    static final long MAX_NAME_OFFSET = 0x00ffffffL;

    private HeaderRules() {
    }

    static void check(Types types, Findings out) {
        Btf btf = types.btf;
        Btf.RawFormat f = btf.format();
        RawLayout raw = btf.rawLayout();
        if (f.layout() != null) {
            out.add(-1, Rule.HEADER_LAYOUT, "the " + f.headerLength() + "-byte header describes a layout section of "
                    + f.layout().size() + " kinds, which a kernel without layout support rejects");
        } else if (raw != null && raw.headerTailNonZero()) {
            out.add(-1, Rule.HEADER_LAYOUT, "header bytes 24.." + (raw.header().hdrLen() - 1) + " are not zero (layout_off "
                    + raw.header().layoutOff() + ", layout_len " + raw.header().layoutLen()
                    + "): a kernel without layout support refuses header fields it does not know");
        }
        if (f.headerFlags() != 0) {
            out.add(-1, Rule.HEADER_FLAGS, "header flags are 0x" + Integer.toHexString(f.headerFlags()));
        }
        if (raw != null) {
            sections(raw, out);
        }
        StringTable s = btf.strings();
        byte[] d = s.bytes();
        if (!btf.isSplit() && (d.length == 0 || d[0] != 0)) {
            out.add(-1, Rule.STRING_SECTION, d.length == 0 ? "string section is empty"
                    : "string section starts with byte 0x" + Integer.toHexString(d[0] & 0xff) + ", not the empty string");
        }
        if (d.length > 0 && d[d.length - 1] != 0) {
            out.add(-1, Rule.STRING_SECTION, "string section does not end with a NUL (last byte 0x"
                    + Integer.toHexString(d[d.length - 1] & 0xff) + ")");
        }
        if (d.length - 1L > MAX_NAME_OFFSET) {
            out.add(-1, Rule.STRING_SECTION_SIZE, "string section has " + d.length + " bytes, the limit is "
                    + (MAX_NAME_OFFSET + 1));
        } else if (s.end() - 1L > MAX_NAME_OFFSET) {
            out.add(-1, Rule.STRING_SECTION_SIZE, "string offsets reach " + (s.end() - 1) + " with the base's, past the limit "
                    + MAX_NAME_OFFSET);
        }
        if (btf.typeCount() > MAX_TYPES) {
            out.add(-1, Rule.TYPE_COUNT, btf.typeCount() + " type ids (void" + (btf.isSplit() ? " and base" : "")
                    + " included), the limit is " + MAX_TYPES);
        }
        if (!btf.isSplit() && btf.ownTypeCount() == 0) {
            out.add(-1, Rule.NO_TYPES, "the type section is empty");
        }
    }

    private record Section(String name, long off, long len) {
    }

    /**
     * {@code btf_check_sec_info}: the sections sorted by offset (then length) must start at 0,
     * follow each other and end where the bytes end. A layout section is counted as a section
     * (its header is {@link Rule#HEADER_LAYOUT}'s finding; a kernel with layout support lays it
     * out the same way), so that one defect gives one finding. Offsets in the details are from
     * the blob's start.
     */
    private static void sections(RawLayout raw, Findings out) {
        BtfHeader h = raw.header();
        List<Section> secs = new ArrayList<>(3);
        secs.add(new Section("type section", h.typeOff(), h.typeLen()));
        secs.add(new Section("string section", h.strOff(), h.strLen()));
        if (h.layoutLen() > 0) {
            secs.add(new Section("layout section", h.layoutOff(), h.layoutLen()));
        }
        secs.sort(Comparator.comparingLong(Section::off).thenComparingLong(Section::len));
        long hdr = h.hdrLen();
        long expected = raw.bytes() - hdr;
        long total = 0;
        String previous = "the header";
        for (Section s : secs) {
            if (s.off > expected) {
                out.add(-1, Rule.SECTION_LAYOUT, "the " + s.name + " starts at offset " + (hdr + s.off) + ", past the "
                        + raw.bytes() + " bytes (Invalid section offset)");
                return;
            }
            if (s.off > total) {
                out.add(-1, Rule.SECTION_LAYOUT, (s.off - total) + " byte" + (s.off - total == 1 ? "" : "s") + " between "
                        + previous + " and the " + s.name + " (offsets " + (hdr + total) + ".." + (hdr + s.off - 1) + ")");
                return;
            }
            if (s.off < total) {
                out.add(-1, Rule.SECTION_LAYOUT, "the " + s.name + " at offset " + (hdr + s.off) + " overlaps " + previous
                        + ", which ends at " + (hdr + total) + " (Section overlap found)");
                return;
            }
            if (s.len > expected - total) {
                out.add(-1, Rule.SECTION_LAYOUT, "the " + s.name + " runs past the " + raw.bytes()
                        + " bytes (Total section length too long)");
                return;
            }
            total += s.len;
            previous = "the " + s.name;
        }
        if (total != expected) {
            out.add(-1, Rule.SECTION_LAYOUT, (expected - total) + " byte" + (expected - total == 1 ? "" : "s") + " after "
                    + previous + " (offsets " + (hdr + total) + ".." + (raw.bytes() - 1) + "; the blob is " + raw.bytes()
                    + " bytes)");
        }
    }
}
