package io.btfkit.dedup;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.Kind;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

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
    final Definitions definitions;
    final Definitions.ByName byName;
    /** (name, info) of the base's declarations: FWDs, and enums without values. */
    private final LongOpenHashSet declarations = new LongOpenHashSet();
    /**
     * Per name, the base's named structs and unions [0], FWDs [1] and typedefs [2], in id order
     * (built on first use: {@link BaseForwards}).
     */
    private volatile it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap<int[]>[] tagsByName;

    private BaseIndex(Btf base) {
        if (base.isSplit()) {
            throw new BtfException("a base for dedup must itself be standalone BTF");
        }
        this.base = base;
        // the two passes over the base read it and nothing else: its definitions on another core
        // while this thread classifies it (a link of modules waited 160-185 ms for both in turn)
        java.util.concurrent.ForkJoinTask<Definitions> defs = java.util.concurrent.ForkJoinTask.adapt(
                () -> Definitions.of(base.words(), base.starts(), 1, null, true, new int[] {0, base.ownTypeCount()}))
                .fork();
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
        definitions = defs.join();
        byName = new Definitions.ByName();
        int[] w = base.words();
        int[] st = base.starts();
        for (int id = 1; id < n; id++) {
            int s = st[id - 1];
            byName.add(w, s, id, definitions.defOf(id));
            if (Declarations.isDeclaration(w, s)) {
                declarations.add(declarationKey(w, s));
            }
        }
    }

    private static long declarationKey(int[] w, int s) {
        int info = w[s + 1];
        boolean fwd = Kind.kindOf(info) == Kind.FWD;
        return ((long) w[s] << 32) | (fwd ? info & 0xffffffffL : 0xffffffffL);
    }

    /**
     * Whether the base carries the declaration at {@code w[s]} itself (a FWD with the same name
     * and kind, or an enum declaration of that name while the base defines no such enum).
     */
    boolean hasDeclaration(int[] w, int s) {
        if (!declarations.contains(declarationKey(w, s))) {
            return false;
        }
        return Kind.kindOf(w[s + 1]) == Kind.FWD || byName.enums.get(w[s]) == Names.ABSENT;
    }

    /** The base's named structs and unions called {@code name} (empty if none). */
    int[] compositesNamed(int name) {
        return named(name, 0);
    }

    /** The base's FWDs called {@code name} (empty if none). */
    int[] forwardsNamed(int name) {
        return named(name, 1);
    }

    /** The base's typedefs called {@code name} (empty if none). */
    int[] typedefsNamed(int name) {
        return named(name, 2);
    }

    /** Adds the names of the base's declarations (FWDs, enums without values) to {@code out}. */
    void addDeclarationNames(it.unimi.dsi.fastutil.ints.IntSet out) {
        declarations.forEach(key -> out.add((int) (key >>> 32)));
    }

    private int[] named(int name, int slot) {
        int[] ids = tagMaps()[slot].get(name);
        return ids == null ? new int[0] : ids;
    }

    private it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap<int[]>[] tagMaps() {
        it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap<int[]>[] maps = tagsByName;
        if (maps == null) {
            synchronized (this) {
                maps = tagsByName;
                if (maps == null) {
                    maps = tagsByName();
                    tagsByName = maps;
                }
            }
        }
        return maps;
    }

    @SuppressWarnings("unchecked")
    private it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap<int[]>[] tagsByName() {
        it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap<int[]>[] maps = new it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap[] {
            new it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap<int[]>(),
            new it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap<int[]>(),
            new it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap<int[]>()};
        int[] w = base.words();
        int[] st = base.starts();
        for (int id = 1; id < base.typeCount(); id++) {
            int s = st[id - 1];
            int kind = Kind.kindOf(w[s + 1]);
            if (w[s] != 0 && (Kind.isComposite(kind) || kind == Kind.FWD || kind == Kind.TYPEDEF)) {
                it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap<int[]> map =
                        maps[kind == Kind.FWD ? 1 : kind == Kind.TYPEDEF ? 2 : 0];
                int[] old = map.get(w[s]);
                int[] ids = old == null ? new int[1] : java.util.Arrays.copyOf(old, old.length + 1);
                ids[ids.length - 1] = id;
                map.put(w[s], ids);
            }
        }
        return maps;
    }

    /** Classifies {@code base} (about 0.1 s for a whole vmlinux). */
    public static BaseIndex of(Btf base) {
        return new BaseIndex(base);
    }

    public Btf base() {
        return base;
    }

    /** For each base type id, the lowest id of an equivalent base type (itself when unique). */
    public int[] equivalenceRepresentatives() {
        int[] out = new int[classOfId.length];
        for (int id = 1; id < out.length; id++) {
            out[id] = minId[classOfId[id]];
        }
        return out;
    }

    /** Number of distinct classes among the base types (void included). */
    public int classCount() {
        return table.classCount();
    }
}
