package io.btfkit.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.minimize.ReloKind;
import io.btfkit.minimize.ReloResult;
import java.util.List;
import java.util.function.BiConsumer;

/** The promise of {@code minimize}: each relocation resolves on the minimal BTF as on the full one. */
final class ReloOutcomes {
    private ReloOutcomes() {
    }

    /**
     * Asserts that {@code onMin} (resolved on {@code min}) gives every relocation the outcome
     * {@code onFull} (on {@code full}) gives: the same status and value, and for a matched
     * target_type_id a type of the same name and kind, whose two ids also go to
     * {@code typeIds} (for the caller's own checks).
     *
     * @return how many relocations were compared
     */
    static int assertSame(Btf full, List<ReloResult> onFull, Btf min, List<ReloResult> onMin, String where,
            BiConsumer<Integer, Integer> typeIds) {
        assertEquals(onFull.size(), onMin.size(), where);
        for (int i = 0; i < onFull.size(); i++) {
            ReloResult x = onFull.get(i);
            ReloResult y = onMin.get(i);
            String at = where + " " + x.relo().section() + " relo #" + x.relo().index();
            assertEquals(x.status(), y.status(), at);
            if (x.relo().kind() == ReloKind.TYPE_ID_TARGET && x.status() == ReloResult.Status.MATCHED) {
                int fid = (int) x.value();
                int mid = (int) y.value();
                assertEquals(full.name(fid), min.name(mid), at);
                assertEquals(Kind.name(full.kind(fid)), Kind.name(min.kind(mid)), at);
                typeIds.accept(fid, mid);
            } else {
                assertEquals(x.value(), y.value(), at);
            }
        }
        return onFull.size();
    }
}
