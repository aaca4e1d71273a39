package io.btfkit.core;

import java.util.AbstractList;
import java.util.List;

/**
 * Typed read-only view of one type, built on demand over the columnar model. Field names follow
 * the BTF specification; accessors that do not apply to the kind return 0 or an empty list.
 */
public final class BtfType {
    private final Btf btf;
    private final int id;
    private final Btf owner;
    private final int start;

    BtfType(Btf btf, int id) {
        this.btf = btf;
        this.id = id;
        this.owner = btf.owner(id);
        this.start = id == 0 ? -1 : owner.starts()[id - owner.firstId()];
    }

    public int id() {
        return id;
    }

    private int word(int k) {
        return start < 0 ? 0 : owner.words()[start + k];
    }

    public int kind() {
        return Kind.kindOf(word(1));
    }

    public String kindName() {
        return Kind.name(kind());
    }

    public int vlen() {
        return Kind.vlenOf(word(1));
    }

    public boolean kindFlag() {
        return Kind.kindFlagOf(word(1));
    }

    public int nameOff() {
        return word(0);
    }

    /** The name ("" when anonymous, null when its offset is invalid). */
    public String name() {
        return btf.strings().get(word(0));
    }

    /** Size in bytes (INT, STRUCT, UNION, ENUM, ENUM64, DATASEC, FLOAT). */
    public int size() {
        return Kind.hasSize(kind()) ? word(2) : 0;
    }

    /** The referenced type (PTR, TYPEDEF, modifiers, FUNC, VAR, DECL_TAG, TYPE_TAG; FUNC_PROTO: return type). */
    public int typeId() {
        return Kind.hasTypeRef(kind()) ? word(2) : 0;
    }

    public int intEncoding() {
        return kind() == Kind.INT ? (word(3) >>> 24) & 0x0f : 0;
    }

    public int intOffset() {
        return kind() == Kind.INT ? (word(3) >>> 16) & 0xff : 0;
    }

    public int intBits() {
        return kind() == Kind.INT ? word(3) & 0xff : 0;
    }

    /** FUNC linkage (kept in vlen) or VAR linkage (the extra word). */
    public int linkage() {
        int k = kind();
        return k == Kind.FUNC ? vlen() : k == Kind.VAR ? word(3) : 0;
    }

    /** DECL_TAG component index: -1 for the whole type, else member or parameter index. */
    public int componentIdx() {
        return kind() == Kind.DECL_TAG ? word(3) : 0;
    }

    public Array array() {
        return kind() == Kind.ARRAY ? new Array(word(3), word(4), word(5)) : null;
    }

    /** STRUCT/UNION members; bit offset and bitfield size decoded per kind_flag. */
    public List<Member> members() {
        if (!Kind.isComposite(kind())) {
            return List.of();
        }
        boolean kf = kindFlag();
        return new View<>(vlen()) {
            @Override
            Member at(int i) {
                int w = start + 3 + 3 * i;
                int[] ws = owner.words();
                int off = ws[w + 2];
                return new Member(btf.strings().get(ws[w]), ws[w + 1],
                        kf ? off & 0xffffff : off, kf ? off >>> 24 : 0);
            }
        };
    }

    public List<Param> params() {
        if (kind() != Kind.FUNC_PROTO) {
            return List.of();
        }
        return new View<>(vlen()) {
            @Override
            Param at(int i) {
                int w = start + 3 + 2 * i;
                int[] ws = owner.words();
                return new Param(btf.strings().get(ws[w]), ws[w + 1]);
            }
        };
    }

    /** ENUM (value sign-extended when the enum is signed) and ENUM64 values. */
    public List<EnumValue> values() {
        int k = kind();
        boolean signed = kindFlag();
        if (k == Kind.ENUM) {
            return new View<>(vlen()) {
                @Override
                EnumValue at(int i) {
                    int w = start + 3 + 2 * i;
                    int[] ws = owner.words();
                    long v = signed ? ws[w + 1] : ws[w + 1] & 0xffffffffL;
                    return new EnumValue(btf.strings().get(ws[w]), v);
                }
            };
        }
        if (k == Kind.ENUM64) {
            return new View<>(vlen()) {
                @Override
                EnumValue at(int i) {
                    int w = start + 3 + 3 * i;
                    int[] ws = owner.words();
                    long v = ((long) ws[w + 2] << 32) | (ws[w + 1] & 0xffffffffL);
                    return new EnumValue(btf.strings().get(ws[w]), v);
                }
            };
        }
        return List.of();
    }

    public List<VarSecinfo> secinfos() {
        if (kind() != Kind.DATASEC) {
            return List.of();
        }
        return new View<>(vlen()) {
            @Override
            VarSecinfo at(int i) {
                int w = start + 3 + 3 * i;
                int[] ws = owner.words();
                return new VarSecinfo(ws[w], ws[w + 1], ws[w + 2]);
            }
        };
    }

    @Override
    public String toString() {
        return "[" + id + "] " + kindName() + " '" + Printable.name(name()) + "'";
    }

    public record Array(int type, int indexType, int nelems) {
    }

    public record Member(String name, int type, int bitOffset, int bitfieldSize) {
    }

    public record Param(String name, int type) {
    }

    public record EnumValue(String name, long value) {
    }

    public record VarSecinfo(int type, int offset, int size) {
    }

    private abstract static class View<T> extends AbstractList<T> {
        private final int size;

        View(int size) {
            this.size = size;
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public final T get(int i) {
            return at(java.util.Objects.checkIndex(i, size));
        }

        abstract T at(int i);
    }
}
