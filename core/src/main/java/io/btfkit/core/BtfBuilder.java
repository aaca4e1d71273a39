package io.btfkit.core;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds a {@link Btf} type by type, like libbpf's {@code btf__add_*} API: each {@code add*}
 * appends one type and returns its id; members, parameters, enumerators and DATASEC entries are
 * appended to the type added last. Strings are deduplicated (an equal string of the base, then
 * of this BTF, is reused), as {@code btf__add_str} does.
 *
 * <p>Example: {@code b.addInt("int", 4, Kind.INT_SIGNED); b.addPtr(1);} builds
 * {@code [1] INT 'int' ... [2] PTR '(anon)' type_id=1}.
 */
public final class BtfBuilder {
    private final Btf base;
    private final int firstId;
    private final StringTable baseStrings;
    private final int strStart;
    private final StringPool strings;
    private int[] words = new int[1024];
    private int size;
    private final IntArrayList starts = new IntArrayList();
    /** Start word of the type that members/params/values are appended to, or -1. */
    private int open = -1;
    private Btf.RawFormat format = Btf.RawFormat.CLASSIC;

    /** Standalone BTF; the string section starts with the empty string. */
    public BtfBuilder() {
        this(null);
    }

    /** Split BTF on {@code base} (standalone when null). */
    public BtfBuilder(Btf base) {
        this.base = base;
        this.firstId = base == null ? 1 : base.typeCount();
        this.baseStrings = base == null ? null : base.strings();
        this.strStart = base == null ? 0 : base.strings().end();
        this.strings = new StringPool();
        if (base == null) {
            strings.add(new byte[0]);
        } else {
            format = base.format();
        }
    }

    /**
     * A builder whose own string section starts as a copy of {@code initial} (kept byte for
     * byte, duplicates included); new strings are appended after it.
     */
    public BtfBuilder(Btf base, byte[] initial) {
        this.base = base;
        this.firstId = base == null ? 1 : base.typeCount();
        this.baseStrings = base == null ? null : base.strings();
        this.strStart = base == null ? 0 : base.strings().end();
        this.strings = new StringPool(initial.length + 64);
        int i = 0;
        while (i < initial.length) {
            int j = i;
            while (j < initial.length && initial[j] != 0) {
                j++;
            }
            if (strings.find(initial, i, j - i) >= 0) {
                strings.appendUnique(initial, i, j - i);
            } else {
                strings.add(initial, i, j - i);
            }
            i = j + 1;
        }
        if (base != null) {
            format = base.format();
        }
    }

    public BtfBuilder format(Btf.RawFormat f) {
        this.format = f;
        return this;
    }

    public Btf base() {
        return base;
    }

    /** Id the next added type will get. */
    public int nextId() {
        return firstId + starts.size();
    }

    /** Number of types added so far. */
    public int typeCount() {
        return starts.size();
    }

    // --- strings ---

    /** Offset of {@code s} (UTF-8), reusing an equal string of the base or of this BTF; "" is 0. */
    public int addString(String s) {
        return addString(s.getBytes(StandardCharsets.UTF_8));
    }

    public int addString(byte[] s) {
        if (s.length == 0 && base == null) {
            return 0;
        }
        if (baseStrings != null) {
            int off = baseStrings.find(s);
            if (off >= 0) {
                return off;
            }
        }
        return strStart + strings.add(s, 0, s.length);
    }

    /** Adds a string of another table, given by offset, reusing an equal one. */
    public int addString(StringTable from, int off) {
        StringTable t = from.tableOf(off);
        int i = off - t.start();
        return addString(Arrays.copyOfRange(t.bytes(), i, i + from.lengthAt(off)));
    }

    private int name(String s) {
        return s == null || s.isEmpty() ? 0 : addString(s);
    }

    // --- raw types ---

    /**
     * Appends one type given as raw words (name_off, info, size/type, extras), which must be
     * complete for its kind and vlen; string offsets and type ids are taken as they are.
     */
    public int addRaw(int[] src, int from, int count) {
        int id = beginType();
        ensure(count);
        System.arraycopy(src, from, words, size, count);
        size += count;
        open = -1;
        return id;
    }

    private int beginType() {
        int id = nextId();
        starts.add(size);
        return id;
    }

    private int header(String name, int kind, int vlen, boolean kflag, int sizeOrType) {
        int nameOff = name(name);
        int id = beginType();
        open = size;
        push(nameOff);
        push(Kind.info(kind, vlen, kflag));
        push(sizeOrType);
        return id;
    }

    private void push(int w) {
        ensure(1);
        words[size++] = w;
    }

    private void ensure(int n) {
        if (size + n > words.length) {
            words = Arrays.copyOf(words, Math.max(size + n, words.length * 2));
        }
    }

    private int openKind() {
        if (open < 0) {
            throw new IllegalStateException("no type to append to");
        }
        return Kind.kindOf(words[open + 1]);
    }

    private void bumpVlen(boolean setKindFlag) {
        int info = words[open + 1];
        words[open + 1] = Kind.info(Kind.kindOf(info), Kind.vlenOf(info) + 1, Kind.kindFlagOf(info) || setKindFlag);
    }

    // --- typed adds (libbpf btf__add_*) ---

    public int addInt(String name, int byteSize, int encoding) {
        return addInt(name, byteSize, encoding, 0, byteSize * 8);
    }

    public int addInt(String name, int byteSize, int encoding, int bitOffset, int bits) {
        int id = header(name, Kind.INT, 0, false, byteSize);
        push((encoding & 0x0f) << 24 | (bitOffset & 0xff) << 16 | (bits & 0xff));
        open = -1;
        return id;
    }

    public int addFloat(String name, int byteSize) {
        int id = header(name, Kind.FLOAT, 0, false, byteSize);
        open = -1;
        return id;
    }

    private int addRef(int kind, String name, int ref, boolean kflag) {
        int id = header(name, kind, 0, kflag, ref);
        open = -1;
        return id;
    }

    public int addPtr(int ref) {
        return addRef(Kind.PTR, null, ref, false);
    }

    public int addConst(int ref) {
        return addRef(Kind.CONST, null, ref, false);
    }

    public int addVolatile(int ref) {
        return addRef(Kind.VOLATILE, null, ref, false);
    }

    public int addRestrict(int ref) {
        return addRef(Kind.RESTRICT, null, ref, false);
    }

    public int addTypedef(String name, int ref) {
        return addRef(Kind.TYPEDEF, name, ref, false);
    }

    public int addTypeTag(String value, int ref) {
        return addRef(Kind.TYPE_TAG, value, ref, false);
    }

    /** TYPE_TAG with the "attribute" flavour (kind_flag set). */
    public int addTypeAttr(String value, int ref) {
        return addRef(Kind.TYPE_TAG, value, ref, true);
    }

    public int addFunc(String name, int proto, int linkage) {
        int id = header(name, Kind.FUNC, linkage, false, proto);
        open = -1;
        return id;
    }

    public int addArray(int elemType, int indexType, int nelems) {
        int id = header(null, Kind.ARRAY, 0, false, 0);
        push(elemType);
        push(indexType);
        push(nelems);
        open = -1;
        return id;
    }

    public int addStruct(String name, int byteSize) {
        return header(name, Kind.STRUCT, 0, false, byteSize);
    }

    public int addUnion(String name, int byteSize) {
        return header(name, Kind.UNION, 0, false, byteSize);
    }

    /**
     * Appends a member to the last STRUCT/UNION. A non-zero bitfield size switches the type to
     * kind_flag encoding (offset in the low 24 bits, size in the high 8), as libbpf does.
     */
    public void addMember(String name, int type, int bitOffset, int bitfieldSize) {
        int k = openKind();
        if (!Kind.isComposite(k)) {
            throw new IllegalStateException("last type is not a STRUCT or UNION");
        }
        boolean kflag = bitfieldSize != 0;
        bumpVlen(kflag);
        push(name(name));
        push(type);
        push(Kind.kindFlagOf(words[open + 1]) ? (bitfieldSize << 24) | (bitOffset & 0xffffff) : bitOffset);
    }

    public int addEnum(String name, int byteSize, boolean signed) {
        return header(name, Kind.ENUM, 0, signed, byteSize);
    }

    public int addEnum64(String name, int byteSize, boolean signed) {
        return header(name, Kind.ENUM64, 0, signed, byteSize);
    }

    /** Appends an enumerator to the last ENUM (low 32 bits) or ENUM64. */
    public void addEnumValue(String name, long value) {
        int k = openKind();
        if (k == Kind.ENUM) {
            bumpVlen(false);
            push(name(name));
            push((int) value);
        } else if (k == Kind.ENUM64) {
            bumpVlen(false);
            push(name(name));
            push((int) value);
            push((int) (value >>> 32));
        } else {
            throw new IllegalStateException("last type is not an ENUM or ENUM64");
        }
    }

    /** FWD of a struct ({@code union == false}) or a union. */
    public int addFwd(String name, boolean union) {
        return addRef(Kind.FWD, name, 0, union);
    }

    public int addFuncProto(int returnType) {
        return header(null, Kind.FUNC_PROTO, 0, false, returnType);
    }

    public void addParam(String name, int type) {
        if (openKind() != Kind.FUNC_PROTO) {
            throw new IllegalStateException("last type is not a FUNC_PROTO");
        }
        bumpVlen(false);
        push(name(name));
        push(type);
    }

    public int addVar(String name, int type, int linkage) {
        int id = header(name, Kind.VAR, 0, false, type);
        push(linkage);
        open = -1;
        return id;
    }

    public int addDatasec(String name, int byteSize) {
        return header(name, Kind.DATASEC, 0, false, byteSize);
    }

    public void addVarSecinfo(int type, int offset, int byteSize) {
        if (openKind() != Kind.DATASEC) {
            throw new IllegalStateException("last type is not a DATASEC");
        }
        bumpVlen(false);
        push(type);
        push(offset);
        push(byteSize);
    }

    public int addDeclTag(String value, int ref, int componentIdx) {
        int id = header(value, Kind.DECL_TAG, 0, false, ref);
        push(componentIdx);
        open = -1;
        return id;
    }

    /** DECL_TAG with the "attribute" flavour (kind_flag set). */
    public int addDeclAttr(String value, int ref, int componentIdx) {
        int id = header(value, Kind.DECL_TAG, 0, true, ref);
        push(componentIdx);
        open = -1;
        return id;
    }

    // --- result ---

    /** The BTF built so far (the builder can keep going; later types do not affect it). */
    public Btf build() {
        int[] st = new int[starts.size() + 1];
        starts.getElements(0, st, 0, starts.size());
        st[starts.size()] = size;
        StringTable table = new StringTable(baseStrings, strings.toByteArray());
        return new Btf(base, Arrays.copyOf(words, size), st, table, format);
    }
}
