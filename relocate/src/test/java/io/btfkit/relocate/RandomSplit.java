package io.btfkit.relocate;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random base + split BTF for property tests, as a recipe that can be built onto several bases:
 * the same base types with or without unrelated "junk" types mixed in (shifting ids and string
 * offsets), and the split on top. Base names are unique (so relocation is never ambiguous);
 * pointers may point forward (cycles), other references point backward.
 */
final class RandomSplit {
    /**
     * One recipe type; refs are recipe positions (-1 = void), base positions in base refs, split
     * ones in split refs; member and parameter names are the given ones, else generated.
     */
    private record Node(int kind, String name, int size, int flags, int[] refs, boolean[] refIsSplit, String[] memberNames) {
        Node(int kind, String name, int size, int flags, int[] refs, boolean[] refIsSplit) {
            this(kind, name, size, flags, refs, refIsSplit, new String[refs.length]);
        }

        String member(int i, String fallback) {
            return memberNames[i] != null ? memberNames[i] : fallback;
        }
    }

    private final List<Node> base = new ArrayList<>();
    private final List<Node> split = new ArrayList<>();
    private final Random random;

    RandomSplit(long seed, int baseTypes, int splitTypes) {
        this.random = new Random(seed);
        base.add(new Node(Kind.INT, "int", 4, Kind.INT_SIGNED, new int[0], new boolean[0]));
        for (int k = 0; k < baseTypes; k++) {
            base.add(randomNode(k, false, baseTypes + 1, 0));
        }
        for (int k = 0; k < splitTypes; k++) {
            split.add(randomNode(k, true, base.size(), splitTypes));
        }
    }

    private Node randomNode(int k, boolean inSplit, int baseTotal, int splitTotal) {
        int here = inSplit ? split.size() : base.size();
        int[] kinds = {Kind.INT, Kind.FLOAT, Kind.FWD, Kind.PTR, Kind.TYPEDEF, Kind.CONST, Kind.VOLATILE, Kind.RESTRICT,
            Kind.TYPE_TAG, Kind.ARRAY, Kind.STRUCT, Kind.UNION, Kind.ENUM, Kind.ENUM64, Kind.FUNC_PROTO, Kind.STRUCT,
            Kind.PTR, Kind.FUNC, Kind.DECL_TAG};
        int kind = kinds[random.nextInt(inSplit ? kinds.length : kinds.length - 2)];
        String p = (inSplit ? "x" : "b") + k;
        boolean named = random.nextInt(3) != 0;
        switch (kind) {
            case Kind.INT:
                return new Node(kind, "int" + p, 1 << random.nextInt(4), new int[] {0, 1, 2, 4}[random.nextInt(4)], new int[0],
                        new boolean[0]);
            case Kind.FLOAT:
                return new Node(kind, "float" + p, 4 << random.nextInt(3), 0, new int[0], new boolean[0]);
            case Kind.FWD:
                return new Node(kind, "fwd" + p, 0, random.nextInt(2), new int[0], new boolean[0]);
            case Kind.PTR: {
                // anywhere: earlier or later, base or (from the split) split
                boolean toSplit = inSplit && random.nextBoolean();
                int target = random.nextInt(toSplit ? splitTotal : baseTotal);
                return new Node(kind, "", 0, 0, new int[] {target}, new boolean[] {toSplit});
            }
            case Kind.STRUCT:
            case Kind.UNION: {
                int members = random.nextInt(4);
                int[] refs = new int[members];
                boolean[] sp = new boolean[members];
                for (int m = 0; m < members; m++) {
                    pickBackward(inSplit, here, refs, sp, m);
                }
                return new Node(kind, named ? "comp" + p : "", random.nextInt(64), random.nextInt(2), refs, sp,
                        memberNames(inSplit, members));
            }
            case Kind.ENUM:
            case Kind.ENUM64:
                return new Node(kind, named ? "enum" + p : "", 1 << random.nextInt(4), random.nextInt(3), new int[0], new boolean[0]);
            case Kind.FUNC_PROTO: {
                int params = random.nextInt(3);
                int[] refs = new int[params + 1];
                boolean[] sp = new boolean[params + 1];
                for (int m = 0; m <= params; m++) {
                    pickBackward(inSplit, here, refs, sp, m);
                }
                return new Node(kind, "", 0, 0, refs, sp, memberNames(inSplit, params + 1));
            }
            case Kind.ARRAY: {
                int[] refs = new int[1];
                boolean[] sp = new boolean[1];
                pickBackward(inSplit, here, refs, sp, 0);
                return new Node(kind, "", random.nextInt(8), 0, refs, sp);
            }
            default: { // TYPEDEF, qualifiers, TYPE_TAG, FUNC, DECL_TAG: one backward reference
                int[] refs = new int[1];
                boolean[] sp = new boolean[1];
                pickBackward(inSplit, here, refs, sp, 0);
                String name = kind == Kind.TYPEDEF ? "td" + p : kind == Kind.TYPE_TAG ? "tag" + p : kind == Kind.FUNC ? "fn" + p
                        : kind == Kind.DECL_TAG ? "decl" + p : "";
                return new Node(kind, name, 0, 0, refs, sp);
            }
        }
    }

    /** In the split, some member names equal base type names (so they resolve to distilled base strings). */
    private String[] memberNames(boolean inSplit, int count) {
        String[] names = new String[count];
        for (int i = 0; inSplit && i < count; i++) {
            if (random.nextInt(3) == 0) {
                names[i] = base.get(random.nextInt(base.size())).name();
            }
        }
        return names;
    }

    private void pickBackward(boolean inSplit, int here, int[] refs, boolean[] sp, int i) {
        boolean toSplit = inSplit && here > 0 && random.nextBoolean();
        int bound = toSplit ? here : inSplit ? base.size() : here;
        refs[i] = random.nextInt(bound + 1) - 1; // -1 = void
        sp[i] = toSplit && refs[i] >= 0;
    }

    /** The base; with {@code junkSeed != 0}, unrelated uniquely named types are mixed in. */
    Built build(long junkSeed) {
        Random junk = new Random(junkSeed);
        int[] baseIds = new int[base.size()];
        List<Integer> junkBefore = new ArrayList<>();
        int id = 1;
        for (int i = 0; i < base.size(); i++) {
            int j = junkSeed == 0 ? 0 : junk.nextInt(3);
            junkBefore.add(j);
            id += j;
            baseIds[i] = id++;
        }
        BtfBuilder b = new BtfBuilder();
        for (int i = 0; i < base.size(); i++) {
            for (int j = 0; j < junkBefore.get(i); j++) {
                int n = b.nextId();
                if (j % 2 == 0) {
                    b.addStruct("junk" + n, n);
                    b.addMember("j", 0, 0, 0);
                } else {
                    b.addInt("junkint" + n, 4, 0);
                }
            }
            emit(b, base.get(i), baseIds, null);
        }
        Btf baseBtf = b.build();
        int[] splitIds = new int[split.size()];
        for (int i = 0; i < split.size(); i++) {
            splitIds[i] = baseBtf.typeCount() + i;
        }
        BtfBuilder s = new BtfBuilder(baseBtf);
        for (Node n : split) {
            emit(s, n, baseIds, splitIds);
        }
        return new Built(baseBtf, s.build());
    }

    record Built(Btf base, Btf split) {
    }

    private static int ref(Node n, int i, int[] baseIds, int[] splitIds) {
        int r = n.refs()[i];
        return r < 0 ? 0 : n.refIsSplit()[i] ? splitIds[r] : baseIds[r];
    }

    private static void emit(BtfBuilder b, Node n, int[] baseIds, int[] splitIds) {
        switch (n.kind()) {
            case Kind.INT:
                b.addInt(n.name(), n.size(), n.flags());
                break;
            case Kind.FLOAT:
                b.addFloat(n.name(), n.size());
                break;
            case Kind.FWD:
                b.addFwd(n.name(), n.flags() == 1);
                break;
            case Kind.PTR:
                b.addPtr(ref(n, 0, baseIds, splitIds));
                break;
            case Kind.TYPEDEF:
                b.addTypedef(n.name(), ref(n, 0, baseIds, splitIds));
                break;
            case Kind.CONST:
                b.addConst(ref(n, 0, baseIds, splitIds));
                break;
            case Kind.VOLATILE:
                b.addVolatile(ref(n, 0, baseIds, splitIds));
                break;
            case Kind.RESTRICT:
                b.addRestrict(ref(n, 0, baseIds, splitIds));
                break;
            case Kind.TYPE_TAG:
                b.addTypeTag(n.name(), ref(n, 0, baseIds, splitIds));
                break;
            case Kind.FUNC:
                b.addFunc(n.name(), ref(n, 0, baseIds, splitIds), Kind.LINKAGE_GLOBAL);
                break;
            case Kind.DECL_TAG:
                b.addDeclTag(n.name(), ref(n, 0, baseIds, splitIds), -1);
                break;
            case Kind.ARRAY:
                b.addArray(ref(n, 0, baseIds, splitIds), baseIds[0], n.size());
                break;
            case Kind.STRUCT:
            case Kind.UNION:
                if (n.kind() == Kind.STRUCT) {
                    b.addStruct(n.name(), n.size());
                } else {
                    b.addUnion(n.name(), n.size());
                }
                for (int m = 0; m < n.refs().length; m++) {
                    b.addMember(n.member(m, m % 2 == 0 ? "m" + m : ""), ref(n, m, baseIds, splitIds), 8 * m, n.flags() == 1 && m == 0 ? 3 : 0);
                }
                break;
            case Kind.ENUM:
            case Kind.ENUM64:
                if (n.kind() == Kind.ENUM) {
                    b.addEnum(n.name(), n.size(), n.flags() == 1);
                } else {
                    b.addEnum64(n.name(), n.size(), n.flags() == 1);
                }
                for (int v = 0; v < n.flags(); v++) {
                    b.addEnumValue("v" + v + n.name(), v - 1);
                }
                break;
            case Kind.FUNC_PROTO:
                b.addFuncProto(ref(n, 0, baseIds, splitIds));
                for (int p = 1; p < n.refs().length; p++) {
                    b.addParam(n.member(p, p == 1 ? "" : "p" + p), ref(n, p, baseIds, splitIds));
                }
                break;
            default:
                throw new IllegalStateException("kind " + n.kind());
        }
    }
}
