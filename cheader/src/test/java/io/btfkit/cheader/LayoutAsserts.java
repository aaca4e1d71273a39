package io.btfkit.cheader;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * C11 static assertions stating the BTF layout of structs and unions: their size and the byte
 * offset of every named, byte-aligned, non-bitfield member. Compiled together with the
 * printed header they prove that the C text lays the types out as the BTF says.
 *
 * <p>Only types whose tag name no other struct, union or enum uses are asserted, so the name
 * printed is the BTF name (no {@code ___N} suffix).
 */
final class LayoutAsserts {
    private final Btf btf;
    private final Map<String, Integer> tagUses = new HashMap<>();
    private final StringBuilder out = new StringBuilder();
    private int structs;

    LayoutAsserts(Btf btf, String header) {
        this.btf = btf;
        for (int id = 1; id < btf.typeCount(); id++) {
            int k = btf.kind(id);
            boolean counted = Kind.isComposite(k) || k == Kind.ENUM64 || (k == Kind.ENUM && btf.vlen(id) > 0);
            if (counted && btf.nameOff(id) != 0) {
                tagUses.merge(btf.name(id), 1, Integer::sum);
            }
        }
        out.append("#include \"").append(header).append("\"\n");
    }

    /** Whether {@code id} is a struct or union this class can assert (named, name unique). */
    boolean assertable(int id) {
        return Kind.isComposite(btf.kind(id)) && btf.nameOff(id) != 0 && tagUses.get(btf.name(id)) == 1;
    }

    /** Adds the assertions for struct or union {@code id}. */
    LayoutAsserts add(int id) {
        String tag = (btf.kind(id) == Kind.STRUCT ? "struct " : "union ") + btf.name(id);
        out.append("_Static_assert(sizeof(").append(tag).append(") == ").append(Integer.toUnsignedString(btf.sizeOrType(id)))
                .append(", \"[").append(id).append("] ").append(tag).append("\");\n");
        boolean kflag = btf.kindFlag(id);
        for (int i = 0; i < btf.vlen(id); i++) {
            int nameOff = btf.extra(id, 3 * i);
            int word = btf.extra(id, 3 * i + 2);
            int bits = kflag ? word >>> 24 : 0;
            long offset = kflag ? word & 0xffffff : word & 0xffffffffL;
            if (nameOff == 0 || bits != 0 || offset % 8 != 0) {
                continue;
            }
            String member = btf.string(nameOff);
            out.append("_Static_assert(__builtin_offsetof(").append(tag).append(", ").append(member).append(") == ")
                    .append(offset / 8).append(", \"[").append(id).append("] ").append(tag).append('.').append(member)
                    .append("\");\n");
        }
        structs++;
        return this;
    }

    int structs() {
        return structs;
    }

    String source() {
        return out.toString();
    }

    /**
     * Whether struct or union {@code id} holds, by value at any depth (through typedefs,
     * qualifiers, arrays and nested members), a type matching {@code p}.
     */
    static boolean embeds(Btf btf, int id, IntPredicate p) {
        BitSet seen = new BitSet();
        ArrayDeque<Integer> work = new ArrayDeque<>();
        work.push(id);
        while (!work.isEmpty()) {
            int t = work.pop();
            if (t == 0 || seen.get(t)) {
                continue;
            }
            seen.set(t);
            if (p.test(t)) {
                return true;
            }
            int k = btf.kind(t);
            if (Kind.isComposite(k)) {
                for (int i = 0; i < btf.vlen(t); i++) {
                    work.push(btf.extra(t, 3 * i + 1));
                }
            } else if (k == Kind.ARRAY) {
                work.push(btf.extra(t, 0));
            } else if (k == Kind.TYPEDEF || Kind.isModifier(k)) {
                work.push(btf.sizeOrType(t));
            }
        }
        return false;
    }

    /** An enum whose size C gives it only with a mode attribute (bpftool 7.1 prints none): not 4 bytes, not naturally 8. */
    static boolean oddSizedEnum(Btf btf, int id) {
        int k = btf.kind(id);
        if (!Kind.isEnum(k) || btf.sizeOrType(id) == 4) {
            return false;
        }
        if (k == Kind.ENUM64 && btf.sizeOrType(id) == 8) {
            for (int i = 0; i < btf.vlen(id); i++) {
                if (btf.extra(id, 3 * i + 2) != 0) {
                    return false; // a value needs 64 bits: C makes the enum 8 bytes by itself
                }
            }
        }
        return true;
    }

    /** An enum that even current libbpf cannot size (mode attributes exist for 1 and 8 bytes only). */
    static boolean unsizableEnum(Btf btf, int id) {
        int size = btf.sizeOrType(id);
        return Kind.isEnum(btf.kind(id)) && size != 1 && size != 4 && size != 8;
    }

    /** gcc's {@code __builtin_va_list} has a different size on each target. */
    static boolean vaList(Btf btf, int id) {
        return btf.kind(id) == Kind.TYPEDEF && "__builtin_va_list".equals(btf.name(id));
    }
}
