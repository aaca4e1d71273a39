package io.btfkit.dedup;

import io.btfkit.core.Btf;
import io.btfkit.core.StringPool;
import io.btfkit.core.StringTable;
import io.btfkit.core.TypeRefs;
import java.util.Arrays;
import java.util.List;

/**
 * Concatenates inputs into one type graph, as libbpf's {@code btf__add_btf} appends each input
 * to an empty (split) BTF: types keep their order, type ids are shifted, and every string is
 * made canonical — a string already in the base keeps its base offset, any other string gets
 * one offset in a pool filled in first-reference order over the types (libbpf's string dedup
 * order), so equal strings compare as equal ints from here on.
 *
 * <p>Inputs are either standalone (all their types are appended) or split on the same base as
 * the result (only their own types are appended; references into the base stay).
 */
final class Merger {
    private Merger() {
    }

    /** The merged graph and where each merged type came from. */
    static final class Merged {
        final Btf base;
        final int firstId;
        final int[] words;
        final int[] starts;
        /** Own strings in first-reference order; canonical offset = stringStart + pool offset. */
        final StringPool pool;
        final int stringStart;
        /** Merged id of the first type of each input, plus the end. */
        final int[] inputFirst;

        Merged(Btf base, int firstId, int[] words, int[] starts, StringPool pool, int stringStart, int[] inputFirst) {
            this.base = base;
            this.firstId = firstId;
            this.words = words;
            this.starts = starts;
            this.pool = pool;
            this.stringStart = stringStart;
            this.inputFirst = inputFirst;
        }

        int typeCount() {
            return firstId + starts.length - 1;
        }

        /** Input index of a merged own node. */
        int unitOf(int id) {
            int i = Arrays.binarySearch(inputFirst, id);
            return i >= 0 ? i : -i - 2;
        }
    }

    static Merged merge(List<Btf> inputs, Btf base) {
        int firstId = base == null ? 1 : base.typeCount();
        long totalWords = 0;
        long totalTypes = 0;
        for (Btf in : inputs) {
            if (in.isSplit() && in.base() != base) {
                throw new IllegalArgumentException("split input is not on the given base");
            }
            totalWords += in.words().length;
            totalTypes += in.ownTypeCount();
        }
        if (totalWords > Integer.MAX_VALUE - 16 || totalTypes + firstId > Integer.MAX_VALUE - 16) {
            throw new io.btfkit.core.BtfException("inputs too large to merge: " + totalTypes + " types");
        }
        int[] words = new int[(int) totalWords];
        int[] starts = new int[(int) totalTypes + 1];
        int[] inputFirst = new int[inputs.size() + 1];
        StringPool pool = new StringPool(1 << 16);
        if (base == null) {
            pool.add(new byte[0]);
        }
        StringTable baseStrings = base == null ? null : base.strings();
        int stringStart = base == null ? 0 : baseStrings.end();
        int w = 0;
        int t = 0;
        for (int k = 0; k < inputs.size(); k++) {
            Btf in = inputs.get(k);
            inputFirst[k] = firstId + t;
            int shift = firstId + t - in.firstId();
            int keepBelow = in.isSplit() ? in.firstId() : 1;
            int[] iw = in.words();
            int[] is = in.starts();
            StringTable st = in.strings();
            int ownStart = st.start();
            int[] strMap = new int[st.length()];
            Arrays.fill(strMap, -1);
            int n = in.ownTypeCount();
            for (int i = 0; i < n; i++) {
                int s = is[i];
                int len = is[i + 1] - s;
                int ds = w;
                System.arraycopy(iw, s, words, ds, len);
                starts[t++] = ds;
                w += len;
                TypeRefs.forEachTypeIdSlot(words, ds, slot -> {
                    int id = words[slot];
                    if (id >= keepBelow) {
                        words[slot] = id + shift;
                    }
                });
                TypeRefs.forEachStringSlot(words, ds, slot -> {
                    int off = words[slot];
                    if (off == 0 || off < ownStart) {
                        return; // the empty string, or a string of the base: kept as is
                    }
                    int local = off - ownStart;
                    int m = strMap[local];
                    if (m < 0) {
                        m = canonical(st, off, baseStrings, pool, stringStart);
                        strMap[local] = m;
                    }
                    words[slot] = m;
                });
            }
        }
        inputFirst[inputs.size()] = firstId + t;
        starts[t] = w;
        return new Merged(base, firstId, words, starts, pool, stringStart, inputFirst);
    }

    private static int canonical(StringTable st, int off, StringTable baseStrings, StringPool pool, int stringStart) {
        StringTable t = st.tableOf(off);
        int i = off - t.start();
        int len = st.lengthAt(off);
        byte[] bytes = t.bytes();
        if (baseStrings != null) {
            int b = baseStrings.find(Arrays.copyOfRange(bytes, i, i + len));
            if (b >= 0) {
                return b;
            }
        }
        return stringStart + pool.add(bytes, i, len);
    }
}
