package io.btfkit.validate;

import io.btfkit.core.Btf;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.EnumSet;
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
 * input that holds a reported cycle ({@link CycleGroups}). Failing those, a finding of a rule
 * checked while resolving references is carried when its type's input type was broken or
 * depended on a broken type ({@link DependsOnBroken}): the validator is silent about
 * dependents of a failed type, and declaration resolution, merging and reordering change
 * which defect its walk meets first, not whether the type is broken. Whole-BTF findings match
 * by rule.
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

    /**
     * Rules about one type's own words (header, names, sizes, linkage, flags): the same on every
     * type an operation merges, whatever the order, so they must match exactly.
     */
    private static final EnumSet<Rule> LOCAL = EnumSet.of(Rule.HEADER_FLAGS, Rule.HEADER_LAYOUT, Rule.STRING_SECTION,
            Rule.STRING_SECTION_SIZE, Rule.TYPE_COUNT, Rule.NO_TYPES, Rule.KIND_UNKNOWN, Rule.INFO_BITS, Rule.NAME_OFFSET,
            Rule.TYPE_ID, Rule.VLEN, Rule.KIND_FLAG, Rule.NAME_MISSING, Rule.NAME_NOT_ALLOWED, Rule.NAME_SECTION,
            Rule.INT_DATA, Rule.INT_ENCODING, Rule.INT_BITS, Rule.FLOAT_SIZE, Rule.ENUM_SIZE, Rule.FWD_TYPE,
            Rule.ARRAY_SIZE_WORD, Rule.MEMBER_ORDER, Rule.UNION_MEMBER_OFFSET, Rule.MEMBER_OFFSET, Rule.FUNC_LINKAGE,
            Rule.VAR_LINKAGE, Rule.DATASEC_SIZE);

    /** One input's findings, indexed by where they land in the output. */
    private static final class InputView {
        final Source source;
        /** rule + output id the finding's type maps to -> the input finding. */
        final Map<Long, Finding> byOutputType = new HashMap<>();
        /** output id -> an input finding its input type is broken by or depends on. */
        final Int2ObjectOpenHashMap<Finding> dependsOnBroken = new Int2ObjectOpenHashMap<>();
        final Map<String, Finding> wholeBtf = new HashMap<>();
        /** Output ids of every input type in a strongly connected group holding a reported cycle. */
        final IntOpenHashSet cycleImages = new IntOpenHashSet();
        Finding anyCycle;

        final Btf btf;
        private Int2ObjectOpenHashMap<IntArrayList> preimages;

        InputView(Source source, Btf in) {
            this.source = source;
            this.btf = in;
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
            BitSet broken = new BitSet();
            Int2ObjectOpenHashMap<Finding> brokenBy = new Int2ObjectOpenHashMap<>(); // own index -> its defect
            for (Finding f : fs) {
                if (f.typeId() >= in.firstId()) {
                    broken.set(f.typeId() - in.firstId());
                    brokenBy.putIfAbsent(f.typeId() - in.firstId(), f);
                }
            }
            for (Finding f : fs) {
                if (Rule.LOOP.id().equals(f.rule())) { // reported where the walk began: the cycle is broken too
                    for (int id : cycleMembers(f)) {
                        if (id >= in.firstId() && id < in.typeCount()) {
                            broken.set(id - in.firstId());
                            brokenBy.putIfAbsent(id - in.firstId(), f);
                        }
                    }
                }
            }
            if (!broken.isEmpty()) {
                // a dependent answers with the defect it reaches (a VAR of a broken FWD: the FWD's)
                int[] origin = DependsOnBroken.of(in, broken);
                for (int i = 0; i < origin.length; i++) {
                    if (origin[i] >= 0) {
                        dependsOnBroken.putIfAbsent(map(in.firstId() + i, in), brokenBy.get(origin[i]));
                    }
                }
                for (Finding f : fs) { // a broken type answers with its own finding
                    if (f.typeId() >= in.firstId()) {
                        dependsOnBroken.put(map(f.typeId(), in), f);
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
            if (LOCAL.contains(Rule.byId(f.rule()))) {
                return null;
            }
            // a rule checked while resolving references, on a type that was broken in the input
            // or depended on a broken type (the walk then says nothing about it): resolving a
            // declaration turns "member of a declared struct" into "struct containing itself",
            // reordering and merging change which defect the walk meets first
            Finding held = Rule.LOOP.id().equals(f.rule()) ? heldCycle(f) : null;
            if (held != null) {
                return held;
            }
            Finding broken = dependsOnBroken.get(f.typeId());
            if (broken == null && Rule.LOOP.id().equals(f.rule())) {
                // a cycle made by resolving a declaration passes through the types that
                // were broken for want of it
                for (int id : cycleMembers(f)) {
                    broken = dependsOnBroken.get(id);
                    if (broken != null) {
                        break;
                    }
                }
            }
            return broken;
        }

        /**
         * A loop finding whose listed cycle the input holds, up to merging: a closed walk in
         * the input through types mapping, in order, to the cycle's members. The kernel (and
         * the validator) may miss a by-value cycle that a walk in another mode resolved first
         * (a pointer reaching the struct), so an input can hold a cycle no finding names.
         * Returns the finding to report (synthesised from the input's ids), or null.
         */
        private Finding heldCycle(Finding f) {
            if (f.detail().contains("more)")) {
                return null; // listing truncated: the walk is not known
            }
            int[] cyc = cycleMembers(f);
            if (cyc.length < 2) {
                return null;
            }
            int k = cyc.length - 1; // the listing ends with the first member again
            Int2ObjectOpenHashMap<IntArrayList> pre = preimages();
            IntArrayList first = pre.get(cyc[0]);
            if (first == null) {
                return null;
            }
            IntOpenHashSet cur = new IntOpenHashSet(first);
            // walk the pattern round and round until the set of starting points is stable
            for (int round = 0; round <= first.size() && !cur.isEmpty(); round++) {
                IntOpenHashSet at = cur;
                for (int i = 1; i <= k && !at.isEmpty(); i++) {
                    IntArrayList want = pre.get(cyc[i % k]);
                    IntOpenHashSet next = new IntOpenHashSet();
                    if (want != null) {
                        for (int y : want) {
                            if (hasEdgeFrom(at, y)) {
                                next.add(y);
                            }
                        }
                    }
                    at = next;
                }
                if (at.equals(cur)) {
                    break;
                }
                at.retainAll(cur);
                cur = at;
            }
            if (cur.isEmpty()) {
                return null;
            }
            int x = cur.iterator().nextInt();
            String name = btf.strings().forMessage(btf.nameOff(x));
            return new Finding(x, btf.kind(x), name, Rule.LOOP.id(), "reference cycle through [" + x + "] "
                    + io.btfkit.core.Kind.name(btf.kind(x)) + " (which the input's order of types hid from the kernel's walk)");
        }

        private boolean hasEdgeFrom(IntOpenHashSet from, int y) {
            for (int x : from) {
                int v = x - btf.firstId();
                for (int e = 0;; e++) {
                    int c = CycleGroups.child(btf.words(), btf.starts(), v, e, btf.firstId(), btf.ownTypeCount());
                    if (c == -2) {
                        break;
                    }
                    if (c + btf.firstId() == y) {
                        return true;
                    }
                }
            }
            return false;
        }

        private Int2ObjectOpenHashMap<IntArrayList> preimages() {
            if (preimages == null) {
                preimages = new Int2ObjectOpenHashMap<>();
                for (int id = btf.firstId(); id < btf.typeCount(); id++) {
                    preimages.computeIfAbsent(map(id, btf), z -> new IntArrayList()).add(id);
                }
            }
            return preimages;
        }

        private static long key(String rule, int outputId) {
            return ((long) Objects.requireNonNull(Rule.byId(rule)).ordinal() << 32) | (outputId & 0xFFFFFFFFL);
        }
    }

    /** The ids a loop finding's cycle lists (the detail shows at most 12; enough to find one broken). */
    static int[] cycleMembers(Finding f) {
        java.util.regex.Matcher m = MEMBER.matcher(f.detail());
        it.unimi.dsi.fastutil.ints.IntArrayList l = new it.unimi.dsi.fastutil.ints.IntArrayList();
        while (m.find()) {
            try {
                l.add(Integer.parseInt(m.group(1)));
            } catch (NumberFormatException e) {
                // not an id: skip
            }
        }
        return l.toIntArray();
    }

    private static final java.util.regex.Pattern MEMBER = java.util.regex.Pattern.compile("\\[(\\d{1,10})\\]");

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
