package io.btfkit.gcc;

import io.btfkit.core.Btf;
import io.btfkit.core.StringTable;
import io.btfkit.core.TypeRefs;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds an edited copy of one BTF: words changed in place, types replaced by others of a
 * different length, types removed (references to a removed type go to its replacement, or to
 * void), types and strings appended. The input is never modified.
 *
 * <p>Correct because every edit is recorded against the input's ids and applied in one pass:
 * kept types are copied in order, so a kept type's new id is its old id minus the removed
 * types before it; every type-id field (found through {@link TypeRefs}) is then rewritten
 * through that map, and appended types follow the last kept one. Without removals, replaced
 * lengths or appended types the id of every type is unchanged.
 */
final class UnitRewriter {
    private final Btf in;
    private final int first;
    private int[] words;
    private boolean[] removed;
    private int[] replacement;
    private final Int2ObjectOpenHashMap<int[]> replaced = new Int2ObjectOpenHashMap<>();
    private final IntArrayList appended = new IntArrayList();
    private final IntArrayList appendedStarts = new IntArrayList();
    private final ByteArrayOutputStream extraStrings = new ByteArrayOutputStream();

    UnitRewriter(Btf in) {
        this.in = in;
        this.first = in.firstId();
    }

    Btf input() {
        return in;
    }

    /** The current words of the input's types (edits applied so far). */
    int[] words() {
        return words == null ? in.words() : words;
    }

    /** Sets word {@code k} (0 = name_off) of type {@code id}. */
    void setWord(int id, int k, int value) {
        int at = in.starts()[id - first] + k;
        if (words()[at] == value) {
            return;
        }
        if (words == null) {
            words = Arrays.copyOf(in.words(), in.typeSectionBytes() / 4); // (not a reused scratch's spare room)
        }
        words[at] = value;
    }

    /** Drops type {@code id}; references to it go to {@code target} (an input id, or 0 for void). */
    void remove(int id, int target) {
        if (removed == null) {
            removed = new boolean[in.ownTypeCount()];
            replacement = new int[in.ownTypeCount()];
        }
        removed[id - first] = true;
        replacement[id - first] = target;
    }

    boolean hasRemovals() {
        return removed != null;
    }

    /** Replaces type {@code id} by {@code typeWords} (complete for its kind and vlen; ids in input numbering). */
    void replace(int id, int[] typeWords) {
        replaced.put(id - first, typeWords);
    }

    /** Appends a type (ids in input numbering); returns its id in input numbering (after all input types). */
    int append(int[] typeWords) {
        int id = in.typeCount() + appendedStarts.size();
        appendedStarts.add(appended.size());
        appended.addElements(appended.size(), typeWords);
        return id;
    }

    /** Offset of {@code s}: an equal string of the input, or one appended to its string section. */
    int string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        int off = in.strings().find(b);
        if (off >= 0) {
            return off;
        }
        off = in.strings().end() + extraStrings.size();
        extraStrings.write(b, 0, b.length);
        extraStrings.write(0);
        return off;
    }

    /** Whether anything other than in-place word edits was recorded. */
    private boolean reshapes() {
        return removed != null || !replaced.isEmpty() || !appendedStarts.isEmpty();
    }

    /** Old id to new id for every id below the input's type count (removed types: their target's new id). */
    int[] idMap() {
        int n = in.ownTypeCount();
        int[] map = new int[in.typeCount()];
        for (int id = 0; id < first; id++) {
            map[id] = id;
        }
        int next = first;
        for (int i = 0; i < n; i++) {
            map[first + i] = removed != null && removed[i] ? -1 : next++;
        }
        for (int i = 0; i < n; i++) {
            if (map[first + i] < 0) {
                int t = replacement[i];
                int hops = 0;
                while (t >= first && t < in.typeCount() && removed[t - first] && hops++ < n) {
                    t = replacement[t - first];
                }
                map[first + i] = t >= first && t < in.typeCount() ? map[t] : t;
            }
        }
        return map;
    }

    /** The edited BTF. */
    Btf build() {
        StringTable strings = in.strings();
        if (extraStrings.size() > 0) {
            byte[] own = in.strings().bytes();
            byte[] more = extraStrings.toByteArray();
            byte[] all = Arrays.copyOf(own, own.length + more.length);
            System.arraycopy(more, 0, all, own.length, more.length);
            strings = new StringTable(in.base() == null ? null : in.base().strings(), all);
        }
        if (!reshapes()) {
            return words == null && strings == in.strings() ? in
                    : new Btf(in.base(), words(), in.starts(), strings, in.format());
        }
        int[] src = words();
        int[] st = in.starts();
        int n = in.ownTypeCount();
        int[] map = idMap();
        // sized exactly first, then filled: one copy of the words, not a growing list and a copy
        int kept = 0;
        int length = appended.size();
        // (the replacements by index, not a hash lookup per type)
        int[][] byIndex = new int[replaced.isEmpty() ? 0 : n][];
        replaced.int2ObjectEntrySet().fastForEach(e -> byIndex[e.getIntKey()] = e.getValue());
        for (int i = 0; i < n; i++) {
            if (removed == null || !removed[i]) {
                int[] r = byIndex.length > 0 ? byIndex[i] : null;
                length += r != null ? r.length : st[i + 1] - st[i];
                kept++;
            }
        }
        int[] w = new int[length];
        int[] s = new int[kept + appendedStarts.size() + 1];
        int at = 0;
        int t = 0;
        for (int i = 0; i < n; i++) {
            if (removed != null && removed[i]) {
                continue;
            }
            s[t++] = at;
            int[] r = byIndex.length > 0 ? byIndex[i] : null;
            if (r != null) {
                System.arraycopy(r, 0, w, at, r.length);
                at += r.length;
            } else {
                System.arraycopy(src, st[i], w, at, st[i + 1] - st[i]);
                at += st[i + 1] - st[i];
            }
        }
        int appendedFrom = t;
        for (int k = 0; k < appendedStarts.size(); k++) {
            s[t++] = at + appendedStarts.getInt(k);
        }
        System.arraycopy(appended.elements(), 0, w, at, appended.size());
        s[t] = length;
        int newKept = appendedFrom;
        int shift = in.typeCount() - (first + newKept);
        int inCount = in.typeCount();
        for (int i = 0; i + 1 < s.length; i++) {
            // (a loop over the slots, not a callback: a capturing lambda per type was a third of
            // a gcc link's normalising garbage)
            int slot = TypeRefs.firstTypeIdSlot(w, s[i]);
            int stride = TypeRefs.typeIdStride(w, s[i]);
            for (int k = TypeRefs.typeIdCount(w, s[i]); k > 0; k--, slot += stride) {
                int ref = w[slot];
                if (ref >= 0 && ref < map.length) {
                    w[slot] = map[ref];
                } else if (ref >= inCount) {
                    w[slot] = ref - shift;
                }
            }
        }
        return new Btf(in.base(), w, s, strings, in.format());
    }
}
