package io.btfkit.validate;

import io.btfkit.core.Btf;
import io.btfkit.core.StringTable;

/**
 * Rules about the BTF as a whole, as the kernel's {@code btf_parse_hdr},
 * {@code btf_parse_str_sec} and {@code btf_add_type} apply them: header flags and length, the
 * string section's framing and size, the number of types. The reader already rejects what no
 * reader could read (bad magic, version, section bounds); these are the rest, checked on the
 * model so that BTF built in memory is covered too.
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
        if (f.headerFlags() != 0) {
            out.add(-1, Rule.HEADER_FLAGS, "header flags are 0x" + Integer.toHexString(f.headerFlags()));
        }
        if (f.layout() != null) {
            out.add(-1, Rule.HEADER_LAYOUT, "the " + f.headerLength() + "-byte header describes a layout section of "
                    + f.layout().size() + " kinds, which the kernel rejects");
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
}
