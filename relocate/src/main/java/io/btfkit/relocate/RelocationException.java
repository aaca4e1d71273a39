package io.btfkit.relocate;

import io.btfkit.core.OperationException;
import java.util.List;

/**
 * A relocation that cannot be done, with every problem found: the first is the one libbpf
 * reports (its only complaint), the others follow in distilled type id order. The message is
 * one line listing the first {@link #MAX_LISTED} and counting the rest (60,000 ambiguous types
 * made a 10 MB line); {@link #problems()} lets a caller print one line each.
 */
public final class RelocationException extends OperationException {
    private static final long serialVersionUID = 1L;

    /** Problems the message lists. */
    public static final int MAX_LISTED = 10;

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
        for (int i = 0; i < problems.size() && i < MAX_LISTED; i++) {
            if (i > 0) {
                b.append("; ");
            }
            b.append(problems.get(i).message());
        }
        if (problems.size() > MAX_LISTED) {
            b.append("; and ").append(problems.size() - MAX_LISTED).append(" more");
        }
        return b.toString();
    }
}
