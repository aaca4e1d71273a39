package io.btfkit.corpus;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.Kind;
import io.btfkit.dedup.Deduplicator;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random valid BTF for property tests: a random "program" (a deduplicated type graph with
 * cycles through structs, anonymous types, all kinds) is split into a few compilation units
 * by {@link CuSplitter} — which brings internal duplicates and declarations (FWDs) — and the
 * units are concatenated into one BTF, as a build would before deduplication.
 *
 * <p>With {@code ambiguousNames} false every tag name has exactly one definition, so exact
 * dedup and libbpf must agree; with true, some struct names are reused by different
 * definitions, which is where libbpf guesses.
 */
public final class RandomBtf {
    private static final String[] INT_NAMES = {"int", "unsigned int", "char", "long int", "short int", "_Bool"};
    private static final int[] INT_SIZES = {4, 4, 1, 8, 2, 1};
    private static final int[] INT_ENC = {Kind.INT_SIGNED, 0, Kind.INT_SIGNED, Kind.INT_SIGNED, Kind.INT_SIGNED, Kind.INT_BOOL};

    private final SplittableRandom r;
    private final boolean ambiguousNames;

    private RandomBtf(long seed, boolean ambiguousNames) {
        this.r = new SplittableRandom(seed);
        this.ambiguousNames = ambiguousNames;
    }

    /** The deduplicated random program (the source the units are cut from). */
    public static Btf program(long seed, int structs, boolean ambiguousNames) {
        return new RandomBtf(seed, ambiguousNames).build(structs);
    }

    /** The program split into {@code units} units and concatenated: BTF with duplicates and FWDs. */
    public static Btf concatenatedUnits(long seed, int structs, int units, boolean ambiguousNames) {
        Btf program = program(seed, structs, ambiguousNames);
        List<Btf> inputs = new ArrayList<>();
        for (CuSplitter.Unit u : new CuSplitter(program, units, seed ^ 0x5DEECE66DL, 0.5).split()) {
            inputs.add(u.btf());
        }
        return Deduplicator.concatenate(inputs, null).btf();
    }

    private Btf build(int structs) {
        BtfBuilder b = new BtfBuilder();
        int[] ints = new int[INT_NAMES.length];
        for (int i = 0; i < ints.length; i++) {
            ints[i] = b.addInt(INT_NAMES[i], INT_SIZES[i], INT_ENC[i]);
        }
        int dbl = b.addFloat("double", 8);
        int first = b.nextId();
        // struct ids are reserved in advance so members can point at later structs (cycles)
        List<int[]> plans = new ArrayList<>();
        int next = first;
        int[] structIds = new int[structs];
        for (int s = 0; s < structs; s++) {
            structIds[s] = next++;
        }
        // pointer to each struct, in order after the structs
        int[] ptrIds = new int[structs];
        for (int s = 0; s < structs; s++) {
            ptrIds[s] = next++;
        }
        for (int s = 0; s < structs; s++) {
            int members = 1 + r.nextInt(5);
            int[] types = new int[members];
            for (int m = 0; m < members; m++) {
                int pick = r.nextInt(10);
                if (pick < 4) {
                    types[m] = ptrIds[r.nextInt(structs)];
                } else if (pick < 8) {
                    types[m] = ints[r.nextInt(ints.length)];
                } else if (pick == 8) {
                    types[m] = dbl;
                } else {
                    types[m] = s > 0 ? structIds[r.nextInt(s)] : ints[0]; // by value: earlier only, no by-value cycle
                }
            }
            plans.add(types);
        }
        String[] names = new String[structs];
        for (int s = 0; s < structs; s++) {
            boolean anon = r.nextInt(8) == 0;
            names[s] = anon ? null : (ambiguousNames && s > 2 && r.nextInt(4) == 0 ? "s" + r.nextInt(s) : "s" + s);
        }
        for (int s = 0; s < structs; s++) {
            int[] types = plans.get(s);
            boolean union = r.nextInt(6) == 0;
            int id = union ? b.addUnion(names[s], 8 * types.length) : b.addStruct(names[s], 8 * types.length);
            if (id != structIds[s]) {
                throw new IllegalStateException("struct id plan broken");
            }
            for (int m = 0; m < types.length; m++) {
                int bits = 0;
                if (r.nextInt(10) == 0 && types[m] == ints[0]) {
                    bits = 1 + r.nextInt(31);
                }
                b.addMember("m" + m, types[m], union ? 0 : 64 * m, bits);
            }
        }
        for (int s = 0; s < structs; s++) {
            b.addPtr(structIds[s]);
        }
        // a few more kinds around the structs
        int e = b.addEnum("color", 4, false);
        b.addEnumValue("RED", 0);
        b.addEnumValue("GREEN", 1);
        int e64 = b.addEnum64("big", 8, true);
        b.addEnumValue("NEG", -1);
        b.addEnumValue("HUGE", 1L << 40);
        int cst = b.addConst(ptrIds[0]);
        int vol = b.addVolatile(ints[0]);
        int td = b.addTypedef("s0_t", structIds[0]);
        int arr = b.addArray(ints[2], ints[0], 16);
        int proto = b.addFuncProto(ints[0]);
        b.addParam("a", ptrIds[r.nextInt(structs)]);
        b.addParam("b", td);
        b.addParam("c", arr);
        b.addParam("", 0);
        int fn = b.addFunc("fn", proto, Kind.LINKAGE_GLOBAL);
        b.addDeclTag("tag", fn, -1);
        b.addDeclTag("arg", fn, 0);
        int tt = b.addTypeTag("user", ints[0]);
        b.addPtr(tt);
        b.addPtr(e);
        b.addPtr(e64);
        b.addPtr(cst);
        b.addPtr(vol);
        int v = b.addVar("counter", ints[0], Kind.LINKAGE_GLOBAL);
        b.addDatasec(".data", 4);
        b.addVarSecinfo(v, 0, 4);
        return b.build();
    }
}
