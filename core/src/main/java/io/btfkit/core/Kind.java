package io.btfkit.core;

/**
 * BTF kinds (uapi {@code BTF_KIND_*}) and the per-kind facts every pass needs: the word
 * layout after the 12-byte {@code struct btf_type} and the spelling bpftool prints.
 *
 * <p>Kinds are plain {@code int}s, not an enum: the model stores them packed in the info
 * word and hot loops switch on them.
 */
public final class Kind {
    public static final int UNKN = 0;
    public static final int INT = 1;
    public static final int PTR = 2;
    public static final int ARRAY = 3;
    public static final int STRUCT = 4;
    public static final int UNION = 5;
    public static final int ENUM = 6;
    public static final int FWD = 7;
    public static final int TYPEDEF = 8;
    public static final int VOLATILE = 9;
    public static final int CONST = 10;
    public static final int RESTRICT = 11;
    public static final int FUNC = 12;
    public static final int FUNC_PROTO = 13;
    public static final int VAR = 14;
    public static final int DATASEC = 15;
    public static final int FLOAT = 16;
    public static final int DECL_TAG = 17;
    public static final int TYPE_TAG = 18;
    public static final int ENUM64 = 19;

    /** Highest kind this toolkit understands; higher kinds are readable only through a layout section. */
    public static final int MAX_KNOWN = ENUM64;
    /** Number of kinds including UNKN: the length of the layout table btfkit writes. */
    public static final int COUNT = MAX_KNOWN + 1;

    /** INT encoding bits (BTF_INT_ENCODING). */
    public static final int INT_SIGNED = 1;
    public static final int INT_CHAR = 2;
    public static final int INT_BOOL = 4;

    /** FUNC and VAR linkage values. */
    public static final int LINKAGE_STATIC = 0;
    public static final int LINKAGE_GLOBAL = 1;
    public static final int LINKAGE_EXTERN = 2;

    private static final String[] NAMES = {
        "UNKNOWN", "INT", "PTR", "ARRAY", "STRUCT", "UNION", "ENUM", "FWD", "TYPEDEF", "VOLATILE",
        "CONST", "RESTRICT", "FUNC", "FUNC_PROTO", "VAR", "DATASEC", "FLOAT", "DECL_TAG", "TYPE_TAG",
        "ENUM64",
    };

    /** Words of data after the 3-word common header, fixed part ("info_sz" / 4). */
    private static final int[] INFO_WORDS = {0, 1, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0};
    /** Words per vlen element ("elem_sz" / 4). */
    private static final int[] ELEM_WORDS = {0, 0, 0, 0, 3, 3, 2, 0, 0, 0, 0, 0, 0, 2, 0, 3, 0, 0, 0, 3};

    private Kind() {
    }

    /** The upper-case word bpftool prints for this kind ("UNKNOWN" for anything it does not know). */
    public static String name(int kind) {
        return kind >= 0 && kind <= MAX_KNOWN ? NAMES[kind] : "UNKNOWN";
    }

    /** The kind named by {@code word} (as printed by bpftool), or -1. */
    public static int byName(String word) {
        for (int k = 1; k <= MAX_KNOWN; k++) {
            if (NAMES[k].equals(word)) {
                return k;
            }
        }
        return -1;
    }

    public static boolean isKnown(int kind) {
        return kind >= 1 && kind <= MAX_KNOWN;
    }

    /** Fixed extra words after the common header for a known kind. */
    public static int infoWords(int kind) {
        return INFO_WORDS[kind];
    }

    /** Words per vlen element for a known kind (0 when vlen counts nothing, e.g. FUNC linkage). */
    public static int elemWords(int kind) {
        return ELEM_WORDS[kind];
    }

    /** Total words of a type of a known kind with the given vlen, common header included. */
    public static long typeWords(int kind, int vlen) {
        return 3L + INFO_WORDS[kind] + (long) ELEM_WORDS[kind] * vlen;
    }

    /** Kinds whose third word is a size in bytes rather than a type id. */
    public static boolean hasSize(int kind) {
        switch (kind) {
            case INT:
            case STRUCT:
            case UNION:
            case ENUM:
            case DATASEC:
            case FLOAT:
            case ENUM64:
                return true;
            default:
                return false;
        }
    }

    /** Kinds whose third word is a type id (FUNC_PROTO: the return type). */
    public static boolean hasTypeRef(int kind) {
        switch (kind) {
            case PTR:
            case TYPEDEF:
            case VOLATILE:
            case CONST:
            case RESTRICT:
            case FUNC:
            case FUNC_PROTO:
            case VAR:
            case DECL_TAG:
            case TYPE_TAG:
                return true;
            default:
                return false;
        }
    }

    public static boolean isComposite(int kind) {
        return kind == STRUCT || kind == UNION;
    }

    public static boolean isEnum(int kind) {
        return kind == ENUM || kind == ENUM64;
    }

    /** Modifiers that only qualify the referenced type: CONST, VOLATILE, RESTRICT, TYPE_TAG. */
    public static boolean isModifier(int kind) {
        return kind == CONST || kind == VOLATILE || kind == RESTRICT || kind == TYPE_TAG;
    }

    // --- info word ---

    public static int kindOf(int info) {
        return (info >>> 24) & 0x7f;
    }

    public static int vlenOf(int info) {
        return info & 0xffffff;
    }

    public static boolean kindFlagOf(int info) {
        return info < 0;
    }

    public static int info(int kind, int vlen, boolean kindFlag) {
        return (kindFlag ? 0x80000000 : 0) | (kind << 24) | (vlen & 0xffffff);
    }
}
