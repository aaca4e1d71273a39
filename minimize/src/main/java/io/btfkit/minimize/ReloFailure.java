package io.btfkit.minimize;

/**
 * Why a relocation cannot be resolved on valid input (a spec that does not parse, candidates
 * that disagree): it becomes the relocation's error, it does not stop the others.
 */
final class ReloFailure extends RuntimeException {
    ReloFailure(String message) {
        super(message, null, false, false);
    }
}
