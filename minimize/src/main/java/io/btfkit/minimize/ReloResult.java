package io.btfkit.minimize;

import java.util.List;

/**
 * What one relocation resolves to on one target.
 *
 * @param relo       the relocation
 * @param status     how it resolved
 * @param target     the target spec of the first matching candidate: the target types, members and
 *                   enumerators the relocation uses (what a minimal BTF must keep); null when
 *                   nothing matched, for TYPE_ID_LOCAL and on error
 * @param candidates target type ids of the candidates (essential name and kind), searched in order
 * @param matching   the candidates that matched (all give {@code value}, else the status is ERROR)
 * @param value      the relocated value (u64, as libbpf computes it); 0 when poisoned or on error
 * @param error      why it failed (status ERROR), else null
 */
public record ReloResult(LocalRelo relo, Status status, CoreSpec target, List<Integer> candidates, List<Integer> matching,
                         long value, String error) {

    public enum Status {
        /** A candidate matched and gives the value. */
        MATCHED,
        /** TYPE_ID_LOCAL: the local type id, no target involved. */
        LOCAL,
        /** No candidate matched and the kind has a value for that: 0 (existence, type id, size). */
        NOT_FOUND,
        /** No candidate matched and the kind needs one: libbpf poisons the instruction. */
        POISONED,
        /** The relocation cannot be resolved: spec does not parse, candidates disagree, ... */
        ERROR
    }

    /** Whether the relocation gets a value (a poisoned or failed one does not). */
    public boolean isResolved() {
        return status == Status.MATCHED || status == Status.LOCAL || status == Status.NOT_FOUND;
    }
}
