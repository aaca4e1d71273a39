package io.btfkit.diff;

/**
 * The bounds of one diff run, shared by both sides: member entries flattened (work) and the size
 * of the report (output). Real kernels' largest diff (6.1 against 6.18: 77,000 lines, 7 MB of
 * text, 21 MB of JSON; 41,000 flattened members, 70,000 report items) stays far below; a 10 KB
 * input whose structs share one tree of 65,536 anonymous member paths used to flatten for
 * minutes and print hundreds of megabytes. Past a bound the diff stops with a
 * {@link DiffLimitException} (exit 1) before anything is printed.
 */
final class DiffBudget {
    /** Member entries flattened and compared in one run, both sides together (6.1 against 6.18: 41,000). */
    static final long MAX_FLATTENED = 1L << 21;
    /** The report, as its JSON form would take: 64 MiB (6.1 against 6.18: 21 MB). */
    static final long MAX_REPORT_BYTES = 64L << 20;
    /** What one report item (entry, property, member, value, parameter) takes in JSON besides its text. */
    static final int ITEM_BYTES = 200;

    private long members;
    private long items;
    private long bytes;

    /** Counts {@code n} member entries flattened. */
    synchronized void members(int n) {
        members += n;
        if (members > MAX_FLATTENED) {
            throw new DiffLimitException(-1, "comparing their structs means flattening more than " + MAX_FLATTENED
                    + " members (anonymous members shared by many structs); nothing was printed");
        }
    }

    /** Counts one entry of the report. */
    void report(TypeDiff t) {
        long n = 1 + t.properties().size() + t.members().size() + t.values().size() + t.params().size();
        long c = length(t.label()) + length(t.descriptionA()) + length(t.descriptionB()) + length(t.note());
        for (PropertyChange p : t.properties()) {
            c += length(p.before()) + length(p.after());
        }
        for (MemberDiff m : t.members()) {
            c += length(m.name()) + (m.before() == null ? 0 : length(m.before().type()))
                    + (m.after() == null ? 0 : length(m.after().type()));
        }
        for (ValueDiff v : t.values()) {
            c += length(v.name()) + length(v.before()) + length(v.after());
        }
        for (ParamDiff p : t.params()) {
            c += (p.before() == null ? 0 : length(p.before().name()) + length(p.before().type()))
                    + (p.after() == null ? 0 : length(p.after().name()) + length(p.after().type()));
        }
        items += n;
        bytes += n * ITEM_BYTES + c;
        if (bytes > MAX_REPORT_BYTES) {
            throw new DiffLimitException(-1, "the report would take more than " + (MAX_REPORT_BYTES >> 20) + " MiB ("
                    + items + " changes so far); nothing was printed");
        }
    }

    private static long length(String s) {
        return s == null ? 0 : s.length();
    }
}
