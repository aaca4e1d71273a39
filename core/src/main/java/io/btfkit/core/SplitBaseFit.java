package io.btfkit.core;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a split BTF fits the base it is read on, and when not, the evidence.
 *
 * <p>Split BTF records nothing of its base: its type ids simply continue after the base's
 * last id and its string offsets after the base's string section. Read on another base (a
 * module of one kernel with another kernel's vmlinux), every reference silently means
 * something else, and bpftool prints names like {@code ENUM 'ons'}. But each producer (pahole,
 * libbpf, gcc, clang) names a type only by a string's first byte, so on a wrong base the
 * references stop fitting: a name offset lands inside a string of the base, or past the
 * strings altogether, and ids point past the last type. The reader checks each name and id as
 * it reads ({@link #nameFits}: one byte looked at per name); on the first misfit
 * {@link #mismatch} walks the whole split once more to say how much does not fit.
 *
 * <pre>
 * base made on:  \0int\0long\0        own strings: s\0   [n] STRUCT 's': name offset 10
 * another base:  \0char\0unsigned\0    offset 10 is inside "unsigned": does not fit
 * </pre>
 */
public final class SplitBaseFit {
    private static final int SHOWN_STRING = 40;

    private SplitBaseFit() {
    }

    /**
     * Whether the nonzero name offset {@code off} (below {@code strings.end()}) of a split BTF
     * begins a string: in the base, a non-empty one (the base's only empty string is at 0);
     * in the split's own section, any (its first byte counts as a start).
     */
    public static boolean nameFits(StringTable strings, int off) {
        int own = off - strings.start();
        if (own >= 0) {
            return own == 0 || strings.bytes()[own - 1] == 0;
        }
        StringTable base = strings.base();
        int at = off - base.start();
        if (at < 0) {
            return base.startsString(off) && !base.isEmptyAt(off); // in the base's base
        }
        byte[] d = base.bytes();
        return d[at] != 0 && (at == 0 || d[at - 1] == 0);
    }

    /**
     * The evidence that {@code split} was not made on its base, gathered over all its types
     * (call it once a reference did not fit; it does not itself decide that one did).
     */
    public static BaseMismatchException mismatch(Btf split) {
        return new BaseMismatchException(split.base(), String.join("; ", evidence(split)));
    }

    static List<String> evidence(Btf split) {
        int[] words = split.words();
        int[] starts = split.starts();
        StringTable strings = split.strings();
        int strEnd = strings.end();
        int typeCount = split.typeCount();
        int first = split.firstId();
        long names = 0;
        long badNames = 0;
        String firstBadName = null;
        long maxName = 0;
        long refs = 0;
        long badRefs = 0;
        String firstBadRef = null;
        long funcs = 0;
        long badFuncs = 0;
        String firstBadFunc = null;
        for (int i = 0; i < starts.length - 1; i++) {
            int s = starts[i];
            int id = first + i;
            int kind = Kind.kindOf(words[s + 1]);
            boolean known = Kind.isKnown(kind);
            int stride = known ? TypeRefs.memberNameStride(words, s) : 0;
            int end = stride == 0 ? s + 1 : s + 3 + stride * Kind.vlenOf(words[s + 1]);
            for (int slot = s; slot < end; slot = slot == s ? s + 3 : slot + stride) {
                long off = Integer.toUnsignedLong(words[slot]);
                if (off == 0) {
                    continue;
                }
                names++;
                maxName = Math.max(maxName, off);
                if (off >= strEnd || !nameFits(strings, (int) off)) {
                    if (badNames++ == 0) {
                        firstBadName = "type [" + id + "] " + Kind.name(kind) + " " + (slot == s ? "name" : "member name")
                                + " offset " + off + ", " + whereNameLands(strings, off);
                    }
                }
            }
            if (!known) {
                continue;
            }
            int n = TypeRefs.typeIdCount(words, s);
            for (int k = 0; k < n; k++) {
                int slot = TypeRefs.typeIdSlot(words, s, k);
                int t = words[slot];
                refs++;
                if (Integer.compareUnsigned(t, typeCount) >= 0) {
                    if (badRefs++ == 0) {
                        firstBadRef = "type [" + id + "] " + Kind.name(kind) + " " + BtfReader.fieldName(words, s, slot) + " ["
                                + Integer.toUnsignedString(t) + "]";
                    }
                } else if (kind == Kind.FUNC) {
                    funcs++;
                    if (split.kind(t) != Kind.FUNC_PROTO && badFuncs++ == 0) {
                        firstBadFunc = "FUNC [" + id + "] -> [" + t + "] " + Kind.name(split.kind(t));
                    }
                }
            }
        }
        List<String> out = new ArrayList<>();
        if (strings.length() > 0 && strings.bytes()[0] == 0) {
            // split producers start the own strings right after the base's; standalone BTF with ""
            out.add("its strings start with the empty string, as standalone BTF's do: is it split at all?");
        }
        long implied = impliedBaseStrings(split, maxName);
        if (implied >= 0 && implied != strings.start()) {
            out.add("its names imply a base string section of " + implied + " bytes, this base's has " + strings.start());
        }
        if (badNames > 0) {
            out.add(badNames + " of " + names + " names do not start a string, e.g. " + firstBadName);
        }
        if (badRefs > 0) {
            out.add(badRefs + " of " + refs + " type ids are past the last type, [" + (typeCount - 1) + "], e.g. " + firstBadRef);
        }
        if (badFuncs > 0) {
            out.add(badFuncs + " of " + funcs + " FUNCs' types are not FUNC_PROTOs, e.g. " + firstBadFunc);
        }
        if (out.isEmpty()) {
            out.add("its references do not fit");
        }
        return out;
    }

    private static String whereNameLands(StringTable strings, long off) {
        if (off >= strings.end()) {
            return "past the strings' end, " + strings.end();
        }
        StringTable t = strings.tableOf((int) off);
        byte[] d = t.bytes();
        int at = (int) off - t.start();
        if (d[at] == 0) {
            return "an empty string";
        }
        int begin = at;
        while (begin > 0 && d[begin - 1] != 0) {
            begin--;
        }
        int stop = at;
        while (stop < d.length && d[stop] != 0) {
            stop++;
        }
        String s = new String(d, begin, Math.min(stop - begin, SHOWN_STRING), java.nio.charset.StandardCharsets.ISO_8859_1);
        return "inside " + (t == strings ? "its own" : "the base's") + " string '" + Printable.oneLine(s)
                + (stop - begin > SHOWN_STRING ? "..." : "") + "'";
    }

    /**
     * The size of the base's string section that the split's own names imply, or -1 when they
     * imply none. Producers keep only strings something names, so the last string of the own
     * section is named, by the highest offset: that offset minus the string's place in the own
     * section is where the own section began, i.e. the size of the base it was made on. The
     * guess counts only when every name at or above it then starts an own string.
     */
    static long impliedBaseStrings(Btf split, long maxName) {
        byte[] own = split.strings().bytes();
        if (own.length < 2) {
            return -1;
        }
        int last = own.length - 2;
        while (last >= 0 && own[last] != 0) {
            last--;
        }
        long implied = maxName - (last + 1);
        if (implied <= 0) {
            return -1;
        }
        int[] words = split.words();
        int[] starts = split.starts();
        for (int i = 0; i < starts.length - 1; i++) {
            int s = starts[i];
            int kind = Kind.kindOf(words[s + 1]);
            int stride = Kind.isKnown(kind) ? TypeRefs.memberNameStride(words, s) : 0;
            int end = stride == 0 ? s + 1 : s + 3 + stride * Kind.vlenOf(words[s + 1]);
            for (int slot = s; slot < end; slot = slot == s ? s + 3 : slot + stride) {
                long at = Integer.toUnsignedLong(words[slot]) - implied;
                if (at >= 0 && (at >= own.length || at > 0 && own[(int) at - 1] != 0)) {
                    return -1;
                }
            }
        }
        return implied;
    }
}
