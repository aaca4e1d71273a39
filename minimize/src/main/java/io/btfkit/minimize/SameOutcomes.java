package io.btfkit.minimize;

import io.btfkit.core.Btf;
import java.util.ArrayList;
import java.util.List;

/**
 * The promise of a minimal BTF, checked: libbpf resolves every relocation of every object on it
 * as on the full target — same status, same value, and for {@code target_type_id} a type of the
 * same name and kind (ids differ). {@link Minimizer#build} asks only when some relocation matched
 * several candidates: otherwise the minimal BTF keeps every candidate that matched, with the
 * members its match used, and each candidate list evolves on it as on the target.
 */
final class SameOutcomes {
    /** One object and how its relocations resolved on the full target. */
    record Resolved(CoreProgram program, List<ReloResult> results) {
    }

    private final Btf target;
    private final List<Resolved> resolved;

    SameOutcomes(Btf target, List<Resolved> resolved) {
        this.target = target;
        this.resolved = resolved;
    }

    /** Whether some relocation matched more than one candidate. */
    boolean needed() {
        for (Resolved r : resolved) {
            for (ReloResult res : r.results()) {
                if (res.matching().size() > 1) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The relocations (their objects and results on the target) that resolve differently on {@code min}. */
    List<Minimizer.Widened> differences(Btf min) {
        CoreRelocator onMin = new CoreRelocator(min);
        List<Minimizer.Widened> out = new ArrayList<>();
        for (Resolved r : resolved) {
            List<ReloResult> again = onMin.resolveAll(r.program());
            for (int i = 0; i < again.size(); i++) {
                if (!same(r.results().get(i), min, again.get(i))) {
                    out.add(new Minimizer.Widened(r.program().name(), r.results().get(i)));
                }
            }
        }
        return out;
    }

    private boolean same(ReloResult full, Btf min, ReloResult onMin) {
        if (full.status() != onMin.status()) {
            return false;
        }
        if (full.relo().kind() == ReloKind.TYPE_ID_TARGET && full.status() == ReloResult.Status.MATCHED) {
            int a = (int) full.value();
            int b = (int) onMin.value();
            return min.isValidId(b) && target.kind(a) == min.kind(b) && TypeOps.nameOrEmpty(target, a).equals(TypeOps.nameOrEmpty(min, b));
        }
        return full.value() == onMin.value();
    }
}
