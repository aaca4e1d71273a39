package io.btfkit.diff;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One of the two BTFs being compared, with what the diff needs to read it by name: C spellings
 * ({@link TypeNames}), sizes ({@link TypeSizes}), fingerprints ({@link ShapeHash}), and the
 * flattened member list of a struct or union ({@link #members}).
 */
final class Side {
    /** Nesting limit for lifting members of anonymous structs and unions. */
    private static final int MAX_NESTING = 16;
    /**
     * Most members, nested ones included, one struct is flattened from: anonymous members nest up
     * to {@link #MAX_NESTING} deep, and 16 levels of 100 members each would otherwise make 10^32
     * paths (real structs have a few hundred); the rest is left out of the comparison.
     */
    static final int MAX_MEMBERS = 1 << 16;

    final Btf btf;
    final TypeNames names;
    final TypeSizes sizes;
    final ShapeHash hash;
    /** Decoded strings by offset: member, parameter and type names repeat a lot. */
    private final Int2ObjectOpenHashMap<String> strings = new Int2ObjectOpenHashMap<>();

    Side(Btf btf) {
        this.btf = btf;
        this.names = new TypeNames(btf, this::str);
        this.sizes = new TypeSizes(btf);
        this.hash = new ShapeHash(btf, sizes);
    }

    /** The name of {@code id} ("" when anonymous, "(invalid)" when its offset is bad). */
    String name(int id) {
        return str(btf.nameOff(id));
    }

    /** The string at {@code off} ("(invalid)" when the offset is bad), decoded once per offset. */
    String str(int off) {
        String s = strings.get(off);
        if (s == null) {
            s = btf.strings().get(off);
            if (s == null) {
                s = "(invalid)";
            }
            strings.put(off, s);
        }
        return s;
    }

    boolean isAnonymous(int id) {
        return ShapeHash.isAnonymous(btf.strings(), btf.nameOff(id));
    }

    /** {@code id} with CONST, VOLATILE, RESTRICT and TYPE_TAG stripped (bounded). */
    int skipQualifiers(int id) {
        for (int step = 0; step < TypeNames.MAX_DEPTH && id != 0 && btf.isValidId(id); step++) {
            if (!Kind.isModifier(btf.kind(id))) {
                return id;
            }
            id = btf.sizeOrType(id);
        }
        return id;
    }

    /** Whether {@code id} is an anonymous STRUCT or UNION. */
    boolean isAnonymousComposite(int id) {
        return id != 0 && btf.isValidId(id) && Kind.isComposite(btf.kind(id)) && isAnonymous(id);
    }

    /** Whether {@code id} is an anonymous ENUM or ENUM64. */
    boolean isAnonymousEnum(int id) {
        return id != 0 && btf.isValidId(id) && Kind.isEnum(btf.kind(id)) && isAnonymous(id);
    }

    /** Members visited by the current {@link #members} call (bounded by {@link #MAX_MEMBERS}). */
    private int flattenSteps;

    /**
     * The members of STRUCT/UNION {@code id} by name path, in member order, with members of
     * anonymous structs and unions lifted into it (see {@link MemberDiff} for the paths) and
     * offsets counted from the start of {@code id}.
     */
    Map<String, MemberInfo> members(int id) {
        Map<String, MemberInfo> out = new LinkedHashMap<>();
        flattenSteps = 0;
        flatten(id, "", 0, 0, out, new HashMap<>());
        return out;
    }

    private void flatten(int id, String prefix, long base, int depth, Map<String, MemberInfo> out,
                         Map<String, Integer> next) {
        boolean kflag = btf.kindFlag(id);
        int vlen = btf.vlen(id);
        for (int i = 0; i < vlen && flattenSteps++ < MAX_MEMBERS; i++) {
            String n = str(btf.extra(id, 3 * i));
            int type = btf.extra(id, 3 * i + 1);
            int word = btf.extra(id, 3 * i + 2);
            long off = base + (kflag ? word & 0xffffff : Integer.toUnsignedLong(word));
            int bits = kflag ? word >>> 24 : 0;
            int body = skipQualifiers(type);
            MemberInfo info = new MemberInfo(names.of(type), off, bits, sizes.of(type));
            if (depth < MAX_NESTING && isAnonymousComposite(body)) {
                if (n.isEmpty()) {
                    flatten(body, prefix, off, depth + 1, out, next);
                } else {
                    put(out, next, prefix + n, info);
                    flatten(body, prefix + n + ".", off, depth + 1, out, next);
                }
                continue;
            }
            if (depth < MAX_NESTING && !n.isEmpty() && btf.isValidId(body) && body != 0 && btf.kind(body) == Kind.ARRAY) {
                int elem = skipQualifiers(btf.extra(body, 0));
                if (isAnonymousComposite(elem)) {
                    put(out, next, prefix + n, info);
                    flatten(elem, prefix + n + "[].", off, depth + 1, out, next);
                    continue;
                }
            }
            put(out, next, prefix + (n.isEmpty() ? "(anon)" : n), info);
        }
    }

    /**
     * Adds {@code key}, or {@code key#2}, {@code key#3}... for a repeated name. The next suffix
     * to try is remembered per key ({@code next}), so 65,535 members of one name are not
     * quadratic; the suffixes are those a search from 2 would give, since keys are only added.
     */
    private static void put(Map<String, MemberInfo> out, Map<String, Integer> next, String key, MemberInfo info) {
        if (out.putIfAbsent(key, info) == null) {
            return;
        }
        int k = next.getOrDefault(key, 2);
        while (out.containsKey(key + "#" + k)) {
            k++;
        }
        out.put(key + "#" + k, info);
        next.put(key, k + 1);
    }

    /** Enumerator names and values (decimal text, signed or unsigned as the enum says), in order; first of a repeated name wins. */
    Map<String, String> values(int id) {
        Map<String, String> out = new LinkedHashMap<>();
        int kind = btf.kind(id);
        boolean signed = btf.kindFlag(id);
        int vlen = btf.vlen(id);
        for (int i = 0; i < vlen; i++) {
            String v;
            String n;
            if (kind == Kind.ENUM) {
                n = str(btf.extra(id, 2 * i));
                int raw = btf.extra(id, 2 * i + 1);
                v = signed ? Integer.toString(raw) : Integer.toUnsignedString(raw);
            } else {
                n = str(btf.extra(id, 3 * i));
                long raw = ((long) btf.extra(id, 3 * i + 2) << 32) | Integer.toUnsignedLong(btf.extra(id, 3 * i + 1));
                v = signed ? Long.toString(raw) : Long.toUnsignedString(raw);
            }
            out.putIfAbsent(n, v);
        }
        return out;
    }
}
