package io.btfkit.minimize;

import io.btfkit.core.Btf;
import java.util.HashMap;
import java.util.Map;

/**
 * libbpf's per-object candidate cache: one list of target candidates per local root type id,
 * shared by every relocation of one object on that type, in {@code .BTF.ext} order. A relocation
 * that matches cuts the list down to the candidates that matched, and the next relocation on
 * the same local type searches only those; an error or a relocation that matched nothing leaves
 * it as it was. ({@code relo_core.c}: the candidate loop keeps the matching candidates at the
 * front and shortens the list when at least one matched.)
 *
 * <pre>
 * target: [2] STRUCT 's___1' {x}   [3] STRUCT 's___2' {pad, x, y}
 * relo #0 reads s.y: candidates [2, 3], only [3] matches: the list becomes [3]
 * relo #1 reads s.x: candidates [3]: offset 4 (against [2, 3] the offsets 0 and 4 would disagree)
 * </pre>
 *
 * <p>One instance serves one object against one target, never more (bpftool's
 * {@code gen min_core_btf} keeps one cache per object file likewise). Not thread-safe.
 */
final class CandidateLists {
    private final CandidateIndex index;
    private final Map<Integer, int[]> lists = new HashMap<>();

    CandidateLists(CandidateIndex index) {
        this.index = index;
    }

    /** The current candidates of local type {@code typeId} (found in the index on first use). */
    int[] of(Btf local, int typeId) {
        int[] l = lists.get(typeId);
        if (l == null) {
            l = index.candidates(TypeOps.essentialName(TypeOps.nameOrEmpty(local, typeId)), local.kind(typeId));
            lists.put(typeId, l);
        }
        return l;
    }

    /** After a relocation on {@code typeId} matched: only {@code matching} (in list order) remain. */
    void keepOnly(int typeId, int[] matching) {
        if (matching.length == 0) {
            throw new IllegalArgumentException("a list is cut only when some candidate matched");
        }
        lists.put(typeId, matching);
    }
}
