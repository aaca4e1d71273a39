package io.btfkit.diff;

import io.btfkit.core.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Which entries of a {@link DiffReport} to keep: of some kinds ({@code struct,union}; {@code enum}
 * takes ENUM64 too) and with names matching a shell glob ({@code *}, {@code ?}, {@code [abc]},
 * {@code [!abc]}; {@code "mlx4_*"}), the name being the type's name, or for an anonymous type
 * its label ({@code (anon) {IOPRIO_CLASS_NONE, ...}}). The summary counts what is kept.
 *
 * @param kinds BTF kinds kept (empty: every kind)
 * @param name  the glob as a regular expression (null: every name)
 */
public record DiffFilter(java.util.Set<Integer> kinds, Pattern name) {
    public static final DiffFilter ALL = new DiffFilter(java.util.Set.of(), null);

    public DiffFilter {
        kinds = java.util.Set.copyOf(kinds);
    }

    /**
     * The filter for kind words ({@code struct}, {@code FUNC}, ...) and a glob (null: any name).
     *
     * @throws IllegalArgumentException naming a word that is no BTF kind, with the kinds there are
     */
    public static DiffFilter of(List<String> kindWords, String glob) {
        java.util.Set<Integer> kinds = new TreeSet<>();
        for (String w : kindWords == null ? List.<String>of() : kindWords) {
            int k = Kind.byName(w.toUpperCase(Locale.ROOT));
            if (k <= 0) {
                List<String> names = new ArrayList<>();
                for (int i = 1; i < Kind.COUNT; i++) {
                    names.add(Kind.name(i).toLowerCase(Locale.ROOT));
                }
                throw new IllegalArgumentException("'" + w + "' is not a BTF kind" + io.btfkit.core.Spelling.didYouMean(
                        w.toLowerCase(Locale.ROOT), names) + "; the kinds: " + String.join(", ", names));
            }
            kinds.add(k);
            if (k == Kind.ENUM) {
                kinds.add(Kind.ENUM64);
            }
        }
        return new DiffFilter(kinds, glob == null ? null : Pattern.compile(globToRegex(glob)));
    }

    /** The report with only the entries this filter keeps. */
    public DiffReport apply(DiffReport report) {
        if (kinds.isEmpty() && name == null) {
            return report;
        }
        List<TypeDiff> kept = new ArrayList<>();
        for (TypeDiff t : report.types()) {
            if ((kinds.isEmpty() || kinds.contains(t.kind()))
                    && (name == null || name.matcher(t.name() == null || t.name().isEmpty() ? t.label() : t.name()).matches())) {
                kept.add(t);
            }
        }
        return new DiffReport(kept);
    }

    /** A shell glob as a regular expression: {@code *} any run, {@code ?} one character, brackets a class. */
    static String globToRegex(String glob) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            int close = c == '[' ? glob.indexOf(']', i + 2) : -1;
            if (c == '*') {
                re.append(".*");
            } else if (c == '?') {
                re.append('.');
            } else if (close > 0) {
                String set = glob.substring(i + 1, close);
                boolean negated = set.startsWith("!") || set.startsWith("^");
                re.append('[').append(negated ? "^" : "").append(set.substring(negated ? 1 : 0).replace("\\", "\\\\").replace("[", "\\["))
                        .append(']');
                i = close;
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return re.toString();
    }
}
