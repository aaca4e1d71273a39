package io.btfkit.dedup;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The definitions pass's classes as the final partition's first guess. Two types equivalent in
 * the final graph are one definition (a reference to a named tag counts there only by name and
 * tag kind, a coarser test), so each final class lies inside one definition class; on unit links
 * nearly every definition class is one final class (300 units: 28,913 definition classes give
 * 28,915 final ones over the 1,167,476 types both classify). A type is first tried against the
 * final class a type of its definition class got — its key compared with that class's alone,
 * without hashing it or probing the index, and a cyclic component walked against that one class
 * — and classified as before when that fails. The guess is checked in full, so it decides how
 * fast, never what: a type of a definition class that splits simply misses.
 *
 * <p>Types of one definition class have equal shapes (the pass compared them with the same
 * {@link Shapes}, and only references have been rewritten since), so a guess made from a type of
 * the same definition class needs its children's classes compared only.
 *
 * <p>The definition classes ride in the final partition's own node classes, which take over the
 * pass's array: an unclassified node holds {@code -2 - d} for definition class {@code d} (-1:
 * none), read before the node is classified — no second array of millions of entries.
 */
final class DefinitionSeeds {
    private static final int NONE = -1;

    /** The final partition's node classes, each unclassified with its definition class. */
    final int[] nodeClasses;
    /** The first definition class of the pass's own layer: only those guess (not a base's). */
    private final int firstOwn;
    /** Per own definition class: the final class a type of it got last, plus one (0: none yet). */
    private final AtomicIntegerArray finalOf;

    /**
     * Takes over {@code definitionClasses} (the definitions pass's class of each own node, -1
     * where it classified none; its pass is over) as the final partition's node classes. Only
     * the pass's own definition classes ({@code firstOwn} and the {@code ownCount} after it)
     * guess: a base's are many (a module dedup of a batch would zero an array over vmlinux's
     * for a few hundred types) and few own types fall in them.
     */
    DefinitionSeeds(int[] definitionClasses, int firstOwn, int ownCount) {
        for (int i = 0; i < definitionClasses.length; i++) {
            int d = definitionClasses[i];
            definitionClasses[i] = d < firstOwn ? NONE : -2 - d;
        }
        this.nodeClasses = definitionClasses;
        this.firstOwn = firstOwn;
        this.finalOf = new AtomicIntegerArray(ownCount);
    }

    /**
     * The definition class an unclassified node's entry {@code v} of {@link #nodeClasses}
     * carries (an own one), or -1.
     */
    static int definition(int v) {
        return v < NONE ? -2 - v : NONE;
    }

    /** The final class to try first for a node of definition class {@code d} (-1: none), or -1. */
    int guess(int d) {
        return d < 0 ? NONE : finalOf.get(d - firstOwn) - 1;
    }

    /**
     * A node of definition class {@code d} (-1: none) has final class {@code c}, findable by
     * every thread from now on (the volatile write publishes what this thread saw of {@code c}).
     */
    void record(int d, int c) {
        if (d >= 0 && finalOf.get(d - firstOwn) != c + 1) {
            finalOf.set(d - firstOwn, c + 1);
        }
    }
}
