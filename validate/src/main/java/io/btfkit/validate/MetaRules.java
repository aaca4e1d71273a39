package io.btfkit.validate;

import io.btfkit.core.Kind;
import io.btfkit.core.StringTable;
import io.btfkit.core.TypeRefs;
import java.util.function.IntConsumer;

/**
 * The per-type field rules the kernel checks in its first pass ({@code btf_check_meta} and each
 * kind's {@code check_meta}): info bits, name offsets and type ids in range, vlen and kind_flag
 * where a kind does not use them, name syntax, INT encoding, FLOAT/ENUM sizes, member offsets,
 * FUNC/VAR linkage, DATASEC entry layout, DECL_TAG component index. Each rule reads only the
 * type's own words and its strings, so this pass needs no resolution.
 *
 * <p>A type that breaks a structural rule is marked {@link Resolver#FAILED}: the resolve pass
 * skips it and everything that depends on it, without cascading findings. Breaking a
 * kernel-only rule (names, linkage, DATASEC layout) does not block resolution.
 *
 * <p>Within one STRUCT/UNION, ENUM or DATASEC only the first broken member is reported, as the
 * kernel stops there too.
 */
final class MetaRules implements IntConsumer {
    private static final int SLOTS_TYPE = 0;
    private static final int SLOTS_STRING = 1;

    private final Types t;
    private final Findings out;
    private final byte[] state;
    private final StringTable strings;
    private final int strEnd;
    private final boolean kernel;

    /** Type being checked, its start word, and which kind of slot {@link #accept} receives. */
    private int cur;
    private int curStart;
    private int slotMode;
    private boolean failed;
    private boolean badStrings;

    MetaRules(Types t, Findings out, byte[] state) {
        this.t = t;
        this.out = out;
        this.state = state;
        this.strings = t.btf.strings();
        this.strEnd = strings.end();
        this.kernel = out.kernel();
    }

    void run() {
        for (int id = t.first; id < t.count && !out.done(); id++) {
            check(id);
        }
    }

    /** Records a finding; a structural one also marks the type as failed. */
    private void fail(Rule rule, String detail) {
        out.add(cur, rule, detail);
        if (!rule.kernelOnly()) {
            failed = true;
        }
    }

    private void check(int id) {
        cur = id;
        failed = false;
        badStrings = false;
        int[] w = t.w;
        int s = t.start(id);
        curStart = s;
        int info = w[s + 1];
        int kind = Kind.kindOf(info);
        if (!Kind.isKnown(kind)) {
            out.add(id, Rule.KIND_UNKNOWN, "kind " + kind + " is not a BTF kind the kernel knows");
            state[id - t.first] = Resolver.FAILED;
            return;
        }
        if ((info & ~0x9f00ffff) != 0) {
            fail(Rule.INFO_BITS, String.format("info word 0x%08x has bits outside 0x9f00ffff set", info));
        }
        slotMode = SLOTS_STRING;
        TypeRefs.forEachStringSlot(w, s, this);
        slotMode = SLOTS_TYPE;
        TypeRefs.forEachTypeIdSlot(w, s, this);
        int vlen = Kind.vlenOf(info);
        boolean kflag = info < 0;
        switch (kind) {
            case Kind.INT:
                noVlen(vlen);
                noKindFlag(kflag);
                checkInt(w[s + 2], w[s + 3]);
                break;
            case Kind.PTR:
            case Kind.CONST:
            case Kind.VOLATILE:
            case Kind.RESTRICT:
                noVlen(vlen);
                noKindFlag(kflag);
                anonymous(w[s]);
                break;
            case Kind.TYPEDEF:
                noVlen(vlen);
                noKindFlag(kflag);
                named(w[s], true);
                break;
            case Kind.TYPE_TAG:
                noVlen(vlen);
                nonEmptyValue(w[s]);
                break;
            case Kind.ARRAY:
                checkArray(w, s, vlen, kflag);
                break;
            case Kind.STRUCT:
            case Kind.UNION:
                optionalIdentifier(w[s]);
                checkMembers(w, s, kind == Kind.UNION, vlen, kflag);
                break;
            case Kind.ENUM:
            case Kind.ENUM64:
                checkEnum(w, s, kind, vlen);
                break;
            case Kind.FWD:
                noVlen(vlen);
                if (w[s + 2] != 0) {
                    fail(Rule.FWD_TYPE, "size/type word is " + Integer.toUnsignedString(w[s + 2]) + ", must be 0");
                }
                named(w[s], true);
                break;
            case Kind.FUNC:
                named(w[s], true);
                linkage(Rule.FUNC_LINKAGE, vlen);
                noKindFlag(kflag);
                break;
            case Kind.FUNC_PROTO:
                anonymous(w[s]);
                noKindFlag(kflag);
                break;
            case Kind.VAR:
                checkVar(w, s, vlen, kflag);
                break;
            case Kind.DATASEC:
                checkDatasec(w, s, vlen, kflag);
                break;
            case Kind.FLOAT:
                noVlen(vlen);
                noKindFlag(kflag);
                int size = w[s + 2];
                if (size != 2 && size != 4 && size != 8 && size != 12 && size != 16) {
                    fail(Rule.FLOAT_SIZE, "size " + Integer.toUnsignedString(size) + " is not 2, 4, 8, 12 or 16");
                }
                break;
            case Kind.DECL_TAG:
                nonEmptyValue(w[s]);
                noVlen(vlen);
                if (w[s + 3] < -1) {
                    fail(Rule.DECL_TAG_COMPONENT, "component_idx " + w[s + 3] + " is below -1");
                }
                break;
            default:
                break;
        }
        if (failed) {
            state[id - t.first] = Resolver.FAILED;
        }
    }

    /** Receives type-id slots, then string slots, of the current type from {@link TypeRefs}. */
    @Override
    public void accept(int slot) {
        int v = t.w[slot];
        if (slotMode == SLOTS_TYPE) {
            if (Integer.compareUnsigned(v, t.count) >= 0) {
                fail(Rule.TYPE_ID, slotName(slot) + " refers to type " + Integer.toUnsignedString(v) + ", but the last type id is "
                        + (t.count - 1));
            }
        } else if (Integer.compareUnsigned(v, strEnd) >= 0) {
            badStrings = true;
            fail(Rule.NAME_OFFSET, (slot == curStart ? "name" : "name of member/value/parameter at word " + (slot - curStart))
                    + " offset " + Integer.toUnsignedString(v) + " is past the string section end " + strEnd);
        }
    }

    private String slotName(int slot) {
        int kind = Kind.kindOf(t.w[curStart + 1]);
        int rel = slot - curStart;
        switch (kind) {
            case Kind.ARRAY:
                return rel == 3 ? "element type" : "index type";
            case Kind.STRUCT:
            case Kind.UNION:
                return "member " + (rel - 4) / 3;
            case Kind.FUNC_PROTO:
                return rel == 2 ? "return type" : "parameter " + (rel - 4) / 2;
            case Kind.DATASEC:
                return "entry " + (rel - 3) / 3;
            default:
                return "type";
        }
    }

    /**
     * FUNC/VAR linkage: above extern it is malformed in any profile; extern is a kernel policy
     * (libbpf resolves externs before loading), which does not stop the type being resolved.
     */
    private void linkage(Rule rule, long linkage) {
        if (linkage > Kind.LINKAGE_EXTERN) {
            fail(rule, "linkage " + linkage + " is not static (0), global (1) or extern (2)");
        } else if (linkage == Kind.LINKAGE_EXTERN && kernel) {
            out.add(cur, rule, "linkage extern (2) is not loadable; the kernel takes static (0) or global (1)");
        }
    }

    // --- small shared checks ---

    private void noVlen(int vlen) {
        if (vlen != 0) {
            fail(Rule.VLEN, "vlen is " + vlen + ", must be 0");
        }
    }

    private void noKindFlag(boolean kflag) {
        if (kflag) {
            fail(Rule.KIND_FLAG, "kind_flag is set");
        }
    }

    private boolean nameChecked(int off) {
        return kernel && !badStrings && Integer.compareUnsigned(off, strEnd) < 0;
    }

    private void anonymous(int nameOff) {
        if (kernel && nameOff != 0) {
            fail(Rule.NAME_NOT_ALLOWED, "has name '" + out.string(nameOff) + "' (offset " + Integer.toUnsignedString(nameOff)
                    + "), must be anonymous");
        }
    }

    /** Name required; with {@code identifier}, it must also be a C identifier. */
    private void named(int nameOff, boolean identifier) {
        if (!nameChecked(nameOff)) {
            return;
        }
        if (nameOff == 0 || Names.isEmpty(strings, nameOff)) {
            fail(Rule.NAME_MISSING, "has no name");
        } else if (identifier && !Names.isIdentifier(strings, nameOff)) {
            fail(Rule.NAME_IDENTIFIER, "name '" + out.string(nameOff) + "' is not a valid identifier");
        }
    }

    private void optionalIdentifier(int nameOff) {
        if (nameOff != 0 && nameChecked(nameOff) && !Names.isIdentifier(strings, nameOff)) {
            fail(Rule.NAME_IDENTIFIER, "name '" + out.string(nameOff) + "' is not a valid identifier");
        }
    }

    private void nonEmptyValue(int nameOff) {
        if (nameChecked(nameOff) && Names.isEmpty(strings, nameOff)) {
            fail(Rule.NAME_MISSING, "tag value is empty");
        }
    }

    // --- kinds ---

    private void checkInt(int size, int data) {
        if ((data & 0xf0000000) != 0) {
            fail(Rule.INT_DATA, String.format("INT word 0x%08x has its top 4 bits set", data));
            return;
        }
        int bits = data & 0xff;
        int offset = (data >>> 16) & 0xff;
        int nr = bits + offset;
        if (nr > 128) {
            fail(Rule.INT_BITS, "offset " + offset + " + bits " + bits + " = " + nr + " exceeds 128");
        } else if ((nr + 7) / 8 > Types.u32(size)) {
            fail(Rule.INT_BITS, "offset " + offset + " + bits " + bits + " needs " + (nr + 7) / 8 + " bytes, size is "
                    + Integer.toUnsignedString(size));
        }
        int enc = (data >>> 24) & 0x0f;
        if (enc != 0 && enc != Kind.INT_SIGNED && enc != Kind.INT_CHAR && enc != Kind.INT_BOOL) {
            fail(Rule.INT_ENCODING, "encoding 0x" + Integer.toHexString(enc) + " is not one of none, SIGNED, CHAR, BOOL");
        }
    }

    private void checkArray(int[] w, int s, int vlen, boolean kflag) {
        anonymous(w[s]);
        noVlen(vlen);
        noKindFlag(kflag);
        if (w[s + 2] != 0) {
            fail(Rule.ARRAY_SIZE_WORD, "size/type word is " + Integer.toUnsignedString(w[s + 2]) + ", must be 0");
        }
        if (w[s + 3] == 0) {
            fail(Rule.ARRAY_ELEM, "element type is void");
        }
        if (w[s + 4] == 0) {
            fail(Rule.ARRAY_INDEX, "index type is void");
        }
    }

    private void checkMembers(int[] w, int s, boolean union, int vlen, boolean kflag) {
        long size = Types.u32(w[s + 2]);
        long last = 0;
        for (int i = 0, m = s + 3; i < vlen; i++, m += 3) {
            int nameOff = w[m];
            if (nameOff != 0 && nameChecked(nameOff) && !Names.isIdentifier(strings, nameOff)) {
                fail(Rule.NAME_IDENTIFIER, "member " + i + " name '" + out.string(nameOff) + "' is not a valid identifier");
                return;
            }
            if (w[m + 1] == 0) {
                fail(Rule.MEMBER_TYPE, "member " + i + " '" + out.string(nameOff) + "' has type void");
                return;
            }
            long off = kflag ? w[m + 2] & 0xffffff : Types.u32(w[m + 2]);
            if (union && off != 0) {
                fail(Rule.UNION_MEMBER_OFFSET, "member " + i + " '" + out.string(nameOff) + "' is at bit offset " + off);
                return;
            }
            if (last > off) {
                fail(Rule.MEMBER_ORDER, "member " + i + " '" + out.string(nameOff) + "' at bit offset " + off
                        + " comes after a member at bit offset " + last);
                return;
            }
            if ((off + 7) / 8 > size) {
                fail(Rule.MEMBER_OFFSET, "member " + i + " '" + out.string(nameOff) + "' at bit offset " + off
                        + " starts past the size " + size);
                return;
            }
            last = off;
        }
    }

    private void checkEnum(int[] w, int s, int kind, int vlen) {
        long size = Types.u32(w[s + 2]);
        if (size > 8 || Long.bitCount(size) != 1) {
            fail(Rule.ENUM_SIZE, "size " + size + " is not 1, 2, 4 or 8");
        }
        optionalIdentifier(w[s]);
        if (!kernel || badStrings) {
            return;
        }
        int step = kind == Kind.ENUM ? 2 : 3;
        for (int i = 0, e = s + 3; i < vlen; i++, e += step) {
            int nameOff = w[e];
            if (nameOff == 0 || Names.isEmpty(strings, nameOff)) {
                fail(Rule.NAME_MISSING, "enumerator " + i + " has no name");
                return;
            }
            if (!Names.isIdentifier(strings, nameOff)) {
                fail(Rule.NAME_IDENTIFIER, "enumerator " + i + " name '" + out.string(nameOff) + "' is not a valid identifier");
                return;
            }
        }
    }

    private void checkVar(int[] w, int s, int vlen, boolean kflag) {
        noVlen(vlen);
        noKindFlag(kflag);
        named(w[s], true);
        if (w[s + 2] == 0) {
            fail(Rule.VAR_TYPE, "type is void");
        }
        linkage(Rule.VAR_LINKAGE, Types.u32(w[s + 3]));
    }

    private void checkDatasec(int[] w, int s, int vlen, boolean kflag) {
        long size = Types.u32(w[s + 2]);
        if (size == 0) {
            fail(Rule.DATASEC_SIZE, "size is 0");
        }
        noKindFlag(kflag);
        int nameOff = w[s];
        if (nameChecked(nameOff)) {
            if (nameOff == 0 || Names.isEmpty(strings, nameOff)) {
                fail(Rule.NAME_MISSING, "has no name");
            } else if (!Names.isSectionName(strings, nameOff)) {
                fail(Rule.NAME_SECTION, "name '" + out.string(nameOff) + "' has unprintable bytes or is too long");
            }
        }
        long lastEnd = 0;
        long sum = 0;
        for (int i = 0, e = s + 3; i < vlen; i++, e += 3) {
            if (w[e] == 0) {
                fail(Rule.DATASEC_ENTRY, "entry " + i + " refers to void");
                return;
            }
            if (!kernel) {
                continue;
            }
            long off = Types.u32(w[e + 1]);
            long esize = Types.u32(w[e + 2]);
            if (off < lastEnd || off >= size) {
                fail(Rule.DATASEC_LAYOUT, "entry " + i + " offset " + off + (off < lastEnd ? " overlaps the previous entry, which ends at "
                        + lastEnd : " is not below the section size " + size));
                return;
            }
            if (esize == 0 || esize > size) {
                fail(Rule.DATASEC_LAYOUT, "entry " + i + " size " + esize + " is 0 or larger than the section size " + size);
                return;
            }
            lastEnd = off + esize;
            if (lastEnd > size) {
                fail(Rule.DATASEC_LAYOUT, "entry " + i + " ends at " + lastEnd + ", past the section size " + size);
                return;
            }
            sum += esize;
        }
        if (kernel && sum > size) {
            fail(Rule.DATASEC_LAYOUT, "entries total " + sum + " bytes, more than the section size " + size);
        }
    }
}
