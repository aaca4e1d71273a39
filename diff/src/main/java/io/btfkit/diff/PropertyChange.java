package io.btfkit.diff;

/**
 * A change of one property of the type itself, values as the text report prints them.
 * Properties: {@code size}, {@code kind} (ENUM / ENUM64), {@code signedness}, {@code linkage},
 * {@code return} (FUNC return type), {@code type} (TYPEDEF target, VAR type), {@code encoding},
 * {@code bits} and {@code bit_offset} (INT), {@code fwd_kind} (FWD struct / union).
 */
public record PropertyChange(String property, String before, String after) {
}
