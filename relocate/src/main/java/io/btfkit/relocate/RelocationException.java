package io.btfkit.relocate;

import io.btfkit.core.OperationException;
import java.util.List;

/**
 * A relocation that cannot be done, with every problem found: the first is the one libbpf
 * reports (its only complaint), the others follow in distilled type id order. The message is
 * one line listing them all; {@link #problems()} lets a caller print one line each.
 */
public final class RelocationException extends OperationException {
    private static final long serialVersionUID = 1L;

    private final transient List<Problem> problems;

    public RelocationException(List<Problem> problems) {
        super(summary(problems));
        this.problems = List.copyOf(problems);
    }

    /** The problems, libbpf's complaint first; never empty. */
    public List<Problem> problems() {
        return problems;
    }

    private static String summary(List<Problem> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a relocation failure needs at least one problem");
        }
        StringBuilder b = new StringBuilder("cannot relocate: ");
        b.append(problems.size()).append(problems.size() == 1 ? " problem: " : " problems: ");
        for (int i = 0; i < problems.size(); i++) {
            if (i > 0) {
                b.append("; ");
            }
            b.append(problems.get(i).message());
        }
        return b.toString();
    }
}
