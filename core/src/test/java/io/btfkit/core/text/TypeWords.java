package io.btfkit.core.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.Arrays;

/**
 * Compares the own types of two BTFs word by word, with string offsets compared by the strings
 * they name (so two BTFs with differently ordered string sections compare equal).
 */
final class TypeWords {
    private TypeWords() {
    }

    /**
     * Asserts that {@code actual} has the types of {@code expected}, except that a kind_flag the
     * raw text cannot show (on kinds other than STRUCT, UNION, ENUM, ENUM64, FWD) may be lost, and
     * a name that is literally {@code (anon)} may come back as no name.
     *
     * @return the ids whose kind_flag was lost that way
     */
    static IntArrayList assertSameTypes(Btf expected, Btf actual) {
        assertEquals(expected.firstId(), actual.firstId(), "first id");
        assertEquals(expected.typeCount(), actual.typeCount(), "type count");
        IntArrayList lostFlags = new IntArrayList();
        int[] ew = expected.words();
        int[] aw = actual.words();
        for (int id = expected.firstId(); id < expected.typeCount(); id++) {
            int es = expected.startOf(id);
            int as = actual.startOf(id);
            int len = expected.wordCount(id);
            if (len != actual.wordCount(id)) {
                fail("type " + id + ": " + len + " words expected, " + actual.wordCount(id) + " found");
            }
            int[] e = Arrays.copyOfRange(ew, es, es + len);
            int[] a = Arrays.copyOfRange(aw, as, as + len);
            IntArrayList slots = new IntArrayList();
            TypeRefs.forEachStringSlot(ew, es, slot -> slots.add(slot - es));
            for (int i = 0; i < slots.size(); i++) {
                int k = slots.getInt(i);
                String es1 = expected.strings().latin1(e[k]);
                String as1 = actual.strings().latin1(a[k]);
                if (!es1.equals(as1) && !(es1.equals("(anon)") && as1.isEmpty())) {
                    fail("type " + id + " word " + k + ": string '" + es1 + "' expected, '" + as1 + "' found");
                }
                e[k] = 0;
                a[k] = 0;
            }
            int kind = Kind.kindOf(e[1]);
            if (e[1] != a[1] && (e[1] ^ a[1]) == 0x80000000 && Kind.kindFlagOf(e[1]) && !flagShown(kind)) {
                lostFlags.add(id);
                a[1] = e[1];
            }
            if (!Arrays.equals(e, a)) {
                fail("type " + id + " (" + Kind.name(kind) + "): words " + Arrays.toString(e) + " expected, "
                        + Arrays.toString(a) + " found (string slots zeroed)");
            }
        }
        return lostFlags;
    }

    /** Kinds whose kind_flag the raw text shows (or implies, for bitfield members). */
    static boolean flagShown(int kind) {
        return Kind.isComposite(kind) || Kind.isEnum(kind) || kind == Kind.FWD;
    }

    /**
     * Asserts that the own string section of {@code btf} is the empty string (standalone only)
     * followed by the strings its types use, each once, in order of first use over the types in
     * id order; strings found in the base are referenced there.
     */
    static void assertFirstUseOrder(Btf btf) {
        int[] w = btf.words();
        int start = btf.strings().start();
        int[] next = {btf.isSplit() ? start : 1};
        for (int id = btf.firstId(); id < btf.typeCount(); id++) {
            int finalId = id;
            TypeRefs.forEachStringSlot(w, btf.startOf(id), slot -> {
                int off = w[slot];
                if (off >= start && off == next[0]) {
                    next[0] += btf.strings().lengthAt(off) + 1;
                } else if (off > next[0]) {
                    fail("type " + finalId + ": string at " + off + " used before the one at " + next[0]);
                }
            });
        }
        assertEquals(btf.strings().end(), next[0], "string section holds only used strings");
    }
}
