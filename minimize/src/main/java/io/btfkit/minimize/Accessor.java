package io.btfkit.minimize;

/**
 * One step of a CO-RE access path: member {@code index} of the struct/union {@code typeId}
 * ({@code name} is the member's name), element {@code index} of an array whose element type is
 * {@code typeId} ({@code name} null), or enumerator {@code index} of the enum {@code typeId}
 * ({@code name} the enumerator's). Anonymous struct/union members passed through on the way to a
 * named one are not accessors; they appear only in the raw spec.
 */
public record Accessor(int typeId, int index, String name) {
    /** Whether this is an array element (or the root's array-style index). */
    public boolean isArrayStep() {
        return name == null;
    }
}
