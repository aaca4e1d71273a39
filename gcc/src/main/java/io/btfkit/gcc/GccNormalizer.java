package io.btfkit.gcc;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.io.GccSignature;
import io.btfkit.core.TypeRefs;
import io.btfkit.core.elf.ElfConstants;
import io.btfkit.core.io.LoadedInput;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Reads gcc 12's BTF encodings ({@link GccQuirk}) for what they mean, unit by unit.
 *
 * <p>At {@link Level#LINK} (what {@code link} does by default) only the encodings with one
 * correct meaning are rewritten: a FWD's size/type word becomes 0, an enum declaration
 * written as a struct FWD becomes {@code ENUM size=4 vlen=0} (pahole's and the kernel's
 * spelling; see {@link FwdKinds} for how it is recognised), and an ARRAY of unknown bound
 * gets the index type the unit's other arrays use. At {@link Level#FIX} ({@code --fix}) the
 * result is also made acceptable to the kernel where the meaning is unambiguous: SIGNED|CHAR
 * becomes SIGNED, anonymous FUNCs are removed, a variable written twice keeps the copy its
 * DATASEC lists, and — when the input is one unit of an ELF object with a symbol table —
 * DATASECs are rebuilt from the ELF tables ({@link DatasecLayout}), global FUNCs get
 * global linkage and FUNCs of functions only declared there are removed (the kernel has no
 * extern FUNC). Every other quirk found is counted as kept.
 *
 * <p>Only units with a gcc 12 fingerprint (a non-zero FWD word, SIGNED|CHAR, an anonymous
 * FUNC, an ARRAY indexed by void, an 8-byte ENUM) are touched: other producers' BTF passes
 * through unchanged. Reading stays exact: this runs only where the meaning is used.
 */
public final class GccNormalizer {
    private GccNormalizer() {
    }

    /** How far to go. */
    public enum Level {
        /** Rewrite what has one correct meaning (link and dedup default). */
        LINK,
        /** Also make the BTF kernel-acceptable where the meaning is unambiguous (--fix). */
        FIX
    }

    /**
     * One unit after normalisation.
     *
     * @param btf     the rewritten unit (the input itself when nothing changed)
     * @param applied what was rewritten, per quirk
     * @param kept    quirks found and left as they are
     * @param idMap   input id to output id (a removed type maps to the type its references now
     *                go to, 0 for void), or null when every id is unchanged
     */
    public record UnitResult(Btf btf, QuirkCounts applied, QuirkCounts kept, int[] idMap) {
    }

    /** One input file after normalisation: its units, and the counts summed over them. */
    public record FileResult(LoadedInput input, List<UnitResult> units, QuirkCounts applied, QuirkCounts kept) {
        public List<Btf> btfs() {
            List<Btf> l = new ArrayList<>(units.size());
            units.forEach(u -> l.add(u.btf()));
            return l;
        }
    }

    /**
     * An INT to use as array index type where a unit has none of its own: the one most units of
     * the link use, else gcc's {@code sizetype} for the object's pointer size (LP64 when unknown).
     * The index type of an array carries no C meaning; the kernel only wants a regular INT.
     */
    record IndexType(String name, int size, int intWord) {
        static IndexType forPointerSize(int bytes) {
            return bytes == 4 ? new IndexType("unsigned int", 4, 32) : new IndexType("long unsigned int", 8, 64);
        }
    }

    /**
     * Normalises every unit of every input together: which FWDs declare enums is judged with
     * the names all units define, and a unit without an array index type borrows the most
     * common one of the others.
     */
    public static List<FileResult> normalize(List<LoadedInput> inputs, Level level) {
        Survey survey = new Survey();
        inputs.forEach(survey::add);
        Plan plan = survey.plan();
        FileResult[] out = new FileResult[inputs.size()];
        IntStream.range(0, inputs.size()).parallel().forEach(i -> out[i] = normalize(inputs.get(i), plan, level));
        return List.of(out);
    }

    /** What normalising a unit needs from all the units of a link ({@link Survey}). */
    public record Plan(boolean anyGcc, FwdKinds.Anchors anchors, IndexType common) {
    }

    /**
     * Collects the {@link Plan} input by input, in any order and from several threads, so that
     * a link need not hold every input at once: it reads them once for this and again to
     * normalise each with {@link #normalize(LoadedInput, Plan, Level)}.
     */
    public static final class Survey {
        private final FwdKinds.Survey fwds = new FwdKinds.Survey();
        private final Map<IndexType, Integer> indexTypes = new HashMap<>();
        private boolean anyGcc;

        /** Takes what {@code in}'s units tell. */
        public void add(LoadedInput in) {
            for (Btf u : in.units()) {
                add(u);
            }
        }

        /** Takes what unit {@code u} tells; nothing of it is kept (it may be read into again). */
        public void add(Btf u) {
            fwds.add(u);
            if (isGccEncoded(u)) {
                Map<IndexType, Integer> counts = indexTypes(u);
                synchronized (this) {
                    anyGcc = true;
                    counts.forEach((t, c) -> indexTypes.merge(t, c, Integer::sum));
                }
            }
        }

        /** The plan of every input taken. */
        public synchronized Plan plan() {
            return new Plan(anyGcc, anyGcc ? fwds.anchors() : null, mostCommon(indexTypes));
        }
    }

    /** Normalises {@code in}'s units with what {@code plan} collected from all the link's units. */
    public static FileResult normalize(LoadedInput in, Plan plan, Level level) {
        if (!plan.anyGcc()) {
            return file(in, in.units().stream()
                    .map(u -> new UnitResult(u, new QuirkCounts(), new QuirkCounts(), null)).toList());
        }
        boolean any = in.units().stream().anyMatch(GccNormalizer::isGccEncoded);
        ObjectSymbols syms = any ? symbolsOf(in) : null;
        IndexType fallback = plan.common() != null ? plan.common()
                : IndexType.forPointerSize(in.elf() != null && !in.elf().is64() ? 4 : 8);
        List<UnitResult> rs = new ArrayList<>(in.units().size());
        for (Btf u : in.units()) {
            rs.add(normalize(u, syms, plan.anchors(), fallback, level));
        }
        return file(in, rs);
    }

    /** Normalises one input on its own (convert --fix, validate): names come from its own units. */
    public static FileResult normalize(LoadedInput in, Level level) {
        return normalize(List.of(in), level).get(0);
    }

    private static FileResult file(LoadedInput in, List<UnitResult> units) {
        QuirkCounts applied = new QuirkCounts();
        QuirkCounts kept = new QuirkCounts();
        if (units.size() > 1) {
            applied.add(GccQuirk.CONCATENATED_BLOBS, units.size(), -1);
        }
        for (UnitResult u : units) {
            applied = applied.plus(u.applied());
            kept = kept.plus(u.kept());
        }
        return new FileResult(in, List.copyOf(units), applied, kept);
    }

    /** The object's symbols when they describe exactly this one unit, else null. */
    private static ObjectSymbols symbolsOf(LoadedInput in) {
        if (in.elf() == null || in.units().size() != 1 || in.elf().type() != ElfConstants.ET_REL) {
            return null;
        }
        return in.naming(() -> ObjectSymbols.of(in.elf()));
    }

    /** Whether {@code u} shows an encoding only gcc 12 writes ({@link GccSignature}). */
    public static boolean isGccEncoded(Btf u) {
        return GccSignature.isGccEncoded(u);
    }

    /** Normalises one unit; {@code syms} (may be null) must describe this unit's object alone. */
    static UnitResult normalize(Btf u, ObjectSymbols syms, FwdKinds.Anchors anchors, IndexType fallback, Level level) {
        QuirkCounts applied = new QuirkCounts();
        QuirkCounts kept = new QuirkCounts();
        if (!isGccEncoded(u)) {
            return new UnitResult(u, applied, kept, null);
        }
        boolean fix = level == Level.FIX;
        UnitRewriter r = new UnitRewriter(u);
        fwds(u, r, anchors, applied, kept);
        arrayIndexes(u, r, fallback, applied);
        ints(u, r, fix, applied, kept);
        // (which types are referenced, found once: removing a FUNC asks it)
        boolean[] referenced = fix ? referenced(u) : null;
        anonymousFuncs(u, r, referenced, applied, kept);
        duplicateVars(u, r, fix, applied, kept);
        funcLinkage(u, r, syms, referenced, applied, kept);
        datasecs(u, r, syms, fix, applied, kept);
        enums(u, kept);
        Btf out = r.build();
        return new UnitResult(out, applied, kept, r.hasRemovals() ? r.idMap() : null);
    }

    /** FWD size/type words to 0; enum declarations written as struct FWDs to ENUM size=4 vlen=0. */
    private static void fwds(Btf u, UnitRewriter r, FwdKinds.Anchors anchors, QuirkCounts applied, QuirkCounts kept) {
        int[] w = u.words();
        for (int id = u.firstId(); id < u.typeCount(); id++) {
            int s = u.startOf(id);
            if (Kind.kindOf(w[s + 1]) == Kind.FWD && w[s + 2] != 0) {
                r.setWord(id, 2, 0);
                applied.add(GccQuirk.FWD_TYPE_FIELD, id);
            }
        }
        for (int id : FwdKinds.enumDeclarations(u, anchors, kept)) {
            r.setWord(id, 1, Kind.info(Kind.ENUM, 0, false));
            r.setWord(id, 2, 4);
            applied.add(GccQuirk.ENUM_FWD, id);
        }
    }

    /**
     * ARRAYs indexed by void get the unit's most common index type, else the unit's INT equal to
     * {@code fallback}, else {@code fallback} appended.
     */
    private static void arrayIndexes(Btf u, UnitRewriter r, IndexType fallback, QuirkCounts applied) {
        int[] w = u.words();
        int voids = 0;
        Int2IntOpenHashMap uses = new Int2IntOpenHashMap();
        for (int id = u.firstId(); id < u.typeCount(); id++) {
            int s = u.startOf(id);
            if (Kind.kindOf(w[s + 1]) == Kind.ARRAY) {
                int idx = w[s + 4];
                if (idx == 0) {
                    voids++;
                } else if (u.kind(idx) == Kind.INT) {
                    uses.addTo(idx, 1);
                }
            }
        }
        if (voids == 0) {
            return;
        }
        int index = mostUsed(uses);
        for (int id = u.firstId(); index == 0 && id < u.typeCount(); id++) {
            int s = u.startOf(id);
            if (Kind.kindOf(w[s + 1]) == Kind.INT && w[s + 2] == fallback.size() && w[s + 3] == fallback.intWord()
                    && fallback.name().equals(u.strings().get(w[s]))) {
                index = id;
            }
        }
        if (index == 0) {
            index = r.append(new int[] {r.string(fallback.name()), Kind.info(Kind.INT, 0, false), fallback.size(),
                fallback.intWord()});
        }
        for (int id = u.firstId(); id < u.typeCount(); id++) {
            int s = u.startOf(id);
            if (Kind.kindOf(w[s + 1]) == Kind.ARRAY && w[s + 4] == 0) {
                r.setWord(id, 4, index);
                applied.add(GccQuirk.ARRAY_INDEX_VOID, id);
            }
        }
    }

    private static int mostUsed(Int2IntOpenHashMap uses) {
        int best = 0;
        int bestCount = 0;
        for (Int2IntOpenHashMap.Entry e : uses.int2IntEntrySet()) {
            int id = e.getIntKey();
            int c = e.getIntValue();
            if (c > bestCount || (c == bestCount && id < best)) {
                best = id;
                bestCount = c;
            }
        }
        return best;
    }

    /** The most common array index INT over {@code units} (the gcc 12 ones), or null. */
    /** How many ARRAYs of {@code u} use each INT as index type. */
    private static Map<IndexType, Integer> indexTypes(Btf u) {
        // counted by id first: an IndexType (and its name's String) per distinct INT, not per ARRAY
        Int2IntOpenHashMap byId = new Int2IntOpenHashMap();
        int[] w = u.words();
        int[] st = u.starts();
        for (int i = 0; i + 1 < st.length; i++) {
            int s = st[i];
            if (Kind.kindOf(w[s + 1]) == Kind.ARRAY && w[s + 4] != 0 && u.kind(w[s + 4]) == Kind.INT) {
                byId.addTo(w[s + 4], 1);
            }
        }
        Map<IndexType, Integer> counts = new HashMap<>();
        for (Int2IntOpenHashMap.Entry e : byId.int2IntEntrySet()) {
            int idx = e.getIntKey();
            IndexType t = new IndexType(u.strings().get(u.nameOff(idx)), u.sizeOrType(idx), u.extra(idx, 0));
            counts.merge(t, e.getIntValue(), Integer::sum);
        }
        return counts;
    }

    private static IndexType mostCommon(Map<IndexType, Integer> counts) {
        return counts.entrySet().stream().max(Map.Entry.<IndexType, Integer>comparingByValue()
                .thenComparing(e -> e.getKey().name(), java.util.Comparator.reverseOrder()))
                .map(Map.Entry::getKey).orElse(null);
    }

    /** SIGNED|CHAR to SIGNED. */
    private static void ints(Btf u, UnitRewriter r, boolean fix, QuirkCounts applied, QuirkCounts kept) {
        int[] w = u.words();
        for (int id = u.firstId(); id < u.typeCount(); id++) {
            int s = u.startOf(id);
            if (Kind.kindOf(w[s + 1]) == Kind.INT && GccSignature.encoding(w[s + 3]) == (Kind.INT_SIGNED | Kind.INT_CHAR)) {
                if (fix) {
                    r.setWord(id, 3, (w[s + 3] & ~(0xf << 24)) | (Kind.INT_SIGNED << 24));
                    applied.add(GccQuirk.CHAR_ENCODING, id);
                } else {
                    kept.add(GccQuirk.CHAR_ENCODING, id);
                }
            }
        }
    }

    /** Anonymous FUNCs that nothing references ({@code referenced}; null: keep them all) are removed. */
    private static void anonymousFuncs(Btf u, UnitRewriter r, boolean[] referenced, QuirkCounts applied,
                                       QuirkCounts kept) {
        int[] w = u.words();
        int[] st = u.starts();
        int first = u.firstId();
        for (int i = 0; i + 1 < st.length; i++) {
            int s = st[i];
            if (Kind.kindOf(w[s + 1]) == Kind.FUNC && w[s] == 0) {
                int id = first + i;
                if (referenced != null && !referenced[i]) {
                    r.remove(id, 0);
                    applied.add(GccQuirk.ANON_FUNC, id);
                } else {
                    kept.add(GccQuirk.ANON_FUNC, id);
                }
            }
        }
    }

    /** Whether FUNC_PROTO {@code proto} has a parameter without a name (other than a vararg marker). */
    private static boolean unnamedParameter(Btf u, int proto) {
        if (proto < u.firstId() || proto >= u.typeCount() || u.kind(proto) != Kind.FUNC_PROTO) {
            return false;
        }
        int[] w = u.words();
        int s = u.startOf(proto);
        int vlen = Kind.vlenOf(w[s + 1]);
        for (int k = 0, p = s + 3; k < vlen; k++, p += 2) {
            if (w[p] == 0 && !(k == vlen - 1 && w[p + 1] == 0)) {
                return true;
            }
        }
        return false;
    }

    /** Which own types of {@code u} some type refers to. */
    private static boolean[] referenced(Btf u) {
        int[] w = u.words();
        int[] st = u.starts();
        int first = u.firstId();
        boolean[] referenced = new boolean[u.ownTypeCount()];
        int count = u.typeCount();
        for (int i = 0; i + 1 < st.length; i++) {
            int start = st[i];
            int slot = TypeRefs.firstTypeIdSlot(w, start);
            int stride = TypeRefs.typeIdStride(w, start);
            for (int k = TypeRefs.typeIdCount(w, start); k > 0; k--, slot += stride) {
                int t = w[slot];
                if (t >= first && t < count) {
                    referenced[t - first] = true;
                }
            }
        }
        return referenced;
    }

    /** Of VARs sharing a name, exactly one listed in a DATASEC: the others are its extern declarations. */
    private static void duplicateVars(Btf u, UnitRewriter r, boolean fix, QuirkCounts applied, QuirkCounts kept) {
        int[] w = u.words();
        int first = u.firstId();
        boolean[] listed = new boolean[u.ownTypeCount()];
        Map<String, List<Integer>> byName = new HashMap<>();
        for (int id = first; id < u.typeCount(); id++) {
            int s = u.startOf(id);
            int kind = Kind.kindOf(w[s + 1]);
            if (kind == Kind.VAR && w[s] != 0) {
                byName.computeIfAbsent(u.strings().latin1(w[s]), k -> new ArrayList<>(1)).add(id);
            } else if (kind == Kind.DATASEC) {
                for (int k = 0, e = s + 3; k < Kind.vlenOf(w[s + 1]); k++, e += 3) {
                    if (w[e] >= first && w[e] < u.typeCount()) {
                        listed[w[e] - first] = true;
                    }
                }
            }
        }
        for (List<Integer> ids : byName.values()) {
            if (ids.size() < 2) {
                continue;
            }
            int keep = -1;
            int listedCount = 0;
            for (int id : ids) {
                if (listed[id - first]) {
                    keep = id;
                    listedCount++;
                }
            }
            for (int id : ids) {
                if (id == keep) {
                    continue;
                }
                if (fix && listedCount == 1) {
                    r.remove(id, keep);
                    applied.add(GccQuirk.DUPLICATE_VAR, id);
                } else {
                    kept.add(GccQuirk.DUPLICATE_VAR, id);
                }
            }
        }
    }

    /**
     * Static FUNCs whose symbol is a global function of the object become global. FUNCs of
     * functions the object does not define — it references them (undefined symbol), or they
     * are declarations whose prototype lacks parameter names, which the kernel rejects — are
     * removed unless referenced ({@code referenced}; null: only reported): the kernel has no
     * extern FUNC.
     */
    private static void funcLinkage(Btf u, UnitRewriter r, ObjectSymbols syms, boolean[] referenced,
                                    QuirkCounts applied, QuirkCounts kept) {
        if (syms == null) {
            return;
        }
        boolean fix = referenced != null;
        int[] w = u.words();
        int[] st = u.starts();
        for (int i = 0; i + 1 < st.length; i++) {
            int s = st[i];
            int info = w[s + 1];
            if (Kind.kindOf(info) != Kind.FUNC || w[s] == 0 || Kind.vlenOf(info) != Kind.LINKAGE_STATIC) {
                continue;
            }
            int id = u.firstId() + i;
            String name = u.strings().latin1(w[s]);
            if (syms.isGlobalFunction(name)) {
                if (fix) {
                    r.setWord(id, 1, Kind.info(Kind.FUNC, Kind.LINKAGE_GLOBAL, false));
                    applied.add(GccQuirk.FUNC_LINKAGE, id);
                } else {
                    kept.add(GccQuirk.FUNC_LINKAGE, id);
                }
            } else if (!syms.isDefined(name) && (syms.isOnlyUndefined(name) || unnamedParameter(u, w[s + 2]))) {
                if (fix && !referenced[i]) {
                    r.remove(id, 0);
                    applied.add(GccQuirk.EXTERN_FUNC, id);
                } else {
                    kept.add(GccQuirk.EXTERN_FUNC, id);
                }
            }
        }
    }

    /** DATASECs without a size: rebuilt from the ELF tables when they prove the layout ({@link DatasecLayout}), else kept. */
    private static void datasecs(Btf u, UnitRewriter r, ObjectSymbols syms, boolean fix, QuirkCounts applied,
                                 QuirkCounts kept) {
        int[] w = u.words();
        int unsized = 0;
        int firstUnsized = -1;
        for (int id = u.firstId(); id < u.typeCount(); id++) {
            int s = u.startOf(id);
            if (Kind.kindOf(w[s + 1]) == Kind.DATASEC && w[s + 2] == 0) {
                unsized++;
                firstUnsized = firstUnsized < 0 ? id : firstUnsized;
            }
        }
        if (unsized == 0) {
            return;
        }
        DatasecLayout.Plan plan = syms == null ? null : DatasecLayout.plan(u, r.words(), syms);
        if (plan == null || plan.problem() != null || !fix) {
            kept.add(GccQuirk.DATASEC_LAYOUT, unsized, firstUnsized);
            if (plan != null && plan.problem() == null) {
                kept.add(GccQuirk.DATASEC_SECTION, plan.moved(), plan.firstMoved());
                kept.add(GccQuirk.EXTERN_VAR, plan.externs(), plan.firstExtern());
            }
            return;
        }
        plan.replace().forEach(r::replace);
        for (int id : plan.remove()) {
            r.remove(id, 0);
        }
        plan.add().forEach((name, words) -> {
            words[0] = r.string(name);
            r.append(words);
        });
        applied.add(GccQuirk.DATASEC_LAYOUT, plan.fixed(), firstUnsized);
        applied.add(GccQuirk.DATASEC_SECTION, plan.moved(), plan.firstMoved());
        applied.add(GccQuirk.EXTERN_VAR, plan.externs(), plan.firstExtern());
    }

    /** 8-byte ENUMs (values beyond 32 bits lost) and unsigned enums with values that look negative. */
    private static void enums(Btf u, QuirkCounts kept) {
        int[] w = u.words();
        for (int id = u.firstId(); id < u.typeCount(); id++) {
            int s = u.startOf(id);
            int info = w[s + 1];
            if (Kind.kindOf(info) != Kind.ENUM) {
                continue;
            }
            int size = w[s + 2];
            if (size == 8) {
                kept.add(GccQuirk.ENUM_SIZE8, id);
            } else if (!Kind.kindFlagOf(info) && size > 0 && size <= 4) {
                int sign = 1 << (8 * size - 1);
                for (int k = 0, v = s + 4; k < Kind.vlenOf(info); k++, v += 2) {
                    if ((w[v] & sign) != 0) {
                        kept.add(GccQuirk.ENUM_UNSIGNED, id);
                        break;
                    }
                }
            }
        }
    }
}
