package io.btfkit.corpus;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Splits a deduplicated BTF (a vmlinux) into N standalone per-compilation-unit BTFs, the way a
 * kernel build's objects look before linking: every type is a root of one random unit, each
 * unit holds the closure of its roots, and a named struct or union that a unit reaches only
 * through pointers (or function prototypes) is, with some probability, only declared there
 * (a FWD) — as real compilation units see most structs.
 *
 * <p>It records the truth: for every unit type, the vmlinux type it came from (a FWD: the
 * struct it declares). A correct link maps every unit type to an output type that represents
 * exactly that vmlinux type. VAR and DATASEC appear once (in the unit they are roots of): libbpf
 * never merges them, and per-CU copies of section descriptions are not what real objects carry.
 *
 * <p>Two ways to choose the roots ({@link Roots}): every type a root of one random unit, where a
 * unit's declaration of a struct it also defines under that name is made a definition (each
 * unit one tag per name); or like the reference split of issue 15, where functions, named types
 * and orphans (types nothing refers to) are the roots, each unit adds 2-12 random named roots
 * (so functions and types sit in several units), a declaration is chosen per unit and name, and
 * a unit may define one struct and declare another of the same name (two tags of one name, as
 * in block or prototype scope).
 *
 * <p>Usage: {@code CuSplitter VMLINUX OUTDIR UNITS [SEED] [FWD_PROBABILITY] [every|reference]}
 * writes {@code OUTDIR/unit-NNNNN.btf} and {@code OUTDIR/unit-NNNNN.truth} (little-endian u32 per
 * unit type: the vmlinux id).
 */
public final class CuSplitter {
    /** One unit: its BTF and, per unit type id (from 1), the vmlinux id it stands for. */
    public record Unit(Btf btf, int[] truth) {
    }

    /** How the roots of the units are chosen. */
    public enum Roots {
        /** Every type is a root of one random unit. */
        EVERY_TYPE,
        /**
         * Functions, named types and orphans are roots of one random unit each, and every unit adds
         * {@link #MIN_EXTRA}-{@link #MAX_EXTRA} random named roots.
         */
        REFERENCE;

        static final int MIN_EXTRA = 2;
        static final int MAX_EXTRA = 12;

        public static Roots parse(String s) {
            return switch (s) {
                case "every" -> EVERY_TYPE;
                case "reference" -> REFERENCE;
                default -> throw new IllegalArgumentException("roots: every or reference, not " + s);
            };
        }
    }

    private final Btf src;
    private final int units;
    private final long seed;
    private final double fwdProbability;
    private final Roots mode;

    public CuSplitter(Btf src, int units, long seed, double fwdProbability) {
        this(src, units, seed, fwdProbability, Roots.EVERY_TYPE);
    }

    public CuSplitter(Btf src, int units, long seed, double fwdProbability, Roots mode) {
        if (src.isSplit()) {
            throw new IllegalArgumentException("split a standalone BTF");
        }
        this.src = src;
        this.units = units;
        this.seed = seed;
        this.fwdProbability = fwdProbability;
        this.mode = mode;
    }

    /** The roots of each unit. */
    private List<IntArrayList> roots() {
        List<IntArrayList> roots = new ArrayList<>();
        for (int u = 0; u < units; u++) {
            roots.add(new IntArrayList());
        }
        SplittableRandom r = new SplittableRandom(seed);
        if (mode == Roots.EVERY_TYPE) {
            for (int id = 1; id < src.typeCount(); id++) {
                int u = r.nextInt(units);
                roots.get(isSectionData(id) ? 0 : u).add(id);
            }
            return roots;
        }
        boolean[] referenced = new boolean[src.typeCount()];
        int[] w = src.words();
        for (int id = 1; id < src.typeCount(); id++) {
            TypeRefs.forEachTypeIdSlot(w, src.startOf(id), slot -> referenced[w[slot]] = true);
        }
        IntArrayList named = new IntArrayList();
        for (int id = 1; id < src.typeCount(); id++) {
            if (isSectionData(id)) {
                roots.get(0).add(id);
            } else if (src.nameOff(id) != 0 || src.kind(id) == Kind.FUNC || !referenced[id]) {
                roots.get(r.nextInt(units)).add(id);
                if (src.nameOff(id) != 0) {
                    named.add(id);
                }
            }
        }
        for (int u = 0; u < units; u++) {
            int extra = Roots.MIN_EXTRA + r.nextInt(Roots.MAX_EXTRA - Roots.MIN_EXTRA + 1);
            for (int k = 0; k < extra; k++) {
                roots.get(u).add(named.getInt(r.nextInt(named.size())));
            }
        }
        return roots;
    }

    public List<Unit> split() {
        List<Unit> out = new ArrayList<>();
        List<IntArrayList> roots = roots();
        for (int u = 0; u < units; u++) {
            out.add(unit(u, roots.get(u)));
        }
        return out;
    }

    /** Unit {@code u} alone (the same as {@code split().get(u)}), for streaming large splits. */
    public Unit unit(int u) {
        return unit(u, roots().get(u));
    }

    /** Variables, sections and tags on variables: one copy, in unit 0, like one object's data. */
    private boolean isSectionData(int id) {
        int k = src.kind(id);
        if (k == Kind.DECL_TAG) {
            k = src.kind(src.sizeOrType(id));
        }
        return k == Kind.VAR || k == Kind.DATASEC;
    }

    private static final byte ABSENT = 0;
    private static final byte DECLARED = 1;
    private static final byte FULL = 2;
    /** A typedef or modifier needed only on the way to a pointer's target. */
    private static final byte THROUGH = 3;

    private Unit unit(int u, IntArrayList roots) {
        int n = src.typeCount();
        byte[] state = new byte[n];
        IntArrayList work = new IntArrayList();
        for (int i = 0; i < roots.size(); i++) {
            int id = roots.getInt(i);
            if (state[id] != FULL) {
                state[id] = FULL;
                work.add(id);
            }
        }
        do {
            expand(u, state, work);
        } while (mode == Roots.EVERY_TYPE && defineClashingDeclarations(state, work));
        return build(state);
    }

    private void expand(int u, byte[] state, IntArrayList work) {
        while (!work.isEmpty()) {
            int id = work.popInt();
            Btf owner = src;
            int[] w = owner.words();
            int s = owner.startOf(id);
            int kind = Kind.kindOf(w[s + 1]);
            boolean pointerContext = kind == Kind.PTR || kind == Kind.FUNC_PROTO;
            boolean holdsVars = kind == Kind.DATASEC || kind == Kind.DECL_TAG;
            int count = TypeRefs.typeIdCount(w, s);
            for (int i = 0; i < count; i++) {
                int ref = w[TypeRefs.typeIdSlot(w, s, i)];
                if (holdsVars && ref != 0 && src.kind(ref) == Kind.VAR && state[ref] != FULL) {
                    state[ref] = FULL;
                    work.add(ref);
                    continue;
                }
                reach(u, ref, pointerContext, state, work);
            }
        }
    }

    /**
     * ({@link Roots#EVERY_TYPE}) Each unit one tag type per name: where a unit would declare one
     * struct and define another of the same name, the declared one is defined too (both
     * definitions then make the name ambiguous within the unit).
     */
    private boolean defineClashingDeclarations(byte[] state, IntArrayList work) {
        it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap full = new it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap();
        for (int id = 1; id < state.length; id++) {
            if (state[id] == FULL && Kind.isComposite(src.kind(id)) && src.nameOff(id) != 0) {
                full.put(src.nameOff(id), id);
            }
        }
        boolean changed = false;
        for (int id = 1; id < state.length; id++) {
            if (state[id] == DECLARED && full.containsKey(src.nameOff(id))) {
                state[id] = FULL;
                work.add(id);
                changed = true;
            }
        }
        return changed;
    }

    /** Marks {@code ref} as needed; through pointers a named composite may stay declared only. */
    private void reach(int u, int ref, boolean pointerContext, byte[] state, IntArrayList work) {
        if (ref == 0 || state[ref] == FULL) {
            return;
        }
        int kind = src.kind(ref);
        if (kind == Kind.VAR || kind == Kind.DATASEC) {
            return; // only where they are roots
        }
        if (pointerContext && (kind == Kind.TYPEDEF || Kind.isModifier(kind))) {
            // 'const s_t *': the typedef is needed, what it names only through the pointer
            if (state[ref] == THROUGH) {
                return;
            }
            state[ref] = THROUGH;
            reach(u, src.sizeOrType(ref), true, state, work);
            return;
        }
        if (pointerContext && Kind.isComposite(kind) && src.nameOff(ref) != 0) {
            if (state[ref] == DECLARED || declareOnly(u, ref)) {
                state[ref] = DECLARED;
                return;
            }
        }
        state[ref] = FULL;
        work.add(ref);
    }

    /** Whether unit {@code u} only declares {@code id} (per unit and type, or per unit and name). */
    private boolean declareOnly(int u, int id) {
        long h = (seed * 0x9E3779B97F4A7C15L) ^ ((long) u << 32) ^ (mode == Roots.EVERY_TYPE ? id : src.nameOff(id));
        return new SplittableRandom(h).nextDouble() < fwdProbability;
    }

    private Unit build(byte[] state) {
        int n = src.typeCount();
        int[] newId = new int[n];
        int next = 1;
        for (int id = 1; id < n; id++) {
            if (state[id] != ABSENT) {
                newId[id] = next++;
            }
        }
        int[] truth = new int[next];
        BtfBuilder b = new BtfBuilder();
        int[] w = src.words();
        for (int id = 1; id < n; id++) {
            if (state[id] == ABSENT) {
                continue;
            }
            truth[newId[id]] = id;
            if (state[id] == DECLARED) {
                b.addFwd(src.name(id), src.kind(id) == Kind.UNION);
                continue;
            }
            int s = src.startOf(id);
            int len = src.wordCount(id);
            int[] copy = Arrays.copyOfRange(w, s, s + len);
            TypeRefs.forEachTypeIdSlot(copy, 0, slot -> copy[slot] = newId[copy[slot]]);
            TypeRefs.forEachStringSlot(copy, 0, slot -> copy[slot] = copy[slot] == 0 ? 0
                    : b.addString(src.strings(), copy[slot]));
            b.addRaw(copy, 0, len);
        }
        return new Unit(b.build(), truth);
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: CuSplitter VMLINUX OUTDIR UNITS [SEED] [FWD_PROBABILITY] [every|reference]");
            System.exit(2);
        }
        Btf src = BtfReader.read(Files.readAllBytes(Paths.get(args[0])));
        Path dir = Paths.get(args[1]);
        int units = Integer.parseInt(args[2]);
        long seed = args.length > 3 ? Long.parseLong(args[3]) : 1;
        double p = args.length > 4 ? Double.parseDouble(args[4]) : 0.5;
        Roots mode = args.length > 5 ? Roots.parse(args[5]) : Roots.EVERY_TYPE;
        Files.createDirectories(dir);
        CuSplitter splitter = new CuSplitter(src, units, seed, p, mode);
        List<IntArrayList> roots = splitter.roots();
        long types = 0;
        for (int u = 0; u < units; u++) {
            Unit unit = splitter.unit(u, roots.get(u));
            String stem = String.format("unit-%05d", u);
            Files.write(dir.resolve(stem + ".btf"), BtfWriter.write(unit.btf()));
            ByteBuffer bb = ByteBuffer.allocate(4 * unit.truth().length).order(ByteOrder.LITTLE_ENDIAN);
            bb.asIntBuffer().put(unit.truth());
            Files.write(dir.resolve(stem + ".truth"), bb.array());
            types += unit.btf().ownTypeCount();
        }
        System.err.printf("units=%d types=%d%n", units, types);
    }
}
