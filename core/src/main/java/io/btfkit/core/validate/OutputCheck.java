package io.btfkit.core.validate;

import io.btfkit.core.Btf;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;

/**
 * The check every command runs before it writes BTF: <em>an output may carry what its input
 * already carried</em>. The output is validated with the {@link Validator.Profile#STRUCTURAL}
 * rules; a finding the operation introduced is an error ({@link ValidationException}: nothing
 * is written), a finding an input already had is passed through and returned, for the command
 * to report as a warning. (libbpf deduplicates and appends BTF the kernel would not load — Go's
 * {@code type Foo func() Foo}, modifier cycles — so btfkit must be able to carry them too; what
 * it must never do is make valid BTF invalid.)
 *
 * <p>"The same finding": the same {@link Rule}, on a type the input's type maps to through the
 * operation's id map ({@link Source#toOutput}), for each input separately. A reference cycle
 * ({@link Rule#LOOP}) is reported at whichever type the validator's walk started from, which
 * an operation that reorders or merges types changes; so a cycle counts as carried when its
 * first type (one on the cycle) is the image of a type in a strongly connected group of the
 * input that holds a reported cycle ({@link CycleGroups}). Whole-BTF findings match by rule.
 *
 * <p>Costs nothing more on the common path: the inputs are validated (and, for {@code link},
 * read again) only when the output has findings.
 */
public final class OutputCheck {
    private OutputCheck() {
    }

    /**
     * One input an output was made from.
     *
     * @param label    how messages name it (its file, {@code FILE#K} for one of several blobs)
     * @param input    the input's BTF as the operation read it (asked for only when the output
     *                 has findings: a link lets its inputs go, and reads them again here)
     * @param toOutput output id of each of the input's own type ids (base ids and void are
     *                 not asked); a value outside the output's ids means "not in the output"
     */
    public record Source(String label, Supplier<Btf> input, IntUnaryOperator toOutput) {
        public Source {
            Objects.requireNonNull(label);
            Objects.requireNonNull(input);
            Objects.requireNonNull(toOutput);
        }

        /** An input written out unchanged (asm, convert): every id maps to itself. */
        public static Source unchanged(String label, Btf input) {
            return new Source(label, () -> input, IntUnaryOperator.identity());
        }
    }

    /** A finding of input {@code label} that the output carries. */
    public record Carried(String label, Finding finding) {
        /**
         * {@code output carries the input's modifier cycle [2] CONST -> [3] CONST -> [2] (the
         * kernel rejects it)}; ids and names are the input's.
         */
        public String message() {
            String what;
            if (Rule.LOOP.id().equals(finding.rule()) && finding.detail().startsWith("reference cycle ")) {
                String path = finding.detail().substring("reference cycle ".length());
                what = (onlyModifiers(path) ? "modifier cycle " : "reference cycle ") + path;
            } else {
                what = finding.toString();
            }
            return "output carries the input's " + what + " (the kernel rejects it)";
        }

        private static boolean onlyModifiers(String path) {
            for (String k : new String[] {"PTR", "STRUCT", "UNION", "ARRAY", "FUNC_PROTO", "FUNC", "VAR", "DATASEC"}) {
                if (path.contains("] " + k + " ") || path.endsWith("] " + k)) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * Checks {@code output} against the inputs it was made from.
     *
     * @return the input findings the output carries (empty when the output is valid)
     * @throws ValidationException when the output has a finding no input had (exit status 1)
     */
    public static List<Carried> check(Btf output, List<Source> sources) {
        Validator.Options opts = new Validator.Options(true, Validator.Profile.STRUCTURAL);
        if (Validator.validate(output, opts).isEmpty()) {
            return List.of();
        }
        List<Finding> found = Validator.validate(output, opts.withStopAtFirst(false));
        List<InputView> inputs = new ArrayList<>(sources.size());
        for (Source s : sources) {
            inputs.add(new InputView(s, s.input().get()));
        }
        List<Finding> introduced = new ArrayList<>();
        List<Carried> carried = new ArrayList<>();
        Set<Carried> reported = new HashSet<>();
        for (Finding f : found) {
            Carried c = null;
            for (InputView in : inputs) {
                Finding had = in.had(f);
                if (had != null) {
                    c = new Carried(in.source.label(), had);
                    break;
                }
            }
            if (c == null) {
                introduced.add(f);
            } else if (reported.add(c)) {
                carried.add(c);
            }
        }
        if (!introduced.isEmpty()) {
            throw new ValidationException(introduced);
        }
        return carried;
    }

    /** One input's findings, indexed by where they land in the output. */
    private static final class InputView {
        final Source source;
        /** rule + output id the finding's type maps to -> the input finding. */
        final Map<Long, Finding> byOutputType = new HashMap<>();
        final Map<String, Finding> wholeBtf = new HashMap<>();
        /** Output ids of every input type in a strongly connected group holding a reported cycle. */
        final IntOpenHashSet cycleImages = new IntOpenHashSet();
        Finding anyCycle;

        InputView(Source source, Btf in) {
            this.source = source;
            List<Finding> fs = Validator.validate(in, Validator.Options.STRUCTURAL);
            IntOpenHashSet cycleGroups = new IntOpenHashSet();
            CycleGroups groups = null;
            for (Finding f : fs) {
                if (f.typeId() < 0) {
                    wholeBtf.putIfAbsent(f.rule(), f);
                    continue;
                }
                byOutputType.putIfAbsent(key(f.rule(), map(f.typeId(), in)), f);
                if (Rule.LOOP.id().equals(f.rule())) {
                    if (groups == null) {
                        groups = CycleGroups.of(in);
                    }
                    int g = groups.groupOf(cycleStart(f));
                    if (g >= 0) {
                        cycleGroups.add(g);
                    }
                    if (anyCycle == null) {
                        anyCycle = f;
                    }
                }
            }
            if (groups != null) {
                for (int id = in.firstId(); id < in.typeCount(); id++) {
                    if (cycleGroups.contains(groups.groupOf(id))) {
                        cycleImages.add(map(id, in));
                    }
                }
            }
        }

        private int map(int id, Btf in) {
            return id < in.firstId() ? id : source.toOutput().applyAsInt(id);
        }

        /** The input finding {@code f} (an output finding) is the same as, or null. */
        Finding had(Finding f) {
            if (f.typeId() < 0) {
                return wholeBtf.get(f.rule());
            }
            Finding same = byOutputType.get(key(f.rule(), f.typeId()));
            if (same != null) {
                return same;
            }
            if (Rule.LOOP.id().equals(f.rule()) && cycleImages.contains(cycleStart(f))) {
                Finding onCycle = byOutputType.get(key(f.rule(), cycleStart(f)));
                return onCycle != null ? onCycle : anyCycle;
            }
            return null;
        }

        private static long key(String rule, int outputId) {
            return ((long) Objects.requireNonNull(Rule.byId(rule)).ordinal() << 32) | (outputId & 0xFFFFFFFFL);
        }
    }

    /**
     * The first type of a loop finding's cycle (the detail reads {@code reference cycle [N] KIND
     * -> ...}, N being on the cycle), else the finding's own type.
     */
    static int cycleStart(Finding f) {
        String d = f.detail();
        int open = d.indexOf('[');
        int close = open < 0 ? -1 : d.indexOf(']', open);
        if (open >= 0 && close > open + 1) {
            try {
                return Integer.parseInt(d.substring(open + 1, close));
            } catch (NumberFormatException e) {
                return f.typeId();
            }
        }
        return f.typeId();
    }
}
