package io.btfkit.core;

import java.nio.ByteOrder;
import java.util.Objects;

/**
 * One BTF: a type section and a string section, standalone (ids from 1) or split on a base
 * (ids continue after the base's, string offsets after the base's string section).
 *
 * <p>Columnar and immutable: the own types are one {@code int[]} holding the type section word
 * by word exactly as it is encoded ({@code name_off, info, size/type, extra words...}), plus an
 * index of where each type starts. No object per type; {@link #type(int)} builds a typed view
 * on demand. Passes that walk millions of types read {@link #words()} and {@link #starts()}
 * directly.
 */
public final class Btf {
    private final Btf base;
    private final int firstId;
    private final int[] words;
    private final int[] starts;
    private final StringTable strings;
    private final RawFormat format;
    private final RawLayout rawLayout;

    /**
     * @param base    base BTF or null
     * @param words   the own type section as words (not copied; must not be modified afterwards)
     * @param starts  word index of each own type's first word, plus one final entry equal to the
     *                number of words used (not copied)
     * @param strings the string table; its base must be the base BTF's table
     * @param format  how the raw form was (or should be) encoded
     */
    public Btf(Btf base, int[] words, int[] starts, StringTable strings, RawFormat format) {
        this(base, words, starts, strings, format, null);
    }

    /** {@code rawLayout}: where the sections lay in the bytes this BTF was read from (the reader's), or null. */
    Btf(Btf base, int[] words, int[] starts, StringTable strings, RawFormat format, RawLayout rawLayout) {
        if (base == null ? strings.base() != null : strings.base() != base.strings) {
            throw new IllegalArgumentException("string table base does not match the base BTF");
        }
        this.base = base;
        this.firstId = base == null ? 1 : base.typeCount();
        this.words = words;
        this.starts = starts;
        this.strings = strings;
        this.format = Objects.requireNonNull(format);
        this.rawLayout = rawLayout;
    }

    public Btf base() {
        return base;
    }

    public boolean isSplit() {
        return base != null;
    }

    /** Id of the first type of this BTF (1 when standalone, base type count when split). */
    public int firstId() {
        return firstId;
    }

    /** Number of type ids including void and the base's types ({@code btf__type_cnt}). */
    public int typeCount() {
        return firstId + ownTypeCount();
    }

    /** Number of types stored in this BTF (not counting void or the base). */
    public int ownTypeCount() {
        return starts.length - 1;
    }

    public StringTable strings() {
        return strings;
    }

    public RawFormat format() {
        return format;
    }

    /**
     * Where the sections lay in the bytes this BTF was read from, or null when it was not read
     * from bytes (built, or made by an operation: written out, its sections are contiguous).
     */
    public RawLayout rawLayout() {
        return rawLayout;
    }

    /** The own type section as words; read-only. */
    public int[] words() {
        return words;
    }

    /** Start word of each own type, then the end; read-only. Index by {@code id - firstId()}. */
    public int[] starts() {
        return starts;
    }

    /** Size of the own type section in bytes. */
    public int typeSectionBytes() {
        return starts[starts.length - 1] * 4;
    }

    /** The BTF (this one or a base) that stores type {@code id}. */
    public Btf owner(int id) {
        if (id >= firstId) {
            return this;
        }
        Btf b = base;
        while (id < b.firstId) {
            b = b.base;
        }
        return b;
    }

    public boolean isValidId(int id) {
        return id >= 0 && id < typeCount();
    }

    /** Start word of type {@code id} in {@code owner(id).words()}. */
    public int startOf(int id) {
        Btf b = owner(id);
        return b.starts[id - b.firstId];
    }

    public int info(int id) {
        if (id == 0) {
            return 0;
        }
        Btf b = owner(id);
        return b.words[b.starts[id - b.firstId] + 1];
    }

    public int kind(int id) {
        return Kind.kindOf(info(id));
    }

    public int vlen(int id) {
        return Kind.vlenOf(info(id));
    }

    public boolean kindFlag(int id) {
        return Kind.kindFlagOf(info(id));
    }

    public int nameOff(int id) {
        if (id == 0) {
            return 0;
        }
        Btf b = owner(id);
        return b.words[b.starts[id - b.firstId]];
    }

    /** The size-or-type word: a size for INT/STRUCT/UNION/ENUM/ENUM64/DATASEC/FLOAT, else a type id. */
    public int sizeOrType(int id) {
        if (id == 0) {
            return 0;
        }
        Btf b = owner(id);
        return b.words[b.starts[id - b.firstId] + 2];
    }

    /** Extra word {@code k} (0-based, after the 3-word header) of type {@code id}. */
    public int extra(int id, int k) {
        Btf b = owner(id);
        return b.words[b.starts[id - b.firstId] + 3 + k];
    }

    /** Number of words type {@code id} occupies. */
    public int wordCount(int id) {
        Btf b = owner(id);
        int i = id - b.firstId;
        return b.starts[i + 1] - b.starts[i];
    }

    /** Name of type {@code id} decoded as UTF-8 ("" when anonymous, null when the offset is invalid). */
    public String name(int id) {
        return strings.get(nameOff(id));
    }

    public String string(int off) {
        return strings.get(off);
    }

    /** Typed read-only view of type {@code id}. */
    public BtfType type(int id) {
        if (!isValidId(id)) {
            throw new IndexOutOfBoundsException("type id " + id + " out of range [0, " + typeCount() + ")");
        }
        return new BtfType(this, id);
    }

    /** Same types and strings on another base (used when a base is replaced by an equal one). */
    public Btf withFormat(RawFormat newFormat) {
        return new Btf(base, words, starts, strings, newFormat);
    }

    /** Id of the first type named {@code name} (optionally of kind {@code kind}, -1 for any), or -1. */
    public int findByName(String name, int kind) {
        for (int id = 1; id < typeCount(); id++) {
            if ((kind < 0 || kind(id) == kind) && name.equals(name(id))) {
                return id;
            }
        }
        return -1;
    }

    /** How a BTF is laid out in raw form: byte order, header length and flags, layout section. */
    public record RawFormat(ByteOrder order, int headerLength, int headerFlags, LayoutTable layout) {
        /** Little-endian, classic 24-byte header, no layout section. */
        public static final RawFormat CLASSIC = new RawFormat(ByteOrder.LITTLE_ENDIAN, 24, 0, null);

        public RawFormat {
            Objects.requireNonNull(order);
            if (headerLength < 24 || (layout != null && headerLength < 32)) {
                throw new IllegalArgumentException("header length " + headerLength);
            }
        }

        public RawFormat withOrder(ByteOrder o) {
            return new RawFormat(o, headerLength, headerFlags, layout);
        }

        /** Classic 24-byte header without a layout section, same byte order. */
        public RawFormat classic() {
            return new RawFormat(order, 24, headerFlags, null);
        }

        /**
         * 32-byte header with a layout section: the one the BTF was read with (its entries for kinds
         * btfkit does not know are what lets a reader skip such types), else btfkit's table for
         * all known kinds.
         */
        public RawFormat withLayout() {
            return new RawFormat(order, Math.max(32, headerLength), headerFlags, layout != null ? layout : LayoutTable.standard());
        }
    }
}
