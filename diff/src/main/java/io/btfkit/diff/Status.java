package io.btfkit.diff;

/** Whether a type exists only in the second BTF, only in the first, or in both with differences. */
public enum Status {
    CHANGED("~"),
    REMOVED("-"),
    ADDED("+");

    private final String marker;

    Status(String marker) {
        this.marker = marker;
    }

    /** The one-character marker the text report puts in front of the type: {@code ~ - +}. */
    public String marker() {
        return marker;
    }

    /** The lower-case word the JSON report uses. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
