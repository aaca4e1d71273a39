package io.btfkit.validate;

/**
 * The rules the {@link Validator} checks: one constant per check, each mirroring one check the
 * Linux kernel makes when it loads BTF ({@code kernel/bpf/btf.c}), named by a short stable id
 * that findings carry and users can grep for.
 *
 * <p>A rule is either <em>structural</em> (every BTF consumer relies on it; checked in both
 * {@link Validator.Profile profiles}) or <em>kernel-only</em> (a policy of the kernel loader:
 * name syntax, linkage, DATASEC layout, size limits; checked only in
 * {@link Validator.Profile#KERNEL}). Three structural rules are relaxed, not dropped, in the
 * {@link Validator.Profile#STRUCTURAL} profile: {@link #FUNC_LINKAGE} and {@link #VAR_LINKAGE}
 * also accept {@code extern}, {@link #DATASEC_ENTRY} also accepts FUNC entries (libbpf fixes
 * these up when it loads an object file).
 *
 * <p>{@link #kernelMessage()} is the kernel's verifier log message for the check, so a finding
 * can be matched to what {@code bpftool}/libbpf would print when the kernel rejects the BTF.
 */
public enum Rule {
    // --- header and sections (in the kernel's order) ---
    HEADER_LAYOUT("header-layout", true, "Unsupported btf_header",
            "the kernel header is 24 bytes; header bytes past it (the layout fields) must be zero (no layout section)"),
    HEADER_FLAGS("header-flags", true, "Unsupported flags", "the header flags byte must be 0"),
    SECTION_LAYOUT("section-layout", true, "Unsupported section found",
            "the sections follow the header and each other without a gap, and nothing follows the last"),
    STRING_SECTION("string-section", false, "Invalid string section",
            "the string section must start with the empty string (standalone BTF) and end with a NUL"),
    STRING_SECTION_SIZE("string-section-size", true, "Invalid string section",
            "the string section may hold at most BTF_MAX_NAME_OFFSET + 1 (16 MiB) bytes"),
    TYPE_COUNT("type-count", true, "Exceeded max num of types",
            "at most BTF_MAX_TYPE (1,048,575) type ids, void and base types included"),
    NO_TYPES("no-types", true, "No type found", "standalone BTF must have at least one type"),

    // --- every type ---
    KIND_UNKNOWN("kind-unknown", true, "Invalid kind", "the kind must be one the kernel knows (1..19)"),
    INFO_BITS("info-bits", true, "Invalid btf_info",
            "unused bits of the info word must be 0 (vlen fits 16 bits, kind 5 bits)"),
    NAME_OFFSET("name-offset", false, "Invalid name_offset",
            "every name offset must lie inside the string section"),
    TYPE_ID("type-id", false, "Invalid type_id", "every referenced type id must exist"),
    VLEN("vlen", false, "vlen != 0", "kinds without members must have vlen 0"),
    KIND_FLAG("kind-flag", false, "Invalid btf_info kind_flag",
            "kind_flag must be 0 except for STRUCT, UNION, ENUM, ENUM64, FWD, DECL_TAG and TYPE_TAG"),
    NAME_MISSING("name-missing", true, "Invalid name",
            "TYPEDEF, FWD, FUNC, VAR, DATASEC and enumerators must be named; tags need a value"),
    NAME_NOT_ALLOWED("name-not-allowed", true, "Invalid name",
            "PTR, CONST, VOLATILE, RESTRICT, ARRAY and FUNC_PROTO must be anonymous"),
    NAME_IDENTIFIER("name-identifier", true, "Invalid name",
            "names must be C identifiers ('.' allowed, at most 512 bytes)"),
    NAME_SECTION("name-section", true, "Invalid name",
            "DATASEC names must be printable, at most 512 bytes"),

    // --- INT, FLOAT, ENUM, FWD ---
    INT_DATA("int-data", false, "Invalid int_data", "the top 4 bits of the INT word (above the encoding) must be 0"),
    INT_ENCODING("int-encoding", true, "Unsupported encoding",
            "INT encoding must be none, SIGNED, CHAR or BOOL (one bit; gcc 12 writes SIGNED|CHAR for char)"),
    INT_BITS("int-bits", false, "nr_bits exceeds type_size",
            "INT offset + bits must be at most 128 and fit in the INT's size"),
    FLOAT_SIZE("float-size", false, "Invalid type_size", "FLOAT size must be 2, 4, 8, 12 or 16"),
    ENUM_SIZE("enum-size", false, "Unexpected size", "ENUM and ENUM64 size must be 1, 2, 4 or 8"),
    FWD_TYPE("fwd-type", false, "type != 0", "the size/type word of a FWD must be 0"),

    // --- ARRAY ---
    ARRAY_SIZE_WORD("array-size-word", false, "size != 0", "the size/type word of an ARRAY must be 0"),
    ARRAY_ELEM("array-elem", false, "Invalid elem", "the element type must be a type with a size"),
    ARRAY_INDEX("array-index", false, "Invalid index",
            "the index type must resolve to a regular INT (8/16/32/64/128 bits, offset 0)"),
    ARRAY_INT_ELEM("array-int-elem", false, "Invalid array of int",
            "an INT element must be a regular INT, not a bitfield INT"),
    ARRAY_OVERFLOW("array-overflow", false, "Array size overflows U32_MAX",
            "element size times count must fit in 32 bits"),

    // --- STRUCT / UNION ---
    MEMBER_TYPE("member-type", false, "Invalid member",
            "a member's type must have a size (not void, FWD, FUNC, FUNC_PROTO, VAR, DATASEC, DECL_TAG)"),
    MEMBER_ORDER("member-order", false, "Invalid member bits_offset",
            "STRUCT member offsets must not decrease"),
    UNION_MEMBER_OFFSET("union-member-offset", false, "Invalid member bits_offset",
            "UNION members must be at offset 0"),
    MEMBER_OFFSET("member-offset", false, "Member bits_offset exceeds its struct size",
            "a member must start inside the STRUCT/UNION"),
    MEMBER_ALIGNMENT("member-alignment", false, "Member is not byte aligned", "non-bitfield members must be byte aligned"),
    FLOAT_ALIGNMENT("float-alignment", true, "Member is not properly aligned",
            "FLOAT members must be aligned to min(8, size) bytes (a double in a packed struct is not)"),
    MEMBER_SIZE("member-size", false, "Member exceeds struct_size",
            "a member must end inside the STRUCT/UNION"),
    BITFIELD("bitfield", false, "Invalid member bitfield_size",
            "bitfields need an INT (regular with kind_flag) or ENUM member type, no more bits than it has, "
                    + "and at most 128 bits to copy"),

    // --- PTR, TYPEDEF, CONST, VOLATILE, RESTRICT, TYPE_TAG ---
    REF_TARGET("ref-target", false, "Invalid type_id",
            "PTR/TYPEDEF/modifiers must refer to a sized type, void, FWD or FUNC_PROTO "
                    + "(not VAR, DATASEC, DECL_TAG, FUNC)"),
    TYPE_TAG_ORDER("type-tag-order", false, "Type tags don't precede modifiers",
            "a TYPE_TAG may not follow CONST/VOLATILE/RESTRICT/TYPEDEF in a modifier chain"),
    MODIFIER_CHAIN("modifier-chain", true, "Max chain length or cycle detected",
            "the kernel walks at most 32 modifiers in one chain"),

    // --- FUNC, FUNC_PROTO ---
    FUNC_LINKAGE("func-linkage", false, "Invalid func linkage",
            "FUNC linkage must be static or global (extern too in the structural profile)"),
    FUNC_PROTO("func-proto", false, "Invalid type_id", "a FUNC must refer to a FUNC_PROTO"),
    FUNC_PARAM_NAME("func-param-name", true, "Invalid arg#",
            "every parameter of a FUNC's prototype must be named (except the vararg marker)"),
    PROTO_RETURN("proto-return", false, "Invalid return type",
            "the return type must be void or a type with a size"),
    PROTO_PARAM("proto-param", false, "Invalid arg#",
            "parameter types must have a size; void only as the last, unnamed parameter (vararg)"),

    // --- VAR, DATASEC ---
    VAR_LINKAGE("var-linkage", false, "Linkage not supported",
            "VAR linkage must be static or global (extern too in the structural profile)"),
    VAR_TYPE("var-type", false, "Invalid type_id", "a VAR's type must have a size"),
    DATASEC_SIZE("datasec-size", true, "size == 0", "a DATASEC must have a size"),
    DATASEC_ENTRY("datasec-entry", false, "Not a VAR kind member",
            "DATASEC entries must refer to VARs with a sized type (FUNCs too in the structural profile)"),
    DATASEC_LAYOUT("datasec-layout", true, "Invalid offset",
            "DATASEC entries must be sorted, not overlap, lie inside the section and cover their VAR"),

    // --- DECL_TAG ---
    DECL_TAG_TARGET("decl-tag-target", false, "Invalid type_id",
            "a DECL_TAG must refer to a STRUCT, UNION, FUNC, VAR or TYPEDEF"),
    DECL_TAG_COMPONENT("decl-tag-component", false, "Invalid component_idx",
            "component_idx is -1, or a member/parameter index of a STRUCT/UNION/FUNC target"),

    // --- reference graph ---
    LOOP("loop", false, "Loop detected",
            "no reference cycle except through a PTR (e.g. no struct containing itself by value)"),
    RESOLVE_DEPTH("resolve-depth", true, "Exceeded max resolving depth:32",
            "the kernel resolves at most 32 not-yet-resolved types in one chain"),

    // --- .BTF.ext (what libbpf and the kernel check before using the records) ---
    EXT_STRING("ext-string", false, "Invalid line_info / name_off",
            ".BTF.ext section names, line_info file names and source lines, and CO-RE access strings must be strings"),
    EXT_FUNC_TYPE("ext-func-type", false, "type_id is not a FUNC",
            "every func_info record must refer to a FUNC"),
    EXT_INSN_ORDER("ext-insn-order", false, "Invalid insn code offset",
            "func_info instruction offsets must increase within a section, line_info offsets must not decrease"),
    EXT_CORE_TYPE("ext-core-type", false, "Invalid type_id",
            "every CO-RE relocation must refer to an existing type");

    private final String id;
    private final boolean kernelOnly;
    private final String kernelMessage;
    private final String summary;

    Rule(String id, boolean kernelOnly, String kernelMessage, String summary) {
        this.id = id;
        this.kernelOnly = kernelOnly;
        this.kernelMessage = kernelMessage;
        this.summary = summary;
    }

    /** The short name findings carry, e.g. {@code "member-size"}. */
    public String id() {
        return id;
    }

    /** Whether the rule is about .BTF.ext records rather than the types. */
    public boolean isExtRule() {
        return id.startsWith("ext-");
    }

    /** Whether the rule is checked only in the {@link Validator.Profile#KERNEL} profile. */
    public boolean kernelOnly() {
        return kernelOnly;
    }

    /** The kernel verifier's log message for this check (prefix, for the {@code arg#} ones). */
    public String kernelMessage() {
        return kernelMessage;
    }

    /** One line saying what the rule requires. */
    public String summary() {
        return summary;
    }

    /** The rule with id {@code id}, or null. */
    public static Rule byId(String id) {
        for (Rule r : values()) {
            if (r.id.equals(id)) {
                return r;
            }
        }
        return null;
    }
}
