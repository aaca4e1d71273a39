package io.btfkit.minimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.Kind;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * Issue 23's exponential CO-RE shapes, each built here: member searches through shared
 * anonymous members and comparisons of prototypes whose parameters are the previous level end at
 * once, with libbpf's results and libbpf's depth limits (corpus's CoreHostileOracleTest compares
 * them with libbpf itself). The random shapes are compared with the walk libbpf does — every
 * path, {@link #naiveFind} — which is what the memoised search must replay exactly, stale raw
 * indices of incompatible fields included.
 */
class CoreHostileTest {

    /** A local task_struct { int pid; int other; }. */
    private static Btf local() {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        b.addStruct("task_struct", 8);
        b.addMember("pid", i, 0, 0);
        b.addMember("other", i, 32, 0);
        return b.build();
    }

    /**
     * task_struct with 4 anonymous members of an anonymous struct that has 4 anonymous members of
     * the next one, {@code levels} deep; the last level holds {@code leaf} (null: nothing).
     */
    private static Btf nested(int levels, String leaf) {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int inner = b.addStruct(null, 4);
        b.addMember(leaf == null ? "nothing" : leaf, i, 0, 0);
        for (int level = 0; level < levels; level++) {
            int next = b.addStruct(null, 16);
            for (int m = 0; m < 4; m++) {
                b.addMember(null, inner, 32 * m, 0);
            }
            inner = next;
        }
        b.addStruct("task_struct", 16);
        for (int m = 0; m < 4; m++) {
            b.addMember(null, inner, 32 * m, 0);
        }
        return b.build();
    }

    private static ReloResult resolve(Btf local, Btf target, int typeId, String access, ReloKind kind) {
        return new CoreRelocator(target).resolve(local, LocalRelo.parse(local, "sec", 0, 0, typeId, access, kind.ordinal()));
    }

    /** 4^16 paths lead nowhere: each anonymous struct is searched once (was minutes). */
    @Test
    void sharedAnonymousMembersAreSearchedOncePerSearch() {
        Btf local = local();
        Btf target = nested(16, null);
        ReloResult read = resolve(local, target, 2, "0:0", ReloKind.FIELD_BYTE_OFFSET);
        assertEquals(ReloResult.Status.POISONED, read.status(), read::toString);
        ReloResult exists = resolve(local, target, 2, "0:0", ReloKind.FIELD_EXISTS);
        assertEquals(ReloResult.Status.NOT_FOUND, exists.status(), exists::toString);
    }

    /** The same shape with pid at the bottom: found on the first path, as libbpf finds it. */
    @Test
    void aFieldAtTheBottomIsFoundOnTheFirstPath() {
        Btf local = local();
        Btf target = nested(16, "pid");
        ReloResult r = resolve(local, target, 2, "0:0", ReloKind.FIELD_BYTE_OFFSET);
        assertEquals(ReloResult.Status.MATCHED, r.status(), r::toString);
        int[] raw = new int[19];
        assertEquals(Arrays.toString(raw), Arrays.toString(r.target().rawSpec()));
        assertEquals(0, r.value());
    }

    /** More than 32 levels of anonymous members is an error of the relocation, as before. */
    @Test
    void anonymousMembersNestAtMost32Deep() {
        ReloResult r = resolve(local(), nested(40, "pid"), 2, "0:0", ReloKind.FIELD_BYTE_OFFSET);
        assertEquals(ReloResult.Status.ERROR, r.status(), r::toString);
        assertTrue(r.error().contains("nested deeper than 32"), r.error());
    }

    /**
     * {@code typedef int f0_t; typedef void (*fK_t)(fK-1_t, fK-1_t, fK-1_t, fK-1_t);} up to
     * {@code levels}: the local program and the target are the same BTF.
     */
    private static Btf fanOut(int levels, int params) {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int prev = b.addTypedef("f0_t", i);
        for (int level = 1; level <= levels; level++) {
            int proto = b.addFuncProto(0);
            for (int p = 0; p < params; p++) {
                b.addParam(null, prev);
            }
            prev = b.addTypedef("f" + level + "_t", b.addPtr(proto));
        }
        return b.build();
    }

    private static int typedefId(Btf btf, String name) {
        return idOf(btf, Kind.TYPEDEF, name);
    }

    private static int idOf(Btf btf, int kind, String name) {
        for (int id = 1; btf.isValidId(id); id++) {
            if (btf.kind(id) == kind && name.equals(btf.name(id))) {
                return id;
            }
        }
        throw new AssertionError(name);
    }

    /** 4^16 comparisons of 17 pairs: each pair is compared once (was minutes). */
    @Test
    void prototypeFanOutsAreComparedOncePerPair() {
        Btf btf = fanOut(16, 4);
        int f16 = typedefId(btf, "f16_t");
        for (ReloKind kind : new ReloKind[] {ReloKind.TYPE_EXISTS, ReloKind.TYPE_MATCHES, ReloKind.TYPE_SIZE}) {
            ReloResult r = resolve(btf, btf, f16, "0", kind);
            assertEquals(ReloResult.Status.MATCHED, r.status(), r::toString);
            assertEquals(kind == ReloKind.TYPE_SIZE ? 8 : 1, r.value(), kind::toString);
        }
    }

    /**
     * libbpf's level budget (32): type_exists compares prototypes nested 32 deep and fails at 33;
     * type_matches, which spends a level on every call, fails at 32.
     */
    @Test
    void prototypesNestAsDeepAsLibbpfAllows() {
        Btf btf = fanOut(34, 1);
        assertEquals(ReloResult.Status.MATCHED, resolve(btf, btf, typedefId(btf, "f32_t"), "0", ReloKind.TYPE_EXISTS).status());
        assertEquals(ReloResult.Status.ERROR, resolve(btf, btf, typedefId(btf, "f33_t"), "0", ReloKind.TYPE_EXISTS).status());
        assertEquals(ReloResult.Status.MATCHED, resolve(btf, btf, typedefId(btf, "f31_t"), "0", ReloKind.TYPE_MATCHES).status());
        assertEquals(ReloResult.Status.ERROR, resolve(btf, btf, typedefId(btf, "f32_t"), "0", ReloKind.TYPE_MATCHES).status());
    }

    /**
     * A pair met again deeper than where it was first compared still runs out of budget:
     * {@code top_t} takes f20 (20 levels) as its first parameter, and as its second the same f20
     * wrapped in {@code wraps} more prototypes. 11 wraps reach f20 at depth 12: 32 levels in all;
     * 12 are one too many, as in libbpf, whose second walk has less budget left.
     */
    @Test
    void aPairMetAgainDeeperStillRunsOutOfBudget() {
        for (int wraps : new int[] {11, 12}) {
            BtfBuilder b = new BtfBuilder();
            int i = b.addInt("int", 4, Kind.INT_SIGNED);
            int f = b.addTypedef("f0_t", i);
            for (int level = 1; level <= 20; level++) {
                int proto = b.addFuncProto(0);
                b.addParam(null, f);
                f = b.addTypedef("f" + level + "_t", b.addPtr(proto));
            }
            int wrap = f;
            for (int k = 0; k < wraps; k++) {
                int proto = b.addFuncProto(0);
                b.addParam(null, wrap);
                wrap = b.addPtr(proto);
            }
            int top = b.addFuncProto(0);
            b.addParam(null, f);
            b.addParam(null, wrap);
            int topDef = b.addTypedef("top_t", b.addPtr(top));
            Btf btf = b.build();
            ReloResult r = resolve(btf, btf, topDef, "0", ReloKind.TYPE_EXISTS);
            assertEquals(wraps == 11 ? ReloResult.Status.MATCHED : ReloResult.Status.ERROR, r.status(), r::toString);
        }
    }

    /** The memoised search finds what libbpf's walk of every path finds, spec for spec. */
    @Property(tries = 400)
    void memoisedSearchReplaysTheWalkOfEveryPath(@ForAll long seed) {
        Random rnd = new Random(seed);
        Btf local = local();
        Btf target = randomTarget(rnd);
        int root = idOf(target, Kind.STRUCT, "task_struct");
        for (String access : new String[] {"0:0", "0:1"}) {
            LocalRelo relo = LocalRelo.parse(local, "sec", 0, 0, 2, access, ReloKind.FIELD_BYTE_OFFSET.ordinal());
            String want;
            try {
                CoreSpec spec = new CoreSpec(target, root, relo.kind());
                spec.addAccessor(new Accessor(root, 0, null));
                spec.pushRaw(0);
                int found = naiveFind(local, relo.spec().accessor(1), target, root, spec, 0);
                want = found <= 0 ? "none" : Arrays.toString(spec.rawSpec()) + " " + spec.bitOffset() + " " + spec.accessors();
            } catch (ReloFailure e) {
                want = "error";
            }
            String got;
            try {
                CoreSpec spec = SpecMatcher.match(relo.spec(), target, root);
                got = spec == null ? "none" : Arrays.toString(spec.rawSpec()) + " " + spec.bitOffset() + " " + spec.accessors();
            } catch (ReloFailure e) {
                got = "error";
            }
            assertEquals(want, got, "seed " + seed + " access " + access);
            net.jqwik.api.statistics.Statistics.label("outcome").collect(want.startsWith("[") ? "found" : want);
        }
    }

    /**
     * A random DAG of anonymous structs and unions below task_struct: members named pid (int, or
     * a struct: incompatible), other, x, or anonymous members of earlier anonymous types (shared),
     * some through typedefs; now and then a long row of one decoy, to reach the 64-index limit.
     */
    private static Btf randomTarget(Random rnd) {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int s = b.addStruct("pid", 4);
        b.addMember("x", i, 0, 0);
        int[] anon = new int[2 + rnd.nextInt(12)];
        int[] named = new int[anon.length];
        int made = 0;
        for (int k = 0; k < anon.length; k++) {
            int id = rnd.nextBoolean() ? b.addStruct(null, 64) : b.addUnion(null, 64);
            int members = rnd.nextInt(5);
            boolean row = rnd.nextInt(10) == 0 && made > 0;
            if (row) {
                members = 30 + rnd.nextInt(40);
            }
            for (int m = 0; m < members; m++) {
                int bits = 8 * rnd.nextInt(8);
                if (row) {
                    b.addMember(null, anon[rnd.nextInt(made)], bits, 0);
                    continue;
                }
                switch (rnd.nextInt(6)) {
                    case 0 -> b.addMember("pid", rnd.nextInt(3) == 0 ? s : i, bits, 0);
                    case 1 -> b.addMember("other", i, bits, 0);
                    case 2 -> b.addMember("x", i, bits, 0);
                    default -> {
                        if (made == 0) {
                            b.addMember("x", i, bits, 0);
                        } else {
                            int k2 = rnd.nextInt(made);
                            b.addMember(null, rnd.nextInt(4) == 0 ? named[k2] : anon[k2], bits, 0);
                        }
                    }
                }
            }
            anon[made] = id;
            named[made++] = b.addTypedef("t", id); // members may reach it through a typedef
        }
        b.addStruct("task_struct", 64);
        // members of the root itself (the struct is the last type)
        for (int m = 0; m < 1 + rnd.nextInt(4); m++) {
            b.addMember(null, anon[rnd.nextInt(made)], 8 * m, 0);
        }
        return b.build();
    }

    /**
     * libbpf's {@code bpf_core_match_member} as it is written: every member in order, every
     * anonymous member searched again wherever it appears; the form btfkit had before issue 23.
     */
    private static int naiveFind(Btf local, Accessor la, Btf target, int targId, CoreSpec spec, int depth) {
        if (depth > TypeOps.MAX_DEPTH) {
            throw new ReloFailure("too deep");
        }
        targId = TypeOps.skipModsAndTypedefs(target, targId);
        if (targId <= 0 || !Kind.isComposite(target.kind(targId))) {
            return 0;
        }
        int localMemberType = TypeOps.memberType(local, la.typeId(), la.index());
        for (int i = 0; i < target.vlen(targId); i++) {
            if (spec.rawLength() == CoreSpec.MAX_LEN) {
                throw new ReloFailure("too long");
            }
            int bits = TypeOps.memberBitOffset(target, targId, i);
            spec.addBits(bits);
            spec.pushRaw(i);
            String name = TypeOps.memberName(target, targId, i);
            int mtype = TypeOps.memberType(target, targId, i);
            if (name.isEmpty()) {
                int found = naiveFind(local, la, target, mtype, spec, depth + 1);
                if (found != 0) {
                    return found;
                }
            } else if (name.equals(la.name())) {
                if (!TypeCompat.fieldsAreCompatible(local, localMemberType, target, mtype)) {
                    return 0;
                }
                spec.addAccessor(new Accessor(targId, i, name));
                return mtype == 0 ? -1 : mtype;
            }
            spec.addBits(-bits);
            spec.popRaw();
        }
        return 0;
    }
}
