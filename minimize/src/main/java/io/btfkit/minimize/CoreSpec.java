package io.btfkit.minimize;

import io.btfkit.core.Btf;
import java.util.Arrays;
import java.util.List;

/**
 * A CO-RE access spec (libbpf's {@code struct bpf_core_spec}) in one BTF: the root type, the
 * named accessors (members by name, array elements, or the enumerator), the raw index path
 * through every member including anonymous ones, and the bit offset the path reaches.
 *
 * <p>On the local side it is parsed from a relocation's access string; on the target side it is
 * what matching built: exactly the types and members of the target the relocation uses.
 * Immutable once handed out; {@link SpecParser} and {@link SpecMatcher} grow it while they work.
 */
public final class CoreSpec {
    /** libbpf's {@code BPF_CORE_SPEC_MAX_LEN}: longest access path. */
    public static final int MAX_LEN = 64;

    private final Btf btf;
    private final int rootTypeId;
    private final ReloKind kind;
    private Accessor[] accessors = new Accessor[4];
    private int length;
    private int[] raw = new int[4];
    private int rawLength;
    private long bitOffset;

    CoreSpec(Btf btf, int rootTypeId, ReloKind kind) {
        this.btf = btf;
        this.rootTypeId = rootTypeId;
        this.kind = kind;
    }

    public Btf btf() {
        return btf;
    }

    /** The type the relocation names (before typedefs and modifiers are skipped). */
    public int rootTypeId() {
        return rootTypeId;
    }

    public ReloKind kind() {
        return kind;
    }

    /** Named accessors: the root's array index first (field and enum relocations); empty for type relocations. */
    public List<Accessor> accessors() {
        return List.of(Arrays.copyOf(accessors, length));
    }

    /** Number of accessors. */
    public int length() {
        return length;
    }

    public Accessor accessor(int i) {
        java.util.Objects.checkIndex(i, length);
        return accessors[i];
    }

    Accessor last() {
        return length == 0 ? null : accessors[length - 1];
    }

    /** Every index of the path, anonymous members included ("0:1:2" as {@code [0, 1, 2]}). */
    public int[] rawSpec() {
        return Arrays.copyOf(raw, rawLength);
    }

    int rawLength() {
        return rawLength;
    }

    /** Bit offset of the accessed field from the start of the root type. */
    public long bitOffset() {
        return bitOffset;
    }

    void addAccessor(Accessor a) {
        if (length == accessors.length) {
            accessors = Arrays.copyOf(accessors, length * 2);
        }
        accessors[length++] = a;
    }

    void popAccessor() {
        length--;
    }

    void pushRaw(int index) {
        if (rawLength == raw.length) {
            raw = Arrays.copyOf(raw, rawLength * 2);
        }
        raw[rawLength++] = index;
    }

    void popRaw() {
        rawLength--;
    }

    void addBits(long bits) {
        bitOffset += bits;
    }

    /** The access string of the raw spec, "0:1:2". */
    public String accessString() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rawLength; i++) {
            sb.append(i == 0 ? "" : ":").append(raw[i]);
        }
        return sb.toString();
    }

    /**
     * The spec as C: {@code struct task_struct.pid}, {@code struct s[1].arr[2]},
     * {@code enum e::VAL}, or the root type alone for type relocations; then the raw path in
     * parentheses when there is one.
     */
    public String describe() {
        StringBuilder sb = new StringBuilder(TypeOps.describe(btf, rootTypeId));
        if (kind.isEnumValueBased() && length > 0) {
            sb.append("::").append(io.btfkit.core.Printable.name(accessors[0].name()));
        } else if (kind.isFieldBased()) {
            for (int i = 0; i < length; i++) {
                Accessor a = accessors[i];
                if (i == 0) {
                    if (a.index() != 0) {
                        sb.append('[').append(a.index()).append(']');
                    }
                } else if (a.isArrayStep()) {
                    sb.append('[').append(a.index()).append(']');
                } else {
                    sb.append('.').append(io.btfkit.core.Printable.name(a.name()));
                }
            }
        }
        if (rawLength > 0) {
            sb.append(" (").append(accessString()).append(')');
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return describe();
    }
}
