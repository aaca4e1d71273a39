package io.btfkit.gcc;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.StringPool;
import io.btfkit.core.StringTable;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.List;

/**
 * Which kind_flag-0 FWDs of a gcc 12 unit declare enums rather than structs.
 *
 * <p>gcc 12 writes {@code enum e;} as a FWD with kind_flag 0, exactly like {@code struct s;},
 * except for the size/type word: there it leaves the BTF id that the unit's CTF type number 6
 * ({@code CTF_K_STRUCT}) or 8 ({@code CTF_K_ENUM}) received, because it passes the CTF kind of
 * the declaration through its CTF-to-BTF id map. Ids shift down by one for each type gcc
 * dropped before them (void, unrepresentable types), and a dropped type maps to 0. So in a
 * unit whose CTF table reaches entry 8 — certainly when it has at least 8 types other than VAR,
 * FUNC and DATASEC (gcc adds those after the table) — a struct declaration's word is at most 6
 * and an enum declaration's at most 8, and when neither is 0 the enum word is 1 or 2 above the
 * struct word. (Kernel units show 6 and 8, or 5 after one dropped type.) Hence:
 *
 * <ol>
 *   <li><b>Bytes.</b> A word of 7 or 8 marks an enum declaration; of two distinct words
 *       {@code a < b} with {@code a >= 1} and {@code b - a} 1 or 2, {@code a} marks structs and
 *       {@code b} enums. A word above 8, or more than two distinct words, means the unit does
 *       not follow this model (e.g. a tiny unit whose map lookup ran past the table): its words
 *       prove nothing.</li>
 *   <li><b>Names.</b> A FWD its bytes leave open declares an enum when the units given define
 *       its name only as an enum (never as a struct or union) — the unique-definition rule of
 *       docs/DEDUP.md applied to the tag kind (C tags share one namespace).</li>
 * </ol>
 * A byte-proven enum declaration whose name is defined only as a struct or union is left
 * alone (counted as {@link GccQuirk#FWD_KIND_UNKNOWN}), as is an open one whose name is defined
 * both ways. Units without a non-zero FWD word are not gcc 12 FWD encodings and are not read
 * this way.
 *
 * <pre>
 * [1] FWD 's' fwd_kind=struct      # word 6: struct s;
 * [2] FWD 'e' fwd_kind=struct      # word 8: enum e;  -> ENUM 'e' size=4 vlen=0
 * </pre>
 */
public final class FwdKinds {
    private static final int STRUCT = 1;
    private static final int ENUM = 2;
    /** Fewest non-VAR/FUNC/DATASEC types for which the FWD words are certainly in range. */
    private static final int RELIABLE_TYPES = 8;

    private FwdKinds() {
    }

    /** For the names of gcc 12 struct FWDs: whether the units define them as struct/union, as enum, or both. */
    public static final class Anchors {
        private final StringPool names = new StringPool();
        private final Int2IntOpenHashMap flags = new Int2IntOpenHashMap();

        private Anchors() {
        }

        /** Anchors from every definition in {@code units}, for the FWD names of their gcc 12 units. */
        public static Anchors of(List<Btf> units) {
            Survey survey = new Survey();
            units.forEach(survey::add);
            return survey.anchors();
        }

        private int key(Btf u, int nameOff) {
            StringTable t = u.strings().tableOf(nameOff);
            return names.find(t.bytes(), nameOff - t.start(), u.strings().lengthAt(nameOff));
        }

        /** STRUCT and/or ENUM bits for the name at {@code nameOff} of {@code u}; 0 when unknown. */
        int flagsOf(Btf u, int nameOff) {
            int key = nameOff == 0 ? -1 : key(u, nameOff);
            return key < 0 ? 0 : flags.get(key);
        }
    }

    /**
     * Collects what {@link Anchors} need, unit by unit and in any order, so that the units need
     * not all be held at once (a link of gcc objects reads them once for this, then again to
     * normalise each): the FWD names of gcc 12 units, and which kinds every named full type
     * defines under its name. Thread-safe.
     */
    public static final class Survey {
        private final StringPool fwdNames = new StringPool();
        /** Offsets of {@link #fwdNames}' strings, in order. */
        private final IntArrayList fwdOffsets = new IntArrayList();
        private final StringPool definedNames = new StringPool();
        private final Int2IntOpenHashMap definedAs = new Int2IntOpenHashMap();

        /** Takes the FWD names and definitions of {@code u}. */
        public void add(Btf u) {
            int[] w = u.words();
            int[] st = u.starts();
            boolean gccFwds = hasGccFwdWords(u);
            StringTable strings = u.strings();
            synchronized (this) {
                for (int i = 0; i + 1 < st.length; i++) {
                    int s = st[i];
                    int info = w[s + 1];
                    int kind = Kind.kindOf(info);
                    int name = w[s];
                    int bit = Kind.isComposite(kind) ? STRUCT : Kind.isEnum(kind) && Kind.vlenOf(info) > 0 ? ENUM : 0;
                    boolean fwd = gccFwds && kind == Kind.FWD && !Kind.kindFlagOf(info);
                    if (name == 0 || bit == 0 && !fwd) {
                        continue;
                    }
                    StringTable t = strings.tableOf(name);
                    int at = name - t.start();
                    int len = strings.lengthAt(name);
                    if (fwd) {
                        int count = fwdNames.count();
                        int off = fwdNames.add(t.bytes(), at, len);
                        if (fwdNames.count() > count) {
                            fwdOffsets.add(off);
                        }
                    } else {
                        int key = definedNames.add(t.bytes(), at, len);
                        definedAs.put(key, definedAs.get(key) | bit);
                    }
                }
            }
        }

        /** The anchors of every unit taken. */
        public synchronized Anchors anchors() {
            Anchors a = new Anchors();
            byte[] pool = fwdNames.rawBytes();
            for (int k = 0; k < fwdOffsets.size(); k++) {
                int off = fwdOffsets.getInt(k);
                int end = off;
                while (pool[end] != 0) {
                    end++;
                }
                int d = definedNames.find(pool, off, end - off);
                int bits = d < 0 ? 0 : definedAs.get(d);
                if (bits != 0) {
                    a.flags.put(a.names.add(pool, off, end - off), bits);
                }
            }
            return a;
        }
    }

    /** Whether some FWD of {@code u} has a non-zero size/type word (gcc 12's encoding). */
    static boolean hasGccFwdWords(Btf u) {
        int[] w = u.words();
        int[] st = u.starts();
        for (int i = 0; i + 1 < st.length; i++) {
            int s = st[i];
            if (Kind.kindOf(w[s + 1]) == Kind.FWD && w[s + 2] != 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Ids of the FWDs of {@code u} that declare enums, by the rules above; counts the ones left
     * open as {@link GccQuirk#FWD_KIND_UNKNOWN} into {@code kept}.
     */
    public static int[] enumDeclarations(Btf u, Anchors anchors, QuirkCounts kept) {
        if (!hasGccFwdWords(u)) {
            return new int[0];
        }
        int[] w = u.words();
        int[] st = u.starts();
        int first = u.firstId();
        IntArrayList fwds = new IntArrayList();
        int tableTypes = 0;
        int w1 = -1;
        int w2 = -1;
        boolean reliable = true;
        for (int i = 0; i + 1 < st.length; i++) {
            int s = st[i];
            int info = w[s + 1];
            int kind = Kind.kindOf(info);
            if (kind != Kind.VAR && kind != Kind.FUNC && kind != Kind.DATASEC) {
                tableTypes++;
            }
            if (kind == Kind.FWD && !Kind.kindFlagOf(info)) {
                fwds.add(i);
                int word = w[s + 2];
                if (word < 0 || word > 8) {
                    reliable = false;
                } else if (w1 < 0 || word == w1) {
                    w1 = word;
                } else if (w2 < 0 || word == w2) {
                    w2 = word;
                } else {
                    reliable = false;
                }
            }
        }
        reliable &= tableTypes >= RELIABLE_TYPES;
        int enumWord = -1;
        if (reliable) {
            boolean e1 = w1 == 7 || w1 == 8;
            boolean e2 = w2 == 7 || w2 == 8;
            if (e1 && e2) {
                reliable = false;
            } else if (e1 || e2) {
                enumWord = e1 ? w1 : w2;
            } else if (w2 >= 0) {
                int a = Math.min(w1, w2);
                int b = Math.max(w1, w2);
                if (a >= 1 && b - a <= 2) {
                    enumWord = b;
                }
            }
        }
        int structWord = enumWord >= 0 && w2 >= 0 ? (enumWord == w1 ? w2 : w1) : -1;
        IntArrayList out = new IntArrayList();
        for (int k = 0; k < fwds.size(); k++) {
            int i = fwds.getInt(k);
            int s = st[i];
            int word = w[s + 2];
            int f = anchors.flagsOf(u, w[s]);
            if (reliable && word == enumWord) {
                if (f == STRUCT) {
                    kept.add(GccQuirk.FWD_KIND_UNKNOWN, first + i);
                } else {
                    out.add(first + i);
                }
            } else if (!(reliable && word == structWord)) {
                if (f == ENUM) {
                    out.add(first + i);
                } else if (f == (STRUCT | ENUM)) {
                    kept.add(GccQuirk.FWD_KIND_UNKNOWN, first + i);
                }
            }
        }
        return out.toIntArray();
    }
}
