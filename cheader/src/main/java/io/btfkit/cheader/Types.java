package io.btfkit.cheader;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import io.btfkit.core.StringTable;
import io.btfkit.core.TypeRefs;

/**
 * A flat, read-only view of every type id of a BTF and its bases (ids {@code 1..count-1}):
 * the type words of all of them in one {@code int[]} and each id's start word, so the printer
 * reads any type, base or split, with one array index. Id 0 is void (kind UNKN, no name).
 */
final class Types {
    final StringTable strings;
    final int count;
    /** Bytes of the type and string sections of the BTF and its bases: the size of the input. */
    final long inputBytes;
    private final int[] w;
    private final int[] st;

    Types(Btf btf) {
        this.strings = btf.strings();
        this.count = btf.typeCount();
        int depth = 0;
        long words = 0;
        for (Btf b = btf; b != null; b = b.base()) {
            depth++;
            words += b.starts()[b.ownTypeCount()];
        }
        if (words > Integer.MAX_VALUE - 8) {
            throw new OperationException("type sections too large to print as C (" + words + " words)");
        }
        this.inputBytes = 4 * words + strings.end();
        Btf[] chain = new Btf[depth];
        Btf b = btf;
        for (int i = depth - 1; i >= 0; i--, b = b.base()) {
            chain[i] = b;
        }
        w = new int[(int) words + 3];
        st = new int[count];
        int at = 3; // words 0..2 stand for void: name 0, info 0 (UNKN), size 0
        for (Btf seg : chain) {
            int[] sw = seg.words();
            int[] ss = seg.starts();
            int n = seg.ownTypeCount();
            System.arraycopy(sw, 0, w, at, ss[n]);
            for (int i = 0; i < n; i++) {
                st[seg.firstId() + i] = at + ss[i];
            }
            at += ss[n];
        }
        for (int id = 1; id < count; id++) {
            if (!Kind.isKnown(kind(id))) {
                throw new OperationException("type [" + id + "]: kind " + kind(id) + " cannot be printed as C");
            }
        }
    }

    int kind(int id) {
        return Kind.kindOf(w[st[id] + 1]);
    }

    int vlen(int id) {
        return Kind.vlenOf(w[st[id] + 1]);
    }

    boolean kflag(int id) {
        return w[st[id] + 1] < 0;
    }

    int nameOff(int id) {
        return w[st[id]];
    }

    boolean named(int id) {
        return w[st[id]] != 0;
    }

    /** The size word (INT, STRUCT, UNION, ENUM, ENUM64, FLOAT, DATASEC). */
    int size(int id) {
        return w[st[id] + 2];
    }

    /** The referenced type (PTR, TYPEDEF, modifiers, TYPE_TAG, FUNC, VAR, DECL_TAG; FUNC_PROTO's return type). */
    int ref(int id) {
        return w[st[id] + 2];
    }

    int arrayElem(int id) {
        return w[st[id] + 3];
    }

    int arrayLen(int id) {
        return w[st[id] + 5];
    }

    int memberName(int id, int i) {
        return w[st[id] + 3 + 3 * i];
    }

    int memberType(int id, int i) {
        return w[st[id] + 4 + 3 * i];
    }

    /** Bit offset of member {@code i} (the low 24 bits when the kind_flag encodes bitfields). */
    int memberBitOffset(int id, int i) {
        int off = w[st[id] + 5 + 3 * i];
        return kflag(id) ? off & 0xffffff : off;
    }

    /** Bitfield size of member {@code i}, 0 for an ordinary member. */
    int memberBitfieldSize(int id, int i) {
        return kflag(id) ? w[st[id] + 5 + 3 * i] >>> 24 : 0;
    }

    /** The raw offset word of member {@code i}, as libbpf's alignment checks read it. */
    int memberOffsetWord(int id, int i) {
        return w[st[id] + 5 + 3 * i];
    }

    int paramName(int id, int i) {
        return w[st[id] + 3 + 2 * i];
    }

    int paramType(int id, int i) {
        return w[st[id] + 4 + 2 * i];
    }

    int enumName(int id, int i) {
        return w[st[id] + 3 + 2 * i];
    }

    int enumValue(int id, int i) {
        return w[st[id] + 4 + 2 * i];
    }

    int enum64Name(int id, int i) {
        return w[st[id] + 3 + 3 * i];
    }

    long enum64Value(int id, int i) {
        int s = st[id] + 4 + 3 * i;
        return ((long) w[s + 1] << 32) | (w[s] & 0xffffffffL);
    }

    int enum64High(int id, int i) {
        return w[st[id] + 5 + 3 * i];
    }

    /** The type's name, one char per byte ("" when anonymous or invalid). */
    String name(int id) {
        String s = strings.latin1(nameOff(id));
        return s == null ? "" : s;
    }

    /** Whether {@code name(id)} equals the ASCII string {@code s}, without building a String. */
    boolean nameIs(int id, String s) {
        int off = nameOff(id);
        if (off == 0 || !strings.isValid(off) || strings.lengthAt(off) != s.length()) {
            return false;
        }
        StringTable t = strings.tableOf(off);
        byte[] d = t.bytes();
        int at = t.localIndex(off);
        for (int i = 0; i < s.length(); i++) {
            if (d[at + i] != (byte) s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Marks in {@code referenced} each type id that type {@code id} refers to, as libbpf's C
     * dumper counts "referenced": every {@link TypeRefs} slot except a FUNC_PROTO's return type.
     */
    void markReferenced(int id, boolean[] referenced) {
        int s = st[id];
        int n = TypeRefs.typeIdCount(w, s);
        boolean proto = kind(id) == Kind.FUNC_PROTO;
        for (int i = 0; i < n; i++) {
            int target = w[TypeRefs.typeIdSlot(w, s, i)];
            if (target < 0 || target >= count) {
                throw new BtfFormatException("type [" + id + "] refers to type id " + Integer.toUnsignedString(target)
                        + ", which does not exist");
            }
            if (!(proto && i == 0)) {
                referenced[target] = true;
            }
        }
    }
}
