package io.btfkit.dedup;

import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;

/**
 * Split dedup: when a base FWD stands for the split's own definition (DEDUP.md, "Split dedup: a
 * base declaration and the split's one definition").
 *
 * <p>Base types are fixed, so a base {@code FWD 's2'} stays a declaration, and a split declaration
 * of {@code s2} normally stays that base declaration, as libbpf keeps it. libbpf reads the base
 * FWD as the split's {@code struct s2} once a split struct (or, as libbpf master's struct pass
 * finds base typedefs too, a typedef) is found equal to a base one except that one has the full
 * {@code s2} where the other has the FWD (a <em>pairing</em>; selftest
 * {@code btf_dedup_split/split_struct_duped}, module libnvdimm's {@code ndctl_fn}): that split
 * type stays (the base cannot change), the split's declarations and references of the FWD go to
 * its {@code s2}, and split structs and typedefs compared later (libbpf's id order) that equal a
 * base one through FWDs read so map to it.
 * btfkit follows that order but takes a pairing as evidence only for a name with exactly one
 * definition in base and split together, the split's, of the FWD's kind (rule 3 across the two):
 * a name defined more than once is never resolved, and no struct is mapped through a declaration
 * of such a name (libbpf's FWD = STRUCT equivalence guesses there).
 */
final class BaseForwards {
    /**
     * Bound on pairs compared in one walk (each base type is compared at most once, so only a
     * walk through most of a vmlinux gets near it): a larger graph is taken as not equal.
     */
    private static final int MAX_STEPS = 1 << 18;

    private final Merger.Merged m;
    private final BaseIndex base;
    private final int[] bw;
    private final int[] bs;
    private final int first;
    private final Aliases aliases;
    private final Definitions.ByName own;

    private BaseForwards(Merger.Merged m, BaseIndex base, Definitions.ByName own, Aliases aliases) {
        this.own = own;
        this.m = m;
        this.base = base;
        this.bw = base.base().words();
        this.bs = base.base().starts();
        this.first = m.firstId;
        this.aliases = aliases;
    }

    /**
     * Resolves the split's declarations and references of base FWDs that a pairing proves to stand
     * for the split's one definition of their name. Returns how many base FWDs were resolved.
     */
    static int resolve(Merger.Merged m, BaseIndex base, Definitions.ByName own, Aliases aliases) {
        return new BaseForwards(m, base, own, aliases).run(own);
    }

    private int run(Definitions.ByName own) {
        int[] w = m.words;
        int[] st = m.starts;
        int n = st.length - 1;
        // 1. base FWDs whose name the split alone defines, once, with the FWD's kind
        IntOpenHashSet candidates = new IntOpenHashSet();
        IntOpenHashSet seen = new IntOpenHashSet();
        for (int i = 0; i < n; i++) {
            int s = st[i];
            int name = w[s];
            if (name != 0 && Kind.isComposite(Kind.kindOf(w[s + 1])) && seen.add(name)
                    && base.byName.composites.get(name) == Names.ABSENT) {
                for (int c : base.forwardsNamed(name)) {
                    if (isCandidate(c, own)) {
                        candidates.add(c);
                    }
                }
            }
        }
        if (candidates.isEmpty()) {
            return 0;
        }
        Int2IntOpenHashMap baseFwdOf = new Int2IntOpenHashMap(); // split FWD node -> equal base FWD
        baseFwdOf.defaultReturnValue(-1);
        for (int i = 0; i < n; i++) {
            int s = st[i];
            if (!aliases.isAlias(i) && w[s] != 0 && Kind.kindOf(w[s + 1]) == Kind.FWD) {
                int c = equalBaseFwd(w, s);
                if (c > 0 && candidates.contains(c)) {
                    baseFwdOf.put(first + i, c);
                }
            }
        }
        // 2. pairings: a split struct (or typedef) equal to a base one but for base FWD x <->
        // split x, in id order, as libbpf's struct pass (which takes typedefs too): a pairing
        // keeps its split type (the base is fixed) and resolves the FWD; a struct or typedef
        // compared later that equals a base one only through FWDs resolved so far maps to it,
        // with the structs it pairs on the way
        Int2IntOpenHashMap resolved = new Int2IntOpenHashMap();
        resolved.defaultReturnValue(-1);
        Pairing walk = new Pairing();
        for (int i = 0; i < n; i++) {
            int s = st[i];
            int info = w[s + 1];
            int kind = Kind.kindOf(info);
            boolean typedef = kind == Kind.TYPEDEF;
            if (aliases.isAlias(i) || w[s] == 0 || !(typedef || Kind.isComposite(kind) && Kind.vlenOf(info) > 0)) {
                continue;
            }
            for (int b : typedef ? base.typedefsNamed(w[s]) : base.compositesNamed(w[s])) {
                if (!Shapes.equal(w, s, bw, bs[b - 1]) || !walk.equivalent(first + i, b, baseFwdOf, resolved)) {
                    continue;
                }
                if (!walk.fwds.isEmpty()) {
                    for (int k = 0; k < walk.fwds.size(); k += 2) {
                        int c = walk.fwds.getInt(k);
                        if (candidates.contains(c) && resolved.get(c) < 0) {
                            resolved.put(c, walk.fwds.getInt(k + 1));
                        }
                    }
                    continue; // not really equivalent: the base FWD had to change
                }
                // equal now: mapped now, as libbpf does, before a later pairing could resolve a
                // split FWD on the way (the partition would then no longer see them equal) —
                // unless the equality took a declaration of an ambiguous name for a definition
                if (!walk.guessed) {
                    mapOnto(first + i, b, walk);
                }
                break;
            }
        }
        if (resolved.isEmpty()) {
            return 0;
        }
        // 3. the split's declarations and references of those base FWDs go to the definition
        for (Int2IntOpenHashMap.Entry e : baseFwdOf.int2IntEntrySet()) {
            int t = resolved.get(e.getIntValue());
            if (t >= 0) {
                aliases.set(e.getIntKey() - first, t);
            }
        }
        for (int i = 0; i < n; i++) {
            int s = st[i];
            int count = TypeRefs.typeIdCount(w, s);
            for (int k = 0, slot = TypeRefs.firstTypeIdSlot(w, s), stride = TypeRefs.typeIdStride(w, s); k < count;
                    k++, slot += stride) {
                int ref = w[slot];
                if (ref > 0 && ref < first) {
                    int t = resolved.get(ref);
                    if (t >= 0) {
                        w[slot] = t;
                    }
                }
            }
        }
        return resolved.size();
    }

    /**
     * Maps split struct or typedef {@code t0} onto base {@code c0}, and the split structs and
     * unions its walk paired with base ones and not yet taken in id order onto those base types
     * (a typedef met on the way is left to its own turn, as libbpf leaves it).
     */
    private void mapOnto(int t0, int c0, Pairing walk) {
        if (Kind.kindOf(m.words[m.starts[t0 - first] + 1]) == Kind.TYPEDEF) {
            aliases.set(t0 - first, c0);
        }
        for (Int2IntOpenHashMap.Entry e : walk.hypot.int2IntEntrySet()) {
            int c = e.getIntKey();
            int t = e.getIntValue();
            if (t >= t0 && !aliases.isAlias(t - first) && Kind.isComposite(Kind.kindOf(m.words[m.starts[t - first] + 1]))
                    && Kind.isComposite(Kind.kindOf(bw[bs[c - 1] + 1]))) {
                aliases.set(t - first, c);
            }
        }
    }

    /** The base FWD of the same name and kind as the split FWD at {@code w[s]}, or -1. */
    private int equalBaseFwd(int[] w, int s) {
        if (!base.hasDeclaration(w, s)) {
            return -1;
        }
        for (int id : base.forwardsNamed(w[s])) {
            if (bw[bs[id - 1] + 1] == w[s + 1]) {
                return id;
            }
        }
        return -1;
    }

    /**
     * Whether base type {@code c} is a FWD whose name the base never defines and the split
     * defines exactly once (one definition class), with the FWD's kind.
     */
    private boolean isCandidate(int c, Definitions.ByName own) {
        int cs = bs[c - 1];
        int name = bw[cs];
        if (name == 0 || Kind.kindOf(bw[cs + 1]) != Kind.FWD
                || base.byName.composites.get(name) != Names.ABSENT) {
            return false;
        }
        int def = own.composites.get(name);
        if (def < 0) {
            return false;
        }
        int node = own.firstNode.get(def);
        return node >= first && Declarations.kindMatches(bw, cs, m.words, m.starts[node - first]);
    }

    /** Whether several definitions carry {@code name} in base and split together. */
    private boolean isAmbiguous(int name, boolean composite) {
        int d = composite ? own.composites.get(name) : own.enums.get(name);
        return Names.combine(d, composite ? base.byName.composites.get(name) : base.byName.enums.get(name))
                == Names.AMBIGUOUS;
    }

    private int resolveSplit(int id) {
        while (id >= first && aliases.isAlias(id - first)) {
            id = aliases.target(id - first);
        }
        return id;
    }

    /**
     * libbpf's type graph equivalence of a split type against a base type, side by side: each
     * base type pairs with at most one split type; a FWD equals a full struct or union of its
     * name and kind. Records the pairs (base FWD, split full type) it relied on.
     */
    private final class Pairing {
        final Int2IntOpenHashMap hypot = new Int2IntOpenHashMap();
        final IntArrayList stack = new IntArrayList();
        final IntArrayList fwds = new IntArrayList();
        /** Whether the walk equated a declaration of an ambiguous name with a definition (libbpf's guess). */
        boolean guessed;

        Pairing() {
            hypot.defaultReturnValue(-1);
        }

        boolean equivalent(int t0, int c0, Int2IntOpenHashMap baseFwdOf, Int2IntOpenHashMap resolved) {
            hypot.clear();
            stack.clear();
            fwds.clear();
            guessed = false;
            stack.add(t0);
            stack.add(c0);
            int steps = 0;
            while (!stack.isEmpty()) {
                int c = stack.removeInt(stack.size() - 1);
                int t = resolveSplit(stack.removeInt(stack.size() - 1));
                if (t >= first) {
                    int fwd = baseFwdOf.get(t);
                    t = fwd > 0 ? fwd : t;
                }
                if (t == c) {
                    continue;
                }
                int r = resolved.get(c);
                if (r >= 0) {
                    // the FWD reads as the name's one definition: any full tag of it, or its FWD
                    int[] tw = t < first ? bw : m.words;
                    int ts = t < first ? bs[t - 1] : m.starts[t - first];
                    if (t == 0 || tw[ts] != bw[bs[c - 1]] || !(Kind.kindOf(tw[ts + 1]) == Kind.FWD
                            ? tw[ts + 1] == bw[bs[c - 1] + 1] : Declarations.kindMatches(bw, bs[c - 1], tw, ts))) {
                        return false;
                    }
                    continue;
                }
                if (++steps > MAX_STEPS) {
                    return false;
                }
                int h = hypot.get(c);
                if (h >= 0) {
                    if (h == t) {
                        continue;
                    }
                    return false;
                }
                hypot.put(c, t);
                if (t == 0 || c == 0) {
                    return false;
                }
                int[] tw = t < first ? bw : m.words;
                int ts = t < first ? bs[t - 1] : m.starts[t - first];
                int cs = bs[c - 1];
                if (tw[ts] != bw[cs]) {
                    return false;
                }
                int tk = Kind.kindOf(tw[ts + 1]);
                int ck = Kind.kindOf(bw[cs + 1]);
                if (Kind.isEnum(tk) && Kind.isEnum(ck)
                        && (Kind.vlenOf(tw[ts + 1]) == 0 || Kind.vlenOf(bw[cs + 1]) == 0)) {
                    // an enum declaration equals any enum of its name (libbpf): a guess unless the
                    // name has one definition
                    guessed |= isAmbiguous(tw[ts], false);
                    continue;
                }
                if ((tk == Kind.FWD || ck == Kind.FWD) && tk != ck) {
                    if (ck == Kind.FWD) {
                        if (!Declarations.kindMatches(bw, cs, tw, ts)) {
                            return false;
                        }
                        fwds.add(c);
                        fwds.add(t);
                    } else if (!Declarations.kindMatches(tw, ts, bw, cs)) {
                        return false;
                    } else {
                        guessed |= isAmbiguous(tw[ts], true); // the split's FWD, the base's full tag
                    }
                    continue;
                }
                if (!Shapes.equal(tw, ts, bw, cs)) {
                    return false;
                }
                int count = TypeRefs.typeIdCount(tw, ts);
                for (int k = count - 1; k >= 0; k--) {
                    stack.add(tw[TypeRefs.typeIdSlot(tw, ts, k)]);
                    stack.add(bw[TypeRefs.typeIdSlot(bw, cs, k)]);
                }
            }
            return true;
        }
    }
}
