package io.btfkit.core.permute;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.Kind;
import java.util.Random;

/**
 * Random BTF of every kind for property tests, built with {@link BtfBuilder}: type ids anywhere in
 * the final range (forward references, cycles, base ids for split BTF), names from a small pool
 * (so equal names and anonymous types are frequent) spelled with letters, digits and '_' only,
 * so raw text can be renumbered with a regular expression.
 */
public final class RandomBtf {
    private static final String[] POOL = {"a", "b", "ab", "B", "a_1", "zz", "Z9", "_x", "\u00e9t\u00e9", "longer_name"};

    private RandomBtf() {
    }

    public static Btf of(Random r, Btf base, int count) {
        return generate(r, base, count, false, false);
    }

    /**
     * Random BTF shaped like C: pointers, arrays, qualifiers, prototypes and anonymous structs,
     * unions and enums refer only to earlier ids, so every reference cycle passes through a named
     * type. With {@code uniqueNames}, no two types of one kind share a name.
     */
    public static Btf cLike(Random r, Btf base, int count, boolean uniqueNames) {
        return generate(r, base, count, true, uniqueNames);
    }

    private static Btf generate(Random r, Btf base, int count, boolean cLike, boolean uniqueNames) {
        BtfBuilder b = new BtfBuilder(base);
        int limit = b.nextId() + count;
        int serial = 0;
        for (int i = 0; i < count; i++) {
            int kind = 1 + r.nextInt(Kind.MAX_KNOWN);
            int self = b.nextId();
            // structural kinds refer backwards in C-like mode
            int back = cLike ? Math.max(1, self) : limit;
            String n = uniqueNames && r.nextInt(4) != 0 ? "n" + serial++ : name(r);
            switch (kind) {
                case Kind.INT -> b.addInt(n, 1 << r.nextInt(4), new int[] {0, 1, 2, 4}[r.nextInt(4)]);
                case Kind.PTR -> b.addPtr(ref(r, back));
                case Kind.ARRAY -> b.addArray(ref(r, back), ref(r, back), r.nextInt(100));
                case Kind.STRUCT, Kind.UNION -> {
                    if (kind == Kind.STRUCT) {
                        b.addStruct(n, r.nextInt(64));
                    } else {
                        b.addUnion(n, r.nextInt(64));
                    }
                    int to = cLike && n.isEmpty() ? back : limit;
                    boolean bitfields = r.nextBoolean();
                    for (int m = r.nextInt(5); m > 0; m--) {
                        String mn = uniqueNames ? "m" + m : name(r);
                        b.addMember(mn, ref(r, to), r.nextInt(512), bitfields && r.nextBoolean() ? 1 + r.nextInt(31) : 0);
                    }
                }
                case Kind.ENUM -> {
                    b.addEnum(n, 4, r.nextBoolean());
                    for (int m = r.nextInt(4); m > 0; m--) {
                        b.addEnumValue(uniqueNames ? "V" + serial++ : name(r), r.nextInt(9) - 4);
                    }
                }
                case Kind.ENUM64 -> {
                    b.addEnum64(n, 8, r.nextBoolean());
                    for (int m = r.nextInt(4); m > 0; m--) {
                        b.addEnumValue(uniqueNames ? "V" + serial++ : name(r), r.nextLong());
                    }
                }
                case Kind.FWD -> b.addFwd(n, r.nextBoolean());
                case Kind.TYPEDEF -> b.addTypedef(n, ref(r, limit));
                case Kind.VOLATILE -> b.addVolatile(ref(r, back));
                case Kind.CONST -> b.addConst(ref(r, back));
                case Kind.RESTRICT -> b.addRestrict(ref(r, back));
                case Kind.FUNC -> b.addFunc(n, ref(r, limit), r.nextInt(3));
                case Kind.FUNC_PROTO -> {
                    b.addFuncProto(ref(r, back));
                    for (int m = r.nextInt(4); m > 0; m--) {
                        b.addParam(name(r), ref(r, back));
                    }
                }
                case Kind.VAR -> b.addVar(n, ref(r, limit), r.nextInt(3));
                case Kind.DATASEC -> {
                    b.addDatasec(n, r.nextInt(64));
                    for (int m = r.nextInt(3); m > 0; m--) {
                        b.addVarSecinfo(ref(r, limit), r.nextInt(64), r.nextInt(8));
                    }
                }
                case Kind.FLOAT -> b.addFloat(n, 1 << r.nextInt(4));
                case Kind.DECL_TAG -> b.addDeclTag(name(r), ref(r, limit), r.nextInt(4) - 1);
                case Kind.TYPE_TAG -> b.addTypeTag(name(r), ref(r, back));
                default -> throw new IllegalStateException("kind " + kind);
            }
        }
        return b.build();
    }

    /** A random permutation map in libbpf form for {@code btf}. */
    public static int[] permutation(Random r, Btf btf) {
        int n = btf.ownTypeCount();
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = btf.firstId() + i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return IdMap.ofOrder(btf, order).toArray();
    }

    private static int ref(Random r, int limit) {
        return r.nextInt(limit);
    }

    private static String name(Random r) {
        return r.nextInt(4) == 0 ? "" : POOL[r.nextInt(POOL.length)];
    }
}
