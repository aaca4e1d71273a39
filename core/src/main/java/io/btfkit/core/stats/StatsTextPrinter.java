package io.btfkit.core.stats;

/**
 * {@link Stats} for people: one line per fact, then a table of the kinds present.
 *
 * <pre>
 * byte order:      little-endian
 * header:          24 bytes, flags 0x0, no layout section
 * split:           no
 * types:           126585 (ids 1..126585), 71255 named
 * type section:    3190232 bytes
 * string section:  2325390 bytes, 124597 strings
 * total:           5515646 bytes
 *
 * kind             types       bytes   elements
 * INT                 15         240          0
 * ...
 * </pre>
 */
public final class StatsTextPrinter {
    private StatsTextPrinter() {
    }

    public static String print(Stats s) {
        StringBuilder sb = new StringBuilder();
        line(sb, "byte order", s.littleEndian() ? "little-endian" : "big-endian");
        line(sb, "header", s.headerLength() + " bytes, flags 0x" + Integer.toHexString(s.headerFlags())
                + (s.layoutBytes() == 0 ? ", no layout section"
                        : ", layout section of " + s.layoutBytes() + " bytes (" + s.layoutKinds() + " kinds)"));
        line(sb, "split", s.split() ? "yes, on a base of " + s.baseTypes() + " types and " + s.baseStringBytes()
                + " string bytes" : "no");
        String ids = s.types() == 0 ? "no ids" : "ids " + s.firstId() + ".." + (s.firstId() + s.types() - 1);
        line(sb, "types", s.types() + " (" + ids + "), " + s.namedTypes() + " named");
        line(sb, "type section", s.typeSectionBytes() + " bytes");
        line(sb, "string section", s.stringSectionBytes() + " bytes, " + s.strings() + " strings");
        line(sb, "total", s.totalBytes() + " bytes");
        sb.append('\n');
        sb.append(String.format("%-12s %9s %11s %10s%n", "kind", "types", "bytes", "elements"));
        for (KindStats k : s.kinds()) {
            if (k.count() > 0) {
                sb.append(String.format("%-12s %9d %11d %10d%n", k.name(), k.count(), k.bytes(), k.elements()));
            }
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, String key, String value) {
        sb.append(key).append(':');
        for (int i = key.length() + 1; i < 17; i++) {
            sb.append(' ');
        }
        sb.append(value).append('\n');
    }
}
