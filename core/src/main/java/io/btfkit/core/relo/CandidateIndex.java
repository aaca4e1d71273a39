package io.btfkit.core.relo;

import io.btfkit.core.Btf;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The target's named types by essential name, for finding CO-RE candidates in one lookup.
 *
 * <p>As libbpf does for a program using module BTF: the base (vmlinux) is searched first, and
 * the split (module) types only when the base has no candidate at all. A target that is not
 * split is searched whole.
 */
final class CandidateIndex {
    private final Btf target;
    private final Map<String, int[]> base;
    private final Map<String, int[]> own;

    CandidateIndex(Btf target) {
        this.target = target;
        if (target.isSplit()) {
            this.base = index(target, 1, target.firstId());
            this.own = index(target, target.firstId(), target.typeCount());
        } else {
            this.base = index(target, 1, target.typeCount());
            this.own = Map.of();
        }
    }

    private static Map<String, int[]> index(Btf btf, int from, int to) {
        Map<String, List<Integer>> lists = new HashMap<>();
        for (int id = from; id < to; id++) {
            String name = btf.name(id);
            if (name != null && !name.isEmpty()) {
                lists.computeIfAbsent(TypeOps.essentialName(name), k -> new ArrayList<>(1)).add(id);
            }
        }
        Map<String, int[]> out = new HashMap<>(lists.size() * 2);
        lists.forEach((k, v) -> out.put(k, v.stream().mapToInt(Integer::intValue).toArray()));
        return out;
    }

    Btf target() {
        return target;
    }

    /** Target types of a kind compatible with {@code localKind} whose essential name is {@code essentialName}, by id. */
    int[] candidates(String essentialName, int localKind) {
        int[] found = filter(base.get(essentialName), localKind);
        return found.length > 0 ? found : filter(own.get(essentialName), localKind);
    }

    private int[] filter(int[] ids, int localKind) {
        if (ids == null) {
            return new int[0];
        }
        return java.util.Arrays.stream(ids).filter(id -> TypeOps.kindsCompatible(localKind, target.kind(id))).toArray();
    }
}
