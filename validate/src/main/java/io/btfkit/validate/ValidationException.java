package io.btfkit.validate;

import io.btfkit.core.OperationException;
import java.util.List;

/**
 * Thrown by {@link Validator#checkOutput} when BTF about to be written breaks a rule: the
 * operation produced something it must not ship (exit status 1). Carries the findings.
 */
public final class ValidationException extends OperationException {
    private static final long serialVersionUID = 1L;

    private final transient List<Finding> findings;

    public ValidationException(List<Finding> findings) {
        super("output BTF is invalid, not written: " + findings.get(0)
                + (findings.size() > 1 ? " (and " + (findings.size() - 1) + " more)" : ""));
        this.findings = List.copyOf(findings);
    }

    public List<Finding> findings() {
        return findings;
    }
}
