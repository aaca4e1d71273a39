package io.btfkit.minimize;

/**
 * The CO-RE relocation kinds ({@code enum bpf_core_relo_kind} of the kernel's uapi
 * {@code bpf.h}), with the short names libbpf logs them by.
 */
public enum ReloKind {
    FIELD_BYTE_OFFSET("byte_off"),
    FIELD_BYTE_SIZE("byte_sz"),
    FIELD_EXISTS("field_exists"),
    FIELD_SIGNED("signed"),
    FIELD_LSHIFT_U64("lshift_u64"),
    FIELD_RSHIFT_U64("rshift_u64"),
    TYPE_ID_LOCAL("local_type_id"),
    TYPE_ID_TARGET("target_type_id"),
    TYPE_EXISTS("type_exists"),
    TYPE_SIZE("type_size"),
    ENUMVAL_EXISTS("enumval_exists"),
    ENUMVAL_VALUE("enumval_value"),
    TYPE_MATCHES("type_matches");

    private final String label;

    ReloKind(String label) {
        this.label = label;
    }

    /** libbpf's name for the kind (as in its relocation log). */
    public String label() {
        return label;
    }

    /** The kind numbered {@code value} in a core_relo record, or null when unknown. */
    public static ReloKind of(int value) {
        ReloKind[] all = values();
        return value >= 0 && value < all.length ? all[value] : null;
    }

    public boolean isFieldBased() {
        return ordinal() <= FIELD_RSHIFT_U64.ordinal();
    }

    public boolean isTypeBased() {
        return this == TYPE_ID_LOCAL || this == TYPE_ID_TARGET || this == TYPE_EXISTS || this == TYPE_SIZE
                || this == TYPE_MATCHES;
    }

    public boolean isEnumValueBased() {
        return this == ENUMVAL_EXISTS || this == ENUMVAL_VALUE;
    }
}
