package io.btfkit.dedup;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.TypeRefs;
import java.util.Arrays;
import java.util.List;

/**
 * BTF deduplication and linking (libbpf {@code btf__add_btf} + {@code btf__dedup} semantics).
 *
 * <p>What it computes: the coarsest equivalence on types — equal shapes (kind, name, flags,
 * sizes, member names and offsets, values, linkage...) with equivalent referenced types,
 * position by position, cycles included — after resolving declarations only where it is
 * proven ({@link Declarations}). One type per class is kept: the lowest id (a declaration is
 * never kept when its definition is), so the output keeps the input order; VAR and DATASEC
 * stay unique; split types equivalent to base types map to the base.
 *
 * <p>How: {@link Merger} concatenates the inputs with canonical strings; {@link Partitioner}
 * classifies every type once, leaves first; then, round by round, declarations proven to
 * declare a class are substituted by it on the (small) graph of classes, which is partitioned
 * again, until no declaration is newly resolved. {@link OutputBuilder} writes the kept types.
 *
 * <pre>
 * [1] STRUCT 's' size=8 vlen=1            [1] STRUCT 's' size=8 vlen=1
 *         'p' type_id=2 bits_offset=0         'p' type_id=2 bits_offset=0
 * [2] PTR '(anon)' type_id=1        -->   [2] PTR '(anon)' type_id=1
 * [3] STRUCT 's' size=8 vlen=1
 *         'p' type_id=4 bits_offset=0
 * [4] PTR '(anon)' type_id=3
 * </pre>
 */
public final class Deduplicator {
    private Deduplicator() {
    }

    /** Options of a dedup run. */
    public record Options(boolean unitDeclarations) {
        /** Each input is one compilation unit: resolve its declarations from its own definitions. */
        public static final Options LINK = new Options(true);
        /** Inputs may hold many compilation units (modules, vmlinux): resolve by unique names only. */
        public static final Options WHOLE = new Options(false);
    }

    /** Deduplicates one BTF (standalone, or split on its base). */
    public static DedupResult dedup(Btf input) {
        return run(List.of(input), input.base() == null ? null : BaseIndex.of(input.base()), Options.WHOLE);
    }

    /** Deduplicates a split BTF against a base that has been indexed once (batch use). */
    public static DedupResult dedup(Btf input, BaseIndex base) {
        return run(List.of(input), base, Options.WHOLE);
    }

    /**
     * Links inputs in order (each standalone, or split on {@code base}) into one deduplicated
     * BTF, split on {@code base} when it is given.
     */
    public static DedupResult link(List<Btf> inputs, BaseIndex base, Options options) {
        return run(inputs, base, options);
    }

    private static DedupResult run(List<Btf> inputs, BaseIndex baseIndex, Options options) {
        Btf base = baseIndex == null ? null : baseIndex.base();
        for (Btf in : inputs) {
            if (in.isSplit() && in.base() != base) {
                throw new IllegalArgumentException("split input is not on the base given");
            }
        }
        Merger.Merged m = Merger.merge(inputs, base);
        int n = m.starts.length - 1;
        int first = m.firstId;
        int[] aliasTarget = new int[n];
        Arrays.fill(aliasTarget, -1);
        boolean unitsAreCus = options.unitDeclarations() && inputs.stream().noneMatch(Btf::isSplit);
        if (unitsAreCus) {
            Declarations.resolveWithinUnits(m, aliasTarget);
        }
        ClassTable baseLayer = baseIndex == null ? null : baseIndex.table;
        WorkGraph g0 = new WorkGraph(m.words, m.starts, first, baseIndex == null ? null : baseIndex.classOfId);
        ClassTable layer = new ClassTable(baseLayer, g0);
        new Partitioner(layer).run();

        // cls[x]: current class of own node x; aliases are followed at the end
        int[] cls = layer.nodeClass.clone();
        int rounds = 0;
        while (true) {
            int[] target = resolveByName(layer, baseIndex, cls, aliasTarget);
            if (target == null) {
                break;
            }
            rounds++;
            ClassTable next = new ClassTable(baseLayer, quotient(layer, target));
            new Partitioner(next).run();
            int lfirst = layer.first;
            int[] member = memberNodes(layer, cls, aliasTarget, first);
            for (int i = 0; i < n; i++) {
                int c = cls[i];
                if (c < lfirst) {
                    continue;
                }
                int t = target[c - lfirst];
                if (t >= 0 && aliasTarget[i] < 0) {
                    // a declaration now proven to declare class t: alias of one of t's members
                    aliasTarget[i] = t < lfirst ? minBaseMember(baseIndex, t) : member[t - lfirst];
                }
                cls[i] = next.nodeClass[c - lfirst];
            }
            layer = next;
        }
        return OutputBuilder.build(inputs, m, baseIndex, cls, aliasTarget, layer.first, rounds);
    }

    /**
     * Declarations (classes of the current layer) resolved by a unique name; null when none is
     * newly resolved. Entry {@code c - layer.first} is the class declared, or -1.
     */
    private static int[] resolveByName(ClassTable layer, BaseIndex baseIndex, int[] cls, int[] aliasTarget) {
        int lfirst = layer.first;
        int count = layer.ownClassCount();
        boolean[] live = new boolean[count];
        for (int i = 0; i < cls.length; i++) {
            if (aliasTarget[i] < 0 && cls[i] >= lfirst) {
                live[cls[i] - lfirst] = true;
            }
        }
        Names local = Names.of(layer, lfirst, lfirst + count);
        Names baseNames = baseIndex == null ? null : baseIndex.names;
        int[] target = null;
        for (int c = lfirst; c < lfirst + count; c++) {
            if (!live[c - lfirst]) {
                continue;
            }
            int[] w = layer.repWords(c);
            int s = layer.repStart(c);
            if (!Declarations.isDeclaration(w, s)) {
                continue;
            }
            int name = w[s];
            boolean fwd = Kind.kindOf(w[s + 1]) == Kind.FWD;
            int t = fwd ? local.composites.get(name) : local.enums.get(name);
            if (baseNames != null) {
                t = Names.combine(t, fwd ? baseNames.composites.get(name) : baseNames.enums.get(name));
            }
            if (t < 0 || !Declarations.kindMatches(w, s, layer.repWords(t), layer.repStart(t))) {
                continue;
            }
            if (target == null) {
                target = new int[count];
                Arrays.fill(target, -1);
            }
            target[c - lfirst] = t;
        }
        return target;
    }

    private static int minBaseMember(BaseIndex baseIndex, int baseClass) {
        return baseIndex.minId[baseClass];
    }

    /** One merged node per class of {@code layer} that is a real member (not an alias). */
    private static int[] memberNodes(ClassTable layer, int[] cls, int[] aliasTarget, int mergedFirst) {
        int lfirst = layer.first;
        int[] member = new int[layer.ownClassCount()];
        Arrays.fill(member, -1);
        for (int i = cls.length - 1; i >= 0; i--) {
            if (aliasTarget[i] < 0 && cls[i] >= lfirst) {
                member[cls[i] - lfirst] = i + mergedFirst;
            }
        }
        return member;
    }

    /**
     * The graph of the classes of {@code layer}: one node per class (its id is the class id),
     * with the class's shape and its children's classes, declarations substituted by the class
     * they declare.
     */
    private static WorkGraph quotient(ClassTable layer, int[] target) {
        int lfirst = layer.first;
        int count = layer.ownClassCount();
        int[] starts = new int[count + 1];
        int total = 0;
        for (int c = lfirst; c < lfirst + count; c++) {
            starts[c - lfirst] = total;
            int r = layer.rep(c);
            total += layer.graph.starts[r - layer.graph.firstId + 1] - layer.graph.start(r);
        }
        starts[count] = total;
        int[] words = new int[total];
        for (int c = lfirst; c < lfirst + count; c++) {
            int r = layer.rep(c);
            int from = layer.graph.start(r);
            int len = starts[c - lfirst + 1] - starts[c - lfirst];
            int at = starts[c - lfirst];
            System.arraycopy(layer.graph.words, from, words, at, len);
            int kids = TypeRefs.typeIdCount(words, at);
            for (int i = 0; i < kids; i++) {
                int slot = TypeRefs.typeIdSlot(words, at, i);
                int cc = layer.childClass(c, i);
                if (cc >= lfirst && target[cc - lfirst] >= 0) {
                    cc = target[cc - lfirst];
                }
                words[slot] = cc;
            }
        }
        return new WorkGraph(words, starts, lfirst, null);
    }
}
