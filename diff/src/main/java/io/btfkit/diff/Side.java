package io.btfkit.diff;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
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
     * Most members, nested ones included, one struct is flattened to: anonymous members nest up
     * to {@link #MAX_NESTING} deep, and 16 levels of 100 members each would otherwise make 10^32
     * paths (real structs have a few hundred); a wider struct stops the diff (it used to be
     * compared in part, silently).
     */
    static final int MAX_MEMBERS = 1 << 16;
    /** Flattened entries kept for reuse ({@link #flat}), all anonymous types of one side together. */
    static final long MAX_KEPT = 1L << 22;

    final Btf btf;
    final TypeNames names;
    final TypeSizes sizes;
    final ShapeHash hash;
    private final int side;
    private final DiffBudget budget;
    /** Decoded strings by offset: member, parameter and type names repeat a lot. */
    private final Int2ObjectOpenHashMap<String> strings = new Int2ObjectOpenHashMap<>();
    /** Flattened anonymous structs and unions by (id, nesting depth), each computed once. */
    private final Long2ObjectOpenHashMap<Flat> flats = new Long2ObjectOpenHashMap<>();
    private long kept;

    /** A side of its own, for tests. */
    Side(Btf btf) {
        this(btf, 0, new DiffBudget());
    }

    /**
     * @param side   0 for input a, 1 for input b (named when a bound is passed)
     * @param budget the run's bounds, shared with the other side
     */
    Side(Btf btf, int side, DiffBudget budget) {
        this.btf = btf;
        this.names = new TypeNames(btf, this::str, side);
        this.sizes = new TypeSizes(btf);
        this.hash = new ShapeHash(btf, sizes);
        this.side = side;
        this.budget = budget;
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

    /**
     * An anonymous struct or union flattened: member paths relative to it, before {@code #N}
     * suffixes ({@code a}, {@code u}, {@code u.a}, {@code arr[].a}), with each member's type id,
     * bit offset from its start and bitfield width, in member order.
     */
    private record Flat(String[] paths, int[] types, long[] offsets, int[] bits) {
        int size() {
            return paths.length;
        }
    }

    /** Where {@link #flatten} puts the member entries it finds. */
    private interface Entries {
        void add(String path, int type, long offset, int bits);
    }

    /**
     * The members of STRUCT/UNION {@code id} by name path, in member order, with members of
     * anonymous structs and unions lifted into it (see {@link MemberDiff} for the paths) and
     * offsets counted from the start of {@code id}. An anonymous struct or union shared by many
     * members or structs is flattened once ({@link #flat}); every entry counts against the run's
     * {@link DiffBudget}, and a struct of more than {@link #MAX_MEMBERS} entries stops the diff.
     */
    Map<String, MemberInfo> members(int id) {
        Map<String, MemberInfo> out = new LinkedHashMap<>();
        Map<String, Integer> next = new HashMap<>();
        flatten(id, 0, (path, type, offset, bits) -> {
            tooWide(id, out.size());
            budget.members(1);
            put(out, next, path, new MemberInfo(names.of(type), offset, bits, sizes.of(type)));
        });
        return out;
    }

    private void tooWide(int id, int entries) {
        if (entries >= MAX_MEMBERS) {
            String n = name(id);
            throw new DiffLimitException(side, TypeDiff.kindWord(btf.kind(id)) + " " + (n.isEmpty() ? "(anon)" : n)
                    + " [" + id + "] has more than " + MAX_MEMBERS + " members once its anonymous members are lifted");
        }
    }

    /** {@link #flatten} of an anonymous struct or union into a {@link Flat}, kept for reuse while {@link #MAX_KEPT} allows. */
    private Flat flat(int id, int depth) {
        long key = ((long) id << 5) | depth;
        Flat f = flats.get(key);
        if (f == null) {
            java.util.ArrayList<String> paths = new java.util.ArrayList<>();
            IntArrayList types = new IntArrayList();
            LongArrayList offsets = new LongArrayList();
            IntArrayList bits = new IntArrayList();
            flatten(id, depth, (path, type, offset, b) -> {
                tooWide(id, paths.size());
                budget.members(1);
                paths.add(path);
                types.add(type);
                offsets.add(offset);
                bits.add(b);
            });
            f = new Flat(paths.toArray(new String[0]), types.toIntArray(), offsets.toLongArray(), bits.toIntArray());
            if (kept + f.size() <= MAX_KEPT) {
                kept += f.size();
                flats.put(key, f);
            }
        }
        return f;
    }

    /** The member entries of {@code id} reached {@code depth} anonymous members deep, in order. */
    private void flatten(int id, int depth, Entries out) {
        boolean kflag = btf.kindFlag(id);
        int vlen = btf.vlen(id);
        for (int i = 0; i < vlen; i++) {
            String n = str(btf.extra(id, 3 * i));
            int type = btf.extra(id, 3 * i + 1);
            int word = btf.extra(id, 3 * i + 2);
            long off = kflag ? word & 0xffffff : Integer.toUnsignedLong(word);
            int bits = kflag ? word >>> 24 : 0;
            int body = skipQualifiers(type);
            String inner = null;
            int lifted = 0;
            if (depth < MAX_NESTING && isAnonymousComposite(body)) {
                inner = n.isEmpty() ? "" : n + ".";
                lifted = body;
            } else if (depth < MAX_NESTING && !n.isEmpty() && btf.isValidId(body) && body != 0 && btf.kind(body) == Kind.ARRAY) {
                int elem = skipQualifiers(btf.extra(body, 0));
                if (isAnonymousComposite(elem)) {
                    inner = n + "[].";
                    lifted = elem;
                }
            }
            if (inner == null || !n.isEmpty()) {
                out.add(n.isEmpty() ? "(anon)" : n, type, off, bits);
            }
            if (inner != null) {
                Flat f = flat(lifted, depth + 1);
                for (int k = 0; k < f.size(); k++) {
                    out.add(inner.isEmpty() ? f.paths[k] : inner + f.paths[k], f.types[k], off + f.offsets[k], f.bits[k]);
                }
            }
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
