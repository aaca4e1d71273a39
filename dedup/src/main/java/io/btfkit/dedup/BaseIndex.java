package io.btfkit.dedup;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;

/**
 * The equivalence classes of a base BTF, computed once and shared read-only by every split
 * dedup on that base (a batch over thousands of modules classifies vmlinux only once).
 *
 * <p>Base types are fixed: they are never changed or dropped, and split types equivalent to a
 * base type map to the lowest base id of that type's class.
 */
public final class BaseIndex {
    private final Btf base;
    final ClassTable table;
    /** Class of each base type id (index 0 = void = class 0). */
    final int[] classOfId;
    /** Lowest base type id of each class. */
    final int[] minId;
    final Names names;

    private BaseIndex(Btf base) {
        if (base.isSplit()) {
            throw new BtfException("a base for dedup must itself be standalone BTF");
        }
        this.base = base;
        WorkGraph g = new WorkGraph(base.words(), base.starts(), 1, null);
        this.table = new ClassTable(null, g);
        new Partitioner(table).run();
        int n = base.typeCount();
        classOfId = new int[n];
        for (int id = 1; id < n; id++) {
            classOfId[id] = table.nodeClass[id - 1];
        }
        minId = new int[table.classCount()];
        for (int id = n - 1; id >= 1; id--) {
            minId[classOfId[id]] = id;
        }
        names = Names.of(table, 1, table.classCount());
    }

    /** Classifies {@code base} (about 0.1 s for a whole vmlinux). */
    public static BaseIndex of(Btf base) {
        return new BaseIndex(base);
    }

    public Btf base() {
        return base;
    }

    /** Number of distinct classes among the base types (void included). */
    public int classCount() {
        return table.classCount();
    }
}
