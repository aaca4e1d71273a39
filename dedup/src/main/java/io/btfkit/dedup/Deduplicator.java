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
        boolean units = options.unitDeclarations() && inputs.stream().noneMatch(Btf::isSplit);
        if (units) {
            Declarations.resolveWithinUnits(m, aliasTarget);
        }
        Definitions defs = Definitions.of(m.words, m.starts, first, baseIndex);
        Definitions.ByName own = new Definitions.ByName();
        for (int i = 0; i < n; i++) {
            if (aliasTarget[i] < 0) {
                own.add(m.words, m.starts[i], first + i, defs.defOf(first + i));
            }
        }
        if (units) {
            new ContextResolver(m, defs, own, baseIndex, aliasTarget).resolve();
        }
        Declarations.resolveByUniqueDefinition(m, defs, own, baseIndex, !units, aliasTarget);
        Declarations.redirect(m, aliasTarget);

        ClassTable baseLayer = baseIndex == null ? null : baseIndex.table;
        WorkGraph g = new WorkGraph(m.words, m.starts, first, baseIndex == null ? null : baseIndex.classOfId);
        ClassTable layer = new ClassTable(baseLayer, g);
        new Partitioner(layer).run();
        return OutputBuilder.build(inputs, m, baseIndex, layer.nodeClass, aliasTarget, layer.first, 0);
    }
}
