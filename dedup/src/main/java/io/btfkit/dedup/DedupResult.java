package io.btfkit.dedup;

import io.btfkit.core.Btf;

/**
 * The deduplicated BTF and where every input type went: {@link #outputId(int, int)} maps an
 * input's type id to the id of the type that represents it in the output (a base id when it
 * is equivalent to a base type).
 */
public final class DedupResult {
    private final Btf btf;
    private final int[] outId;
    private final int[] inputFirst;
    private final int firstId;
    private final int rounds;

    DedupResult(Btf btf, int[] outId, int[] inputFirst, int firstId, int rounds) {
        this.btf = btf;
        this.outId = outId;
        this.inputFirst = inputFirst;
        this.firstId = firstId;
        this.rounds = rounds;
    }

    public Btf btf() {
        return btf;
    }

    /** Number of inputs. */
    public int inputCount() {
        return inputFirst.length - 1;
    }

    /** Number of own (non-base) types of input {@code k}. */
    public int inputTypeCount(int k) {
        return inputFirst[k + 1] - inputFirst[k];
    }

    /**
     * Output id of type {@code inputId} of input {@code k}, where the input's own types are
     * numbered as in the input (from 1 when standalone, after the base when split).
     */
    public int outputId(int k, int inputId, int inputFirstId) {
        if (inputId < inputFirstId) {
            return inputId; // void, or a base type: unchanged
        }
        return outId[inputFirst[k] + (inputId - inputFirstId) - firstId];
    }

    /** Rounds of declaration resolution that changed something. */
    public int rounds() {
        return rounds;
    }
}
