package io.btfkit.minimize;

import java.util.List;

/**
 * What one relocation resolves to on one target, and what libbpf then does to its instruction.
 *
 * @param relo       the relocation
 * @param status     how it resolved
 * @param target     the target spec of the first matching candidate: the target types, members and
 *                   enumerators the relocation uses (what a minimal BTF must keep); null when
 *                   nothing matched, for TYPE_ID_LOCAL and on ERROR
 * @param candidates target type ids of the candidates searched, in order: those of the local type's
 *                   essential name and kind, less those an earlier relocation of the object on
 *                   the same local type did not match ({@link CandidateLists})
 * @param matching   the candidates that matched (all give {@code value}, else the status is ERROR)
 * @param value      the relocated value (u64, as libbpf computes it); 0 when no candidate matched a
 *                   relocation that needs one, and on ERROR
 * @param why        libbpf's reason for POISONED, ERROR and INSN_ERROR; else null
 */
public record ReloResult(LocalRelo relo, Status status, CoreSpec target, List<Integer> candidates, List<Integer> matching,
                         long value, String why) {

    public enum Status {
        /** A candidate matched and gives the value. */
        MATCHED,
        /** TYPE_ID_LOCAL: the local type id, no target involved. */
        LOCAL,
        /** No candidate matched and the kind has a value for that: 0 (existence, type id, size). */
        NOT_FOUND,
        /**
         * libbpf replaces the instruction with an invalid one: no candidate matched a field read
         * or {@code enumval_value}, or a load or store reads a field whose size changed unsafely
         * (then {@link #target} is set). The program loads only if the instruction cannot run.
         */
        POISONED,
        /**
         * The relocation cannot be resolved (a spec that does not parse, candidates that
         * disagree, ...): libbpf refuses to load the object, and bpftool's {@code gen
         * min_core_btf} fails on it.
         */
        ERROR,
        /**
         * Resolved ({@link #target}, {@link #value}), but libbpf cannot patch the instruction with
         * it (an unexpected instruction, an offset past 16 bits): libbpf refuses to load the
         * object. bpftool's {@code gen min_core_btf}, which does not look at instructions,
         * minimizes it as a match.
         */
        INSN_ERROR
    }

    /** Whether the relocation gets a value (a poisoned or failed one does not). */
    public boolean isResolved() {
        return status == Status.MATCHED || status == Status.LOCAL || status == Status.NOT_FOUND;
    }

    /** Whether libbpf refuses to load the object because of this relocation. */
    public boolean failsLoad() {
        return status == Status.ERROR || status == Status.INSN_ERROR;
    }

    /** Why it failed (status ERROR or INSN_ERROR), else null. */
    public String error() {
        return failsLoad() ? why : null;
    }
}
