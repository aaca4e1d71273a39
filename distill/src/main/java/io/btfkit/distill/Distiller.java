package io.btfkit.distill;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import io.btfkit.core.StringPool;
import io.btfkit.core.StringTable;
import io.btfkit.core.TypeRefs;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import java.util.Objects;
import java.util.function.IntConsumer;

/**
 * Distills a split BTF (libbpf {@code btf__distill_base}): from a split BTF on its full base,
 * makes a small <em>distilled base</em> holding just enough about each referenced base type to
 * find it again in another kernel's base, plus a new split BTF on that distilled base holding
 * everything else the split needs.
 *
 * <p>What goes where, for each base type the split references ({@link BaseReferences}):
 * <ul>
 *   <li>INT, FLOAT, FWD: copied whole into the distilled base;</li>
 *   <li>named STRUCT/UNION: into the distilled base as the same kind, same size, no members;</li>
 *   <li>named ENUM/ENUM64: into the distilled base as an ENUM of the same size, no values,
 *       unsigned;</li>
 *   <li>anonymous STRUCT/UNION/ENUM/ENUM64 and ARRAY, TYPEDEF, PTR, CONST, VOLATILE, RESTRICT,
 *       FUNC_PROTO, TYPE_TAG: copied whole into the new split, after the split's own types.</li>
 * </ul>
 *
 * <p>Numbering is libbpf's, so the bytes match: distilled base types in base-id order from id 1;
 * then the split's own types in their order, then the copied base types in base-id order. Every
 * reference is renumbered accordingly. Distilled base strings: the empty string, then names in
 * type order. New split strings: each string in field order (name, then member, value and
 * parameter names) over the new split's types in order, reusing a string already in the
 * distilled base, so they start at the base's string end with no leading empty string.
 *
 * <p>Example, on base {@code [1] INT 'int'}, {@code [2] PTR type_id=1},
 * {@code [3] STRUCT 's' size=8} and split {@code [4] TYPEDEF 't' type_id=2},
 * {@code [5] PTR type_id=3}: distilled base {@code [1] INT 'int'}, {@code [2] STRUCT 's' size=8
 * vlen=0}; new split {@code [3] TYPEDEF 't' type_id=5}, {@code [4] PTR type_id=2},
 * {@code [5] PTR type_id=1}.
 *
 * <p>Needs no per-base precomputation: the cost is the split's size plus the referenced base
 * types', whatever the base's size, so a batch over many modules can share one base freely
 * (the base is only read).
 */
public final class Distiller {
    private Distiller() {
    }

    /**
     * The two halves of a distilled split BTF: {@code newSplit.base() == distilledBase}.
     *
     * @param newId where each type of the input went: a split type or a referenced base type to
     *              its id in the outputs (distilled base ids, then new split ids); 0 for a base
     *              type the split does not reference
     */
    public record Result(Btf distilledBase, Btf newSplit, java.util.function.IntUnaryOperator newId) {
        public Result {
            Objects.requireNonNull(distilledBase);
            Objects.requireNonNull(newSplit);
            Objects.requireNonNull(newId);
        }
    }

    /**
     * Distills {@code split}, whose {@link Btf#base()} is its full base. Both outputs keep the
     * input's byte order and use the classic 24-byte header.
     *
     * @throws OperationException when the input is not split BTF, when it refers to a base type
     *                            of a kind a distilled base cannot stand for (FUNC, VAR, DATASEC,
     *                            DECL_TAG), or a named enum's size is not 1, 2, 4 or 8
     */
    public static Result distill(Btf split) {
        if (!split.isSplit()) {
            throw new OperationException("input is standalone BTF; distillation needs split BTF and its base");
        }
        Btf.RawFormat format = new Btf.RawFormat(split.format().order(), 24, 0, null);
        int[] refs = BaseReferences.collect(split);

        // 1. distilled base: INT/FLOAT/FWD whole, named composites and enums as sized stubs
        Int2IntOpenHashMap newId = new Int2IntOpenHashMap(refs.length * 2);
        int baseTypes = 0;
        int baseWords = 0;
        for (int id : refs) {
            if (goesToBase(split, id)) {
                baseTypes++;
                baseWords += split.kind(id) == Kind.INT ? 4 : 3;
            }
        }
        int[] bw = new int[baseWords];
        int[] bs = new int[baseTypes + 1];
        StringPool basePool = new StringPool();
        basePool.add(new byte[0]);
        StringTable src = split.strings();
        int n = 0;
        int p = 0;
        for (int id : refs) {
            if (!goesToBase(split, id)) {
                continue;
            }
            int kind = split.kind(id);
            int nameOff = split.nameOff(id);
            bs[n] = p;
            bw[p] = nameOff == 0 ? 0 : addString(basePool, src, nameOff);
            switch (kind) {
                case Kind.INT:
                    bw[p + 1] = split.info(id);
                    bw[p + 2] = split.sizeOrType(id);
                    bw[p + 3] = split.extra(id, 0);
                    p += 4;
                    break;
                case Kind.FLOAT:
                case Kind.FWD:
                    bw[p + 1] = split.info(id);
                    bw[p + 2] = split.sizeOrType(id);
                    p += 3;
                    break;
                case Kind.STRUCT:
                case Kind.UNION:
                    bw[p + 1] = Kind.info(kind, 0, false);
                    bw[p + 2] = split.sizeOrType(id);
                    p += 3;
                    break;
                default: // ENUM, ENUM64
                    int size = split.sizeOrType(id);
                    if (size <= 0 || size > 8 || (size & (size - 1)) != 0) {
                        throw new OperationException("base type " + BaseReferences.describe(split, id) + " has size " + size
                                + "; a distilled enum must have size 1, 2, 4 or 8");
                    }
                    bw[p + 1] = Kind.info(Kind.ENUM, 0, false);
                    bw[p + 2] = size;
                    p += 3;
                    break;
            }
            n++;
            newId.put(id, n);
        }
        bs[n] = p;
        Btf distilledBase = new Btf(null, bw, bs, new StringTable(null, basePool.toByteArray()), format);

        // 2. new split: own types, then the copied base types, strings reused from the distilled base
        int splitStart = split.firstId();
        int ownTypes = split.ownTypeCount();
        int ownWords = split.starts()[ownTypes];
        int copied = refs.length - baseTypes;
        int copiedWords = 0;
        int nextId = distilledBase.typeCount() + ownTypes;
        for (int id : refs) {
            if (!goesToBase(split, id)) {
                copiedWords += split.wordCount(id);
                newId.put(id, nextId++);
            }
        }
        int[] sw = new int[ownWords + copiedWords];
        int[] ss = new int[ownTypes + copied + 1];
        System.arraycopy(split.words(), 0, sw, 0, ownWords);
        System.arraycopy(split.starts(), 0, ss, 0, ownTypes);
        p = ownWords;
        n = ownTypes;
        for (int id : refs) {
            if (!goesToBase(split, id)) {
                Btf owner = split.owner(id);
                int from = owner.starts()[id - owner.firstId()];
                int len = split.wordCount(id);
                System.arraycopy(owner.words(), from, sw, p, len);
                ss[n++] = p;
                p += len;
            }
        }
        ss[n] = p;
        int idShift = splitStart - distilledBase.typeCount();
        StringPool splitPool = new StringPool(src.length() + 64);
        int baseStrEnd = distilledBase.strings().end();
        IntConsumer renameString = slot -> {
            int off = sw[slot];
            if (off != 0) {
                sw[slot] = splitString(basePool, splitPool, baseStrEnd, src, off);
            }
        };
        IntConsumer renumberType = slot -> {
            int ref = sw[slot];
            int mapped = newId.get(ref);
            if (mapped != 0) {
                sw[slot] = mapped;
            } else if (ref >= splitStart) {
                sw[slot] = ref - idShift;
            }
        };
        for (int i = 0; i < n; i++) {
            TypeRefs.forEachStringSlot(sw, ss[i], renameString);
            TypeRefs.forEachTypeIdSlot(sw, ss[i], renumberType);
        }
        Btf newSplit = new Btf(distilledBase, sw, ss, new StringTable(distilledBase.strings(), splitPool.toByteArray()), format);
        return new Result(distilledBase, newSplit, id -> id >= splitStart ? id - idShift : newId.get(id));
    }

    /** Whether referenced base type {@code id} is represented in the distilled base (else copied into the split). */
    private static boolean goesToBase(Btf btf, int id) {
        switch (btf.kind(id)) {
            case Kind.INT:
            case Kind.FLOAT:
            case Kind.FWD:
                return true;
            case Kind.STRUCT:
            case Kind.UNION:
            case Kind.ENUM:
            case Kind.ENUM64:
                return btf.nameOff(id) != 0;
            default:
                return false;
        }
    }

    private static int addString(StringPool pool, StringTable src, int off) {
        StringTable t = src.tableOf(off);
        return pool.add(t.bytes(), off - t.start(), src.lengthAt(off));
    }

    /** Offset in the new split's string space: the distilled base's copy when it has one, else the split's own. */
    private static int splitString(StringPool basePool, StringPool splitPool, int baseStrEnd, StringTable src, int off) {
        StringTable t = src.tableOf(off);
        int from = off - t.start();
        int len = src.lengthAt(off);
        int inBase = basePool.find(t.bytes(), from, len);
        if (inBase >= 0) {
            return inBase;
        }
        return baseStrEnd + splitPool.add(t.bytes(), from, len);
    }
}
