package io.btfkit.core.ext;

/**
 * The fields of {@code .BTF.ext} that refer into the {@code .BTF} it accompanies: type ids and
 * offsets into the BTF string section. The single place that knows which record word holds
 * which reference; remapping and validation both iterate over these and nothing else.
 *
 * <p>Records start with {@code insn_off} (word 0, an instruction offset, not a reference):
 * func_info is {@code insn_off, type_id}; line_info is {@code insn_off, file_name_off, line_off,
 * line_col}; core_relo is {@code insn_off, type_id, access_str_off, kind}.
 */
public enum ExtField {
    /** {@code sec_name_off} of every per-section block (all three kinds): the ELF section's name. */
    SEC_NAME(null, -1, false, "sec_name_off"),
    FUNC_TYPE_ID(BtfExtInfo.Kind.FUNC_INFO, 1, true, "type_id"),
    LINE_FILE_NAME(BtfExtInfo.Kind.LINE_INFO, 1, false, "file_name_off"),
    LINE_SOURCE(BtfExtInfo.Kind.LINE_INFO, 2, false, "line_off"),
    CORE_TYPE_ID(BtfExtInfo.Kind.CORE_RELO, 1, true, "type_id"),
    CORE_ACCESS_STR(BtfExtInfo.Kind.CORE_RELO, 2, false, "access_str_off");

    private final BtfExtInfo.Kind kind;
    private final int word;
    private final boolean typeId;
    private final String fieldName;

    ExtField(BtfExtInfo.Kind kind, int word, boolean typeId, String fieldName) {
        this.kind = kind;
        this.word = word;
        this.typeId = typeId;
        this.fieldName = fieldName;
    }

    /** The subsection whose records hold this field, or null for {@link #SEC_NAME} (all of them). */
    public BtfExtInfo.Kind kind() {
        return kind;
    }

    /** Index of the field's 32-bit word in a record (-1 for {@link #SEC_NAME}). */
    public int word() {
        return word;
    }

    /** Whether the value is a type id (else a string offset). */
    public boolean isTypeId() {
        return typeId;
    }

    /** The field's name in the uapi structs ({@code type_id}, {@code line_off}, ...). */
    public String fieldName() {
        return fieldName;
    }

    /** Receives each reference with where it sits. */
    @FunctionalInterface
    public interface Visitor {
        /**
         * @param kind    subsection (func_info, line_info, core_relo)
         * @param field   which field
         * @param section index of the per-section block within the subsection
         * @param record  index of the record within that block, -1 for {@link #SEC_NAME}
         * @param value   the type id or string offset
         */
        void visit(BtfExtInfo.Kind kind, ExtField field, int section, int record, int value);
    }
}
