package io.btfkit.core;

/**
 * Split BTF read on a base it was not made on: its references do not fit that base. The message
 * is {@code does not seem to be split BTF of BASE (evidence)}; the reader does not know the
 * base's file name, so the command line names it with {@link #naming}.
 */
public final class BaseMismatchException extends BtfFormatException {
    private static final long serialVersionUID = 1L;
    private final transient Btf base;
    private final String evidence;
    private final String baseName;

    public BaseMismatchException(Btf base, String evidence) {
        this(base, evidence, null);
    }

    private BaseMismatchException(Btf base, String evidence, String baseName) {
        super("does not seem to be split BTF of " + (baseName == null ? "the given base" : baseName) + " (" + evidence + ")");
        this.base = base;
        this.evidence = evidence;
        this.baseName = baseName;
    }

    /** The same finding with the base called {@code name} (a file name, "its .BTF.base section"). */
    public BaseMismatchException naming(String name) {
        return new BaseMismatchException(base, evidence, name);
    }

    /** The base the split was read on. */
    public Btf base() {
        return base;
    }

    /** Whether {@link #naming} gave the base a name already. */
    public boolean isNamed() {
        return baseName != null;
    }

    /** What does not fit, without the base's name: one line, items separated by "; ". */
    public String evidence() {
        return evidence;
    }
}
