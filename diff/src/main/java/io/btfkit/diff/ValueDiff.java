package io.btfkit.diff;

/**
 * An enumerator that was added ({@code before == null}), removed ({@code after == null}) or
 * changed its value. Values are decimal text: signed for signed enums, unsigned otherwise (an
 * unsigned ENUM64 value can exceed {@code Long.MAX_VALUE}).
 */
public record ValueDiff(String name, String before, String after) {
}
