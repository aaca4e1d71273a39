package io.btfkit.gcc;

/**
 * The encodings GCC 12 ({@code gcc -gbtf}) writes that differ from the BTF the kernel, libbpf,
 * clang and pahole agree on, each named by a stable rule id ({@code gcc-...}) that warnings and
 * {@code btfkit validate} print.
 *
 * <p>Each quirk says what it is, whether the kernel rejects BTF that has it, and how btfkit
 * treats it: {@link Treatment#NORMALISED} ones have one correct meaning and are rewritten
 * wherever the meaning is used (link, and {@code --fix}); {@link Treatment#FIXED} ones only
 * with {@code --fix}; {@link Treatment#FIXED_WITH_SYMBOLS} ones with {@code --fix} when the
 * object's ELF symbol table proves the value; {@link Treatment#REPORTED} ones cannot be
 * repaired from what the file holds. How each is detected and repaired: docs/GCC.md.
 */
public enum GccQuirk {
    FWD_TYPE_FIELD("gcc-fwd-type-field", true, Treatment.NORMALISED,
            "FWD whose size/type word is not 0 (gcc 12 leaves an internal id there)", "the word becomes 0"),
    ENUM_FWD("gcc-enum-fwd", false, Treatment.NORMALISED,
            "enum forward declaration written as a struct FWD", "it becomes ENUM size=4 vlen=0"),
    CONCATENATED_BLOBS("gcc-concatenated-blobs", false, Treatment.NORMALISED,
            "several BTF blobs back to back in one .BTF section (ld -r)", "each blob is one compilation unit"),
    ARRAY_INDEX_VOID("gcc-array-index-void", true, Treatment.NORMALISED,
            "ARRAY of unknown bound indexed by void", "it gets the unit's array index type"),
    CHAR_ENCODING("gcc-char-encoding", true, Treatment.FIXED,
            "INT with encoding SIGNED|CHAR (gcc 12's 'char' and 'signed char'; bpftool prints UNKN)", "SIGNED"),
    ANON_FUNC("gcc-anon-func", true, Treatment.FIXED,
            "anonymous FUNC, one per function-pointer type", "removed"),
    DUPLICATE_VAR("gcc-duplicate-var", false, Treatment.FIXED,
            "a variable written twice (its extern declaration and its definition)", "the copy a DATASEC lists is kept"),
    DATASEC_LAYOUT("gcc-datasec-layout", true, Treatment.FIXED_WITH_SYMBOLS,
            "DATASEC with size 0 and variable offsets 0 (left to the loader)",
            "size and offsets from the object's section and symbol tables"),
    DATASEC_SECTION("gcc-datasec-section", true, Treatment.FIXED_WITH_SYMBOLS,
            "variable listed in the DATASEC of a section other than the one holding it",
            "moved to the DATASEC of its section"),
    EXTERN_VAR("gcc-extern-var", false, Treatment.FIXED_WITH_SYMBOLS,
            "extern variable listed in a DATASEC as a global", "taken out of the DATASEC"),
    FUNC_LINKAGE("gcc-func-linkage", false, Treatment.FIXED_WITH_SYMBOLS,
            "FUNC marked static although its symbol is global", "global"),
    EXTERN_FUNC("gcc-extern-func", true, Treatment.FIXED_WITH_SYMBOLS,
            "FUNC marked static of a function the object does not define (undefined symbol, or a declaration"
                + " without parameter names)", "removed (the kernel has no extern FUNC)"),
    ENUM_SIZE8("gcc-enum-size8", false, Treatment.REPORTED,
            "8-byte enum written as ENUM (no ENUM64): enumerators that do not fit in 32 bits are lost", ""),
    ENUM_UNSIGNED("gcc-enum-unsigned", false, Treatment.REPORTED,
            "enum with a value of 2^31 or more not marked signed (gcc 12 never sets the flag; likely negative)", ""),
    FWD_KIND_UNKNOWN("gcc-fwd-kind-unknown", false, Treatment.REPORTED,
            "FWD that may declare a struct or an enum: neither its bytes nor the names defined prove which",
            "");

    /** How btfkit treats a quirk. */
    public enum Treatment {
        /** Rewritten by link (and dedup) by default, and by --fix. */
        NORMALISED,
        /** Rewritten by --fix. */
        FIXED,
        /** Rewritten by --fix when the object's ELF symbol table proves the value. */
        FIXED_WITH_SYMBOLS,
        /** Reported only: the file does not hold what a repair would need. */
        REPORTED
    }

    private final String id;
    private final boolean kernelRejects;
    private final Treatment treatment;
    private final String summary;
    private final String repair;

    GccQuirk(String id, boolean kernelRejects, Treatment treatment, String summary, String repair) {
        this.id = id;
        this.kernelRejects = kernelRejects;
        this.treatment = treatment;
        this.summary = summary;
        this.repair = repair;
    }

    /** The rule id, e.g. {@code gcc-fwd-type-field}. */
    public String id() {
        return id;
    }

    /** Whether the kernel refuses to load BTF with this quirk. */
    public boolean kernelRejects() {
        return kernelRejects;
    }

    public Treatment treatment() {
        return treatment;
    }

    /** One line saying what the quirk is. */
    public String summary() {
        return summary;
    }

    /** What the repair writes ("" for {@link Treatment#REPORTED} quirks). */
    public String repair() {
        return repair;
    }

    /**
     * How btfkit treats it, e.g. {@code "link normalises it: the word becomes 0"} or
     * {@code "convert --fix: SIGNED"} (the command that rewrites one file; link --fix does the same
     * to the files it links); {@code fixable} of {@code found} are repaired by --fix here.
     */
    public String treatmentText(int fixable, int found) {
        switch (treatment) {
            case NORMALISED:
                return "link normalises it: " + repair;
            case FIXED:
            case FIXED_WITH_SYMBOLS:
                String which = fixable == found ? "" : " (" + fixable + " of " + found
                        + (treatment == Treatment.FIXED_WITH_SYMBOLS ? "; needs one unit and the object's symbol table" : "")
                        + ")";
                return "convert --fix" + which + ": " + repair;
            default:
                return "not repairable from the file";
        }
    }

    /** The quirk with rule id {@code id}, or null. */
    public static GccQuirk byId(String id) {
        for (GccQuirk q : values()) {
            if (q.id.equals(id)) {
                return q;
            }
        }
        return null;
    }
}
