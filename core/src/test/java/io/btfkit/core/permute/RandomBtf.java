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
final class RandomBtf {
    private static final String[] POOL = {"a", "b", "ab", "B", "a_1", "zz", "Z9", "_x", "\u00e9t\u00e9", "longer_name"};

    private RandomBtf() {
    }

    static Btf of(Random r, Btf base, int count) {
        BtfBuilder b = new BtfBuilder(base);
        int limit = b.nextId() + count;
        for (int i = 0; i < count; i++) {
            int kind = 1 + r.nextInt(Kind.MAX_KNOWN);
            switch (kind) {
                case Kind.INT -> b.addInt(name(r), 1 << r.nextInt(4), new int[] {0, 1, 2, 4}[r.nextInt(4)]);
                case Kind.PTR -> b.addPtr(ref(r, limit));
                case Kind.ARRAY -> b.addArray(ref(r, limit), ref(r, limit), r.nextInt(100));
                case Kind.STRUCT, Kind.UNION -> {
                    if (kind == Kind.STRUCT) {
                        b.addStruct(name(r), r.nextInt(64));
                    } else {
                        b.addUnion(name(r), r.nextInt(64));
                    }
                    boolean bitfields = r.nextBoolean();
                    for (int m = r.nextInt(5); m > 0; m--) {
                        b.addMember(name(r), ref(r, limit), r.nextInt(512), bitfields && r.nextBoolean() ? 1 + r.nextInt(31) : 0);
                    }
                }
                case Kind.ENUM -> {
                    b.addEnum(name(r), 4, r.nextBoolean());
                    for (int m = r.nextInt(4); m > 0; m--) {
                        b.addEnumValue(name(r), r.nextInt(9) - 4);
                    }
                }
                case Kind.ENUM64 -> {
                    b.addEnum64(name(r), 8, r.nextBoolean());
                    for (int m = r.nextInt(4); m > 0; m--) {
                        b.addEnumValue(name(r), r.nextLong());
                    }
                }
                case Kind.FWD -> b.addFwd(name(r), r.nextBoolean());
                case Kind.TYPEDEF -> b.addTypedef(name(r), ref(r, limit));
                case Kind.VOLATILE -> b.addVolatile(ref(r, limit));
                case Kind.CONST -> b.addConst(ref(r, limit));
                case Kind.RESTRICT -> b.addRestrict(ref(r, limit));
                case Kind.FUNC -> b.addFunc(name(r), ref(r, limit), r.nextInt(3));
                case Kind.FUNC_PROTO -> {
                    b.addFuncProto(ref(r, limit));
                    for (int m = r.nextInt(4); m > 0; m--) {
                        b.addParam(name(r), ref(r, limit));
                    }
                }
                case Kind.VAR -> b.addVar(name(r), ref(r, limit), r.nextInt(3));
                case Kind.DATASEC -> {
                    b.addDatasec(name(r), r.nextInt(64));
                    for (int m = r.nextInt(3); m > 0; m--) {
                        b.addVarSecinfo(ref(r, limit), r.nextInt(64), r.nextInt(8));
                    }
                }
                case Kind.FLOAT -> b.addFloat(name(r), 1 << r.nextInt(4));
                case Kind.DECL_TAG -> b.addDeclTag(name(r), ref(r, limit), r.nextInt(4) - 1);
                case Kind.TYPE_TAG -> b.addTypeTag(name(r), ref(r, limit));
                default -> throw new IllegalStateException("kind " + kind);
            }
        }
        return b.build();
    }

    /** A random permutation map in libbpf form for {@code btf}. */
    static int[] permutation(Random r, Btf btf) {
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
