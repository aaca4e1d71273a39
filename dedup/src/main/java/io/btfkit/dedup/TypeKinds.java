package io.btfkit.dedup;

import io.btfkit.core.Kind;

/**
 * One byte per merged type, made by the merge: the type's kind, whether it is named, whether it
 * has members (vlen above 0) and its kind_flag — what the passes that look at every type to pick
 * out a few (declarations, full tags, functions) test first. A type's info word is usually on a
 * cache line of its own, so such a pass over the words reads them all (300 units, 1.8 M types:
 * 25 ms a pass on one core, against 9 ms over these bytes); only the types picked are read.
 *
 * <p>A kind past 5 bits (none the reader accepts) is stored as {@link #OTHER}, which none of the
 * tests here matches, as no kind they test is past 5 bits.
 */
final class TypeKinds {
    private static final int KIND = 0x1f;
    private static final int OTHER = KIND;
    private static final int NAMED = 0x20;
    private static final int MEMBERS = 0x40;
    private static final int FLAG = 0x80;

    private TypeKinds() {
    }

    /** The byte of the type whose words start at {@code w[s]}. */
    static byte of(int[] w, int s) {
        int info = w[s + 1];
        int kind = Kind.kindOf(info);
        return (byte) (Math.min(kind, OTHER) | (w[s] != 0 ? NAMED : 0) | (Kind.vlenOf(info) > 0 ? MEMBERS : 0)
                | (Kind.kindFlagOf(info) ? FLAG : 0));
    }

    static int kind(byte k) {
        return k & KIND;
    }

    static boolean named(byte k) {
        return (k & NAMED) != 0;
    }

    /** Whether the type has members, values or parameters (vlen above 0). */
    static boolean hasMembers(byte k) {
        return (k & MEMBERS) != 0;
    }

    /** {@link Declarations#isDeclaration}: a FWD, or an enum without values. */
    static boolean isDeclaration(byte k) {
        int kind = k & KIND;
        return kind == Kind.FWD || Kind.isEnum(kind) && (k & MEMBERS) == 0;
    }

    /** A declaration with a name: the ones the declaration rules resolve. */
    static boolean isNamedDeclaration(byte k) {
        return (k & NAMED) != 0 && isDeclaration(k);
    }

    /** {@link Definitions.ByName#isFullTag}: a named struct or union, or a named enum with values. */
    static boolean isFullTag(byte k) {
        int kind = k & KIND;
        return (k & NAMED) != 0 && (Kind.isComposite(kind) || Kind.isEnum(kind) && (k & MEMBERS) != 0);
    }

    /** Whether {@link Definitions#tagOf} is a tag kind: a named struct, union, FWD or enum. */
    static boolean isNamedTag(byte k) {
        int kind = k & KIND;
        return (k & NAMED) != 0 && (Kind.isComposite(kind) || kind == Kind.FWD || Kind.isEnum(kind));
    }

    /** The byte of every type of {@code w} starting at {@code starts} (tests, and merges made without one). */
    static byte[] of(int[] w, int[] starts) {
        byte[] k = new byte[starts.length - 1];
        for (int i = 0; i < k.length; i++) {
            k[i] = of(w, starts[i]);
        }
        return k;
    }
}
