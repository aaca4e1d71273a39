package io.btfkit.dedup;

import io.btfkit.core.Btf;
import io.btfkit.core.StringTable;
import io.btfkit.core.TypeRefs;
import io.btfkit.core.ext.BtfExt;
import java.util.Arrays;

/**
 * Writes the deduplicated BTF: one type per class — its lowest-id member that is not a
 * declaration resolved elsewhere — in input order, references remapped to the kept types
 * (references into the base keep their base ids, as libbpf leaves them), and a string section
 * holding exactly the strings the output references, in first-reference order over the output
 * types, the empty string first. This is libbpf's order except where a declaration was
 * resolved to a later definition (libbpf lays its name out at the declaration); btfkit's order
 * makes {@code dedup(dedup(x)) == dedup(x)} byte for byte.
 */
final class OutputBuilder {
    private OutputBuilder() {
    }

    /**
     * Builds the output from each own type's class {@code cls} (overwritten: it becomes the final
     * classes; it may run past the own types).
     */
    static DedupResult build(Btf.RawFormat format, Merger.Merged m, BaseIndex bi, int[] cls, Aliases aliases,
                             int lfirst, int rounds) {
        int n = m.starts.length - 1;
        int first = m.firstId;
        io.btfkit.core.PhaseTimer timer = new io.btfkit.core.PhaseTimer();
        // final class of every own node, aliases followed (each on its own: in parallel), in
        // place of cls: a chain ends at a node that is no alias, whose entry keeps its value, and
        // only aliases' entries change, which no chain reads
        int[] fin = cls;
        int[] chunkMax = new int[CHUNKS];
        java.util.stream.IntStream.range(0, CHUNKS).parallel().forEach(k -> {
            int max = 0;
            for (int i = chunkStart(k, n); i < chunkStart(k + 1, n); i++) {
                int c = finalClass(i, cls, aliases, first, bi);
                fin[i] = c;
                max = Math.max(max, c);
            }
            chunkMax[k] = max;
        });
        int maxClass = Math.max(lfirst, Arrays.stream(chunkMax).max().getAsInt() + 1);
        // each class keeps its lowest node that is no alias, numbered in id order: in one pass
        // in id order, the first such node met of a class (0 in outOfClass: none yet)
        int[] outOfClass = new int[maxClass - lfirst];
        int[] keptNode = new int[maxClass - lfirst];
        int kept = 0;
        for (int i = 0; i < n; i++) {
            int c = fin[i] - lfirst;
            if (c >= 0 && outOfClass[c] == 0 && !aliases.isAlias(i)) {
                outOfClass[c] = first + kept;
                keptNode[kept++] = i;
            }
        }
        int[] outId = new int[n];
        java.util.stream.IntStream.range(0, CHUNKS).parallel().forEach(k -> {
            for (int i = chunkStart(k, n); i < chunkStart(k + 1, n); i++) {
                int c = fin[i];
                outId[i] = c >= lfirst ? outOfClass[c - lfirst] : c == 0 ? 0 : bi.minId[c];
            }
        });

        timer.lap("output ids");
        // kept types, references remapped; strings still canonical (pool offsets)
        int[] words = m.words;
        int[] starts = m.starts;
        int total = 0;
        for (int k = 0; k < kept; k++) {
            int i = keptNode[k];
            total += starts[i + 1] - starts[i];
        }
        int[] out = new int[total];
        int[] outStarts = new int[kept + 1];
        int w = 0;
        int t = 0;
        int stringStart = m.stringStart;
        for (int o = 0; o < kept; o++) {
            int i = keptNode[o];
            int s = starts[i];
            int len = starts[i + 1] - s;
            System.arraycopy(words, s, out, w, len);
            outStarts[t++] = w;
            // (plain loops over the fields, here and below: a capturing lambda per type was
            // most of this phase's time on C1)
            int count = TypeRefs.typeIdCount(out, w);
            for (int k = 0, slot = TypeRefs.firstTypeIdSlot(out, w), stride = TypeRefs.typeIdStride(out, w); k < count;
                    k++, slot += stride) {
                int ref = out[slot];
                if (ref >= first) {
                    out[slot] = outId[ref - first];
                }
            }
            w += len;
        }
        outStarts[kept] = w;
        words = null;
        starts = null;
        m.releaseTypes();
        timer.lap("output types");

        // the string section: the strings the output references, in first-reference order over
        // the output types, then .BTF.ext's (so that dedup is idempotent, see docs/DEDUP.md)
        boolean standalone = m.base == null;
        Strings st = new Strings(m.pool, m.ordinals.get(), stringStart, standalone);
        for (int k = 0; k < kept; k++) {
            int s = outStarts[k];
            out[s] = st.place(out[s]);
            for (int slot = s + 3, stride = TypeRefs.memberNameStride(out, s), end = memberNamesEnd(out, s, stride);
                    slot < end; slot += stride) {
                out[slot] = st.place(out[slot]);
            }
        }
        if (m.ext != null) {
            m.ext.forEachStringOffset(st::place);
        }
        timer.lap("output strings");
        StringTable strings = new StringTable(m.base == null ? null : m.base.strings(), st.bytes());
        BtfExt ext = m.ext == null ? null : m.ext.remap(
                id -> id >= first ? outId[id - first] : id,
                st::placed);
        Btf result = new Btf(m.base, out, outStarts, strings, format);
        return new DedupResult(result, ext, outId, m.inputFirst, first, rounds);
    }

    /**
     * Independent per-type loops run as this many plain loops over ranges of the types, in
     * parallel (a lambda per type, as {@code Arrays.parallelSetAll} calls, was slower than one
     * thread on cold code).
     */
    private static final int CHUNKS = 8;

    private static int chunkStart(int k, int n) {
        return (int) ((long) n * k / CHUNKS);
    }

    /** Class of own node {@code i} after following its alias chain (to a class, or into the base). */
    private static int finalClass(int i, int[] cls, Aliases aliases, int first, BaseIndex bi) {
        int j = i;
        for (int guard = 0; guard <= cls.length; guard++) {
            int t = aliases.target(j);
            if (t < 0) {
                return cls[j];
            }
            if (t < first) {
                return bi.classOfId[t];
            }
            j = t - first;
        }
        return -1;
    }

    /** One past the last member/enumerator/parameter name slot of the type at {@code s}. */
    private static int memberNamesEnd(int[] w, int s, int stride) {
        return stride == 0 ? s + 3 : s + 3 + stride * io.btfkit.core.Kind.vlenOf(w[s + 1]);
    }

    /**
     * The output string section: the canonical strings (offsets into the merge's pool, after
     * {@code stringStart}) laid out in the order {@link #place} first sees them. Output offsets
     * are kept per pool byte for a small pool, in a hash map for a large one (a vmlinux's pool
     * is 2.3 MB: an int per byte would be 9 MB).
     */
    private static final class Strings {
        private final byte[] pool;
        private final int stringStart;
        private final boolean standalone;
        private final StringOrdinals ordinals;
        /** Per string of the pool (by ordinal): its output offset, or -1 while not placed. */
        private final int[] placedAt;
        /** The section: never longer than the pool (each string at most once). */
        private final byte[] out;
        private int size;

        Strings(byte[] pool, StringOrdinals ordinals, int stringStart, boolean standalone) {
            this.pool = pool;
            this.stringStart = stringStart;
            this.standalone = standalone;
            this.ordinals = ordinals;
            placedAt = new int[ordinals.count()];
            Arrays.fill(placedAt, -1);
            out = new byte[pool.length + 1];
            if (standalone) {
                size = 1; // the empty string first, at 0
            }
        }

        private boolean isOwn(int off) {
            return off >= stringStart && !(standalone && off == 0);
        }

        /**
         * The output offset of the canonical string at {@code off}, which it gets now if it has
         * none yet (strings are laid out in the order they are first placed).
         */
        int place(int off) {
            if (!isOwn(off)) {
                return off;
            }
            int p = off - stringStart;
            int o = ordinals.of(p);
            int at = placedAt[o];
            if (at >= 0) {
                return stringStart + at;
            }
            int e = p;
            while (pool[e] != 0) {
                e++;
            }
            at = size;
            System.arraycopy(pool, p, out, at, e - p); // (the NUL is already there)
            placedAt[o] = at;
            size += e - p + 1;
            return stringStart + at;
        }

        /** The output offset of canonical string offset {@code off}. */
        int placed(int off) {
            return isOwn(off) ? stringStart + placedAt[ordinals.of(off - stringStart)] : off;
        }

        byte[] bytes() {
            return Arrays.copyOf(out, size);
        }
    }
}
