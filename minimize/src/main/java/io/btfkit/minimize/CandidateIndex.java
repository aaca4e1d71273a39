package io.btfkit.minimize;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.NameProbe;
import io.btfkit.core.StringTable;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The target's named types by essential name, for finding CO-RE candidates in one lookup.
 *
 * <p>As libbpf does for a program using module BTF: the base (vmlinux) is searched first, and
 * the split (module) types only when the base has no candidate at all. A target that is not
 * split is searched whole.
 *
 * <p>Indexing every name of a vmlinux (about 70,000 named types) costs far more than resolving
 * a program's relocations, so an index may be limited to the essential names and local kinds
 * the relocations will ask for ({@link #forPrograms}): only types of a compatible kind whose
 * name starts with the first two bytes of a wanted name are decoded (a vmlinux's 56,000
 * functions are not even looked at). A name or kind outside that set still gets its answer,
 * from a full index built on first need.
 */
final class CandidateIndex {
    private final Btf target;
    private final Set<String> limitedTo;
    /** With {@link #limitedTo}: the local kinds asked for. */
    private final BitSet localKinds;
    private final Map<String, int[]> base;
    private final Map<String, int[]> own;
    /** The full index, when a name outside {@link #limitedTo} was asked for. */
    private volatile CandidateIndex full;

    /** Indexes every named type. */
    CandidateIndex(Btf target) {
        this(target, null, null);
    }

    /** Indexes the types the relocations of {@code programs} can have as candidates. */
    static CandidateIndex forPrograms(Btf target, List<CoreProgram> programs) {
        Wanted w = new Wanted(programs);
        return forNames(target, w.names, w.kinds);
    }

    /**
     * {@link #forPrograms(Btf, List)} for a standalone target whose reader applied
     * {@link #probe probe(programs)}: only the types it listed, {@code probedIds[0, probedCount)},
     * are looked at (the probe is the index's quick test on kind and first name bytes).
     */
    static CandidateIndex forPrograms(Btf target, List<CoreProgram> programs, int[] probedIds, int probedCount) {
        Wanted w = new Wanted(programs);
        return forNames(target, w.names, w.kinds, probedIds, probedCount);
    }

    /** {@link #forNames(Btf, Set, BitSet)} over the ids a reader listed with {@link #probe(Set, BitSet)}. */
    static CandidateIndex forNames(Btf target, Set<String> essentialNames, BitSet localKinds, int[] probedIds, int probedCount) {
        if (target.isSplit()) {
            throw new IllegalArgumentException("a probed index is for a standalone target");
        }
        return new CandidateIndex(target, essentialNames, localKinds, probedIds, probedCount);
    }

    /** The quick test of {@link #forPrograms(Btf, List)}'s index, for a reader to apply in its pass. */
    static NameProbe probe(List<CoreProgram> programs) {
        Wanted w = new Wanted(programs);
        return probe(w.names, w.kinds);
    }

    /** The quick test of {@link #forNames(Btf, Set, BitSet)}'s index. */
    static NameProbe probe(Set<String> essentialNames, BitSet localKinds) {
        NameFilter f = new NameFilter(Set.copyOf(essentialNames), localKinds);
        return new NameProbe(f.kinds, f.oneByte, f.twoBytes, f.decodeAll);
    }

    /** The essential names and local kinds of the relocations that search candidates. */
    private static final class Wanted {
        final Set<String> names = new HashSet<>();
        final BitSet kinds = new BitSet();

        Wanted(List<CoreProgram> programs) {
            for (CoreProgram p : programs) {
                for (LocalRelo r : p.relos()) {
                    if (needsCandidates(r)) {
                        names.add(TypeOps.essentialName(TypeOps.nameOrEmpty(p.local(), r.typeId())));
                        kinds.set(p.local().kind(r.typeId()));
                    }
                }
            }
        }
    }

    /** Indexes the types of the given essential names and compatible with the given local kinds only. */
    static CandidateIndex forNames(Btf target, Set<String> essentialNames, BitSet localKinds) {
        return new CandidateIndex(target, essentialNames, localKinds);
    }

    /** Whether resolving {@code r} searches candidates (as {@link CoreRelocator#resolve} does). */
    static boolean needsCandidates(LocalRelo r) {
        return r.spec() != null && r.kind() != ReloKind.TYPE_ID_LOCAL && !TypeOps.nameOrEmpty(r.spec().btf(), r.typeId()).isEmpty();
    }

    /** Indexes the types of the given essential names and compatible with the given local kinds only (null: all). */
    private CandidateIndex(Btf target, Set<String> essentialNames, BitSet localKinds) {
        this(target, essentialNames, localKinds, null, -1);
    }

    /** With {@code probedIds} (a standalone target; see {@link #forPrograms(Btf, List, int[], int)}): those types only. */
    private CandidateIndex(Btf target, Set<String> essentialNames, BitSet localKinds, int[] probedIds, int probedCount) {
        this.target = target;
        this.limitedTo = essentialNames == null ? null : Set.copyOf(essentialNames);
        this.localKinds = localKinds;
        NameFilter filter = essentialNames == null ? null : new NameFilter(essentialNames, localKinds);
        if (probedIds != null) {
            this.base = indexProbed(target, probedIds, probedCount, filter);
            this.own = Map.of();
        } else if (target.isSplit()) {
            this.base = index(target, 1, target.firstId(), filter);
            this.own = index(target, target.firstId(), target.typeCount(), filter);
        } else {
            this.base = index(target, 1, target.typeCount(), filter);
            this.own = Map.of();
        }
    }

    private static Map<String, int[]> index(Btf btf, int from, int to, NameFilter filter) {
        Map<String, List<Integer>> lists = new HashMap<>();
        StringTable strings = btf.strings();
        // (plain locals in the loop: it runs over every type of every target, 126,000 a vmlinux)
        boolean[] kinds = filter == null ? null : filter.kinds;
        boolean[] oneByte = filter == null ? null : filter.oneByte;
        boolean[] twoBytes = filter == null ? null : filter.twoBytes;
        boolean decodeAll = filter == null || filter.decodeAll;
        byte[] ownBytes = strings.bytes();
        int ownStart = strings.start();
        // each BTF of the chain (a split's base, its own) stores its types' words: read them directly
        for (int segment = from; segment < to; ) {
            Btf store = btf.owner(segment);
            int[] words = store.words();
            int[] starts = store.starts();
            int first = store.firstId();
            int end = Math.min(to, store.typeCount());
            for (int id = segment; id < end; id++) {
                int s = starts[id - first];
                int off = words[s];
                if (off == 0 || kinds != null && !kinds[Kind.kindOf(words[s + 1])]) {
                    continue;
                }
                String essential = NameFilter.DECODE;
                if (filter != null) {
                    // the filter's quick test on the name's first two bytes, here: most names fail it
                    byte[] d = ownBytes;
                    int i = off - ownStart;
                    if (off < ownStart) {
                        StringTable t = strings.tableOf(off);
                        d = t.bytes();
                        i = off - t.start();
                    }
                    int b0 = d[i] & 0xff;
                    // (a table ends with NUL, so a name that is not empty has a second byte)
                    if (b0 == 0 || !decodeAll && !oneByte[b0] && !twoBytes[b0 << 8 | (d[i + 1] & 0xff)]) {
                        continue;
                    }
                    essential = filter.match(d, i);
                }
                if (essential == NameFilter.DECODE) {
                    String name = btf.name(id);
                    if (name == null || name.isEmpty()) {
                        continue;
                    }
                    essential = TypeOps.essentialName(name);
                    if (filter != null && !filter.names.contains(essential)) {
                        continue;
                    }
                } else if (essential == null) {
                    continue;
                }
                lists.computeIfAbsent(essential, k -> new ArrayList<>(1)).add(id);
            }
            segment = end;
        }
        return frozen(lists);
    }

    /**
     * {@link #index} of a standalone target over the types that passed the filter's quick test
     * in the reader (the probe): what remains is the match on the whole name.
     */
    private static Map<String, int[]> indexProbed(Btf btf, int[] ids, int count, NameFilter filter) {
        Map<String, List<Integer>> lists = new HashMap<>();
        byte[] d = btf.strings().bytes();
        int[] words = btf.words();
        int[] starts = btf.starts();
        for (int k = 0; k < count; k++) {
            int id = ids[k];
            String essential = filter.match(d, words[starts[id - btf.firstId()]]);
            if (essential == NameFilter.DECODE) {
                String name = btf.name(id);
                if (name == null || name.isEmpty()) {
                    continue;
                }
                essential = TypeOps.essentialName(name);
                if (!filter.names.contains(essential)) {
                    continue;
                }
            } else if (essential == null) {
                continue;
            }
            lists.computeIfAbsent(essential, key -> new ArrayList<>(1)).add(id);
        }
        return frozen(lists);
    }

    private static Map<String, int[]> frozen(Map<String, List<Integer>> lists) {
        Map<String, int[]> out = new HashMap<>(lists.size() * 2);
        lists.forEach((k, v) -> out.put(k, v.stream().mapToInt(Integer::intValue).toArray()));
        return out;
    }

    Btf target() {
        return target;
    }

    /** Target types of a kind compatible with {@code localKind} whose essential name is {@code essentialName}, by id. */
    int[] candidates(String essentialName, int localKind) {
        if (limitedTo != null && !(limitedTo.contains(essentialName) && localKinds.get(localKind))) {
            return fullIndex().candidates(essentialName, localKind);
        }
        int[] found = filter(base.get(essentialName), localKind);
        return found.length > 0 ? found : filter(own.get(essentialName), localKind);
    }

    private CandidateIndex fullIndex() {
        CandidateIndex f = full;
        if (f == null) {
            synchronized (this) {
                f = full;
                if (f == null) {
                    full = f = new CandidateIndex(target);
                }
            }
        }
        return f;
    }

    private int[] filter(int[] ids, int localKind) {
        if (ids == null) {
            return new int[0];
        }
        return java.util.Arrays.stream(ids).filter(id -> TypeOps.kindsCompatible(localKind, target.kind(id))).toArray();
    }

    /**
     * Which wanted essential name a target type's name has, judged on the name's bytes: a quick
     * test of its first two bytes, then a comparison with the wanted names that start so. A
     * vmlinux has some 800 names of a compatible kind that pass the quick test; comparing bytes
     * instead of decoding each name halves the index's time. Only a name that continues with a
     * flavour separator ({@code ___}) — or any name, when a wanted one is not valid UTF-8 or
     * holds a separator itself — is decoded, and then decided by {@link TypeOps#essentialName}.
     */
    private static final class NameFilter {
        /** Returned by {@link #match} for "decode the name and decide on it" (compared by identity). */
        static final String DECODE = new String("decode");
        final Set<String> names;
        /** Target kinds compatible with a wanted local kind (the caller tests these first). */
        final boolean[] kinds = new boolean[128];
        /** The wanted names without a separator, and their UTF-8 bytes. */
        private final String[] plain;
        private final byte[][] plainBytes;
        /** By first byte: some wanted name is that one byte long. */
        final boolean[] oneByte = new boolean[256];
        /** By first two bytes (first * 256 + second). */
        final boolean[] twoBytes = new boolean[256 * 256];
        /** Some name must be decoded whenever it passes the quick test (see the class comment). */
        final boolean decodeAll;

        NameFilter(Set<String> names, BitSet localKinds) {
            this.names = names;
            for (int k = 0; k < kinds.length; k++) {
                for (int l = localKinds.nextSetBit(0); l >= 0; l = localKinds.nextSetBit(l + 1)) {
                    kinds[k] |= TypeOps.kindsCompatible(l, k);
                }
            }
            this.decodeAll = names.stream().anyMatch(n -> n.indexOf('\uFFFD') >= 0 || n.contains("___"));
            this.plain = names.toArray(new String[0]);
            this.plainBytes = new byte[plain.length][];
            for (int k = 0; k < plain.length; k++) {
                byte[] b = plain[k].getBytes(java.nio.charset.StandardCharsets.UTF_8);
                plainBytes[k] = b;
                if (b.length == 1) {
                    oneByte[b[0] & 0xff] = true;
                } else if (b.length > 1) {
                    twoBytes[(b[0] & 0xff) << 8 | (b[1] & 0xff)] = true;
                }
            }
        }

        /**
         * The wanted essential name of the name at {@code d[i]} (a type of a kind in
         * {@link #kinds}, that passed the quick test); null when it has none; {@link #DECODE}
         * when only the decoded name can tell.
         */
        String match(byte[] d, int i) {
            if (decodeAll) {
                return DECODE;
            }
            for (int k = 0; k < plainBytes.length; k++) {
                byte[] e = plainBytes[k];
                int j = i + e.length;
                if (j >= d.length) {
                    continue;
                }
                int c = 0;
                while (c < e.length && d[i + c] == e[c]) {
                    c++;
                }
                if (c < e.length) {
                    continue;
                }
                if (d[j] == 0) {
                    return plain[k];
                }
                if (j + 2 < d.length && d[j] == '_' && d[j + 1] == '_' && d[j + 2] == '_') {
                    return DECODE;
                }
            }
            return null;
        }
    }
}
