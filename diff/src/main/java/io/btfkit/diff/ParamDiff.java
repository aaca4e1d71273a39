package io.btfkit.diff;

/**
 * A FUNC parameter, matched by position ({@code index} counts from 1), that was added
 * ({@code before == null}), removed ({@code after == null}), renamed or retyped.
 */
public record ParamDiff(int index, ParamInfo before, ParamInfo after) {
}
