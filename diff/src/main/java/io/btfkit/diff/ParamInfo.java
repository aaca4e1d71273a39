package io.btfkit.diff;

/**
 * One FUNC parameter on one side: its name ("" when unnamed) and its type as C spells it
 * ({@code ...} for the variadic marker).
 */
public record ParamInfo(String name, String type) {
}
