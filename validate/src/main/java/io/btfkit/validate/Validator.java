package io.btfkit.validate;

import io.btfkit.core.Btf;
import java.util.List;

/**
 * Checks BTF against the rules the Linux kernel applies when it loads BTF
 * ({@code kernel/bpf/btf.c}: {@code btf_parse_hdr}, {@code btf_parse_str_sec},
 * {@code btf_check_all_metas}, {@code btf_check_all_types}, {@code btf_check_type_tags}) and
 * reports every broken {@link Rule} as a {@link Finding}.
 *
 * <p>The passes run in the kernel's order: whole-BTF rules ({@link HeaderRules}), per-type
 * field rules ({@link MetaRules}), type-tag chains ({@link TypeTagRules}), then resolution of
 * every reference ({@link Resolver} with {@link MemberRules}). A type that fails a structural
 * field rule is not resolved, so one defect yields one finding. A large BTF runs the field
 * rules beside the other passes, with the same findings ({@link #CONCURRENT_FROM}). Split BTF is validated on its
 * own types only; references into the base are followed, and the base is trusted.
 *
 * <p>Cost is linear in the number of types and members, with no object per type and no
 * recursion (the resolver keeps an explicit stack), so chains of any depth are fine.
 *
 * <p>Example (raw text):
 * <pre>
 * [1] STRUCT 'a' size=4 vlen=1
 *         'self' type_id=1 bits_offset=0
 * </pre>
 * gives {@code type [1] STRUCT 'a': loop broken (reference cycle [1] STRUCT -> [1])}.
 *
 * <p>{@code validate(Btf, BtfExt, Options)} adds the {@code .BTF.ext} record rules
 * ({@link ExtRules}) of an object file.
 */
public final class Validator {
    private Validator() {
    }

    /** Which rule set applies. */
    public enum Profile {
        /**
         * Everything the kernel checks when a program loads BTF ({@code BPF_BTF_LOAD}), the
         * strictest path, including name syntax, linkage, DATASEC layout and size limits.
         */
        KERNEL,
        /**
         * Only the structural rules every BTF consumer relies on ({@link Rule#kernelOnly()} is
         * false), with extern FUNC/VAR linkage and FUNC entries in DATASECs accepted: BTF as
         * compilers write it into relocatable BPF objects, before libbpf's load-time fix-ups.
         */
        STRUCTURAL
    }

    /**
     * @param stopAtFirst return after the first finding (cheaper) instead of listing all
     * @param profile     the rule set
     */
    public record Options(boolean stopAtFirst, Profile profile) {
        /** All findings, kernel rules. */
        public static final Options ALL = new Options(false, Profile.KERNEL);
        /** First finding only, kernel rules. */
        public static final Options FIRST = new Options(true, Profile.KERNEL);
        /** All findings, structural rules. */
        public static final Options STRUCTURAL = new Options(false, Profile.STRUCTURAL);

        public Options {
            if (profile == null) {
                throw new IllegalArgumentException("profile is null");
            }
        }

        public Options withProfile(Profile p) {
            return new Options(stopAtFirst, p);
        }

        public Options withStopAtFirst(boolean stop) {
            return new Options(stop, profile);
        }
    }

    /** Validates with {@link Options#ALL}. */
    public static List<Finding> validate(Btf btf) {
        return validate(btf, Options.ALL);
    }

    /**
     * Validates {@code btf} (for split BTF: its own types, resolving references into the base).
     *
     * @return the findings, ordered by type id (whole-BTF findings, id -1, first); empty when valid
     */
    /** Validates {@code btf} and, when given, its object's {@code .BTF.ext} records ({@link ExtRules}). */
    public static List<Finding> validate(Btf btf, io.btfkit.core.ext.BtfExt ext, Options options) {
        Types types = new Types(btf);
        Findings out = new Findings(types, options);
        List<Finding> typeFindings = validate(btf, options);
        if (ext != null && !(options.stopAtFirst() && !typeFindings.isEmpty())) {
            ExtRules.check(btf, ext, out);
        }
        List<Finding> all = new java.util.ArrayList<>(out.result());
        all.addAll(typeFindings);
        all.sort(java.util.Comparator.comparingInt(Finding::typeId));
        return options.stopAtFirst() && all.size() > 1 ? all.subList(0, 1) : all;
    }

    public static List<Finding> validate(Btf btf, Options options) {
        Types types = new Types(btf);
        Findings out = new Findings(types, options);
        HeaderRules.check(types, out);
        if (out.result().isEmpty() && btf.ownTypeCount() >= CONCURRENT_FROM) {
            List<Finding> r = concurrently(types, options);
            if (r != null) {
                return r;
            }
        }
        return typePasses(types, out);
    }

    /** {@link #validate(Btf, Options)} with every pass in order on this thread (tests compare). */
    static List<Finding> validateInOrder(Btf btf, Options options) {
        Types types = new Types(btf);
        Findings out = new Findings(types, options);
        HeaderRules.check(types, out);
        return typePasses(types, out);
    }

    /** Own types from which the field rules run beside the resolution (from about 10 ms of work). */
    static final int CONCURRENT_FROM = 1 << 16;

    /**
     * The type passes with the field rules on another thread beside the type-tag and resolution
     * passes: when the field rules find nothing they mark no type failed, so the other passes saw
     * exactly what they would have seen after them, and their findings are the result. Null when
     * the field rules found something: the caller then runs the passes in order.
     */
    private static List<Finding> concurrently(Types types, Options options) {
        java.util.concurrent.ForkJoinTask<Boolean> fields = java.util.concurrent.ForkJoinPool.commonPool().submit(() -> {
            Findings f = new Findings(types, options);
            new MetaRules(types, f, new byte[types.btf.ownTypeCount()]).run();
            return f.result().isEmpty();
        });
        Findings rest = new Findings(types, options);
        RuntimeException broke = null;
        try {
            byte[] state = new byte[types.btf.ownTypeCount()];
            TypeTagRules.check(types, rest, state);
            if (!rest.done()) {
                new Resolver(types, rest, state).run();
            }
        } catch (RuntimeException e) {
            broke = e; // (a type the field rules would have failed first, unless they found nothing)
        }
        if (!fields.join()) {
            return null;
        }
        if (broke != null) {
            throw broke;
        }
        return rest.result();
    }

    /** Field rules, type-tag chains, then resolution, in the kernel's order. */
    private static List<Finding> typePasses(Types types, Findings out) {
        byte[] state = new byte[types.btf.ownTypeCount()];
        if (!out.done()) {
            new MetaRules(types, out, state).run();
        }
        if (!out.done()) {
            TypeTagRules.check(types, out, state);
        }
        if (!out.done()) {
            new Resolver(types, out, state).run();
        }
        return out.result();
    }

    /**
     * The check the writer path runs before writing any output: the {@link Profile#STRUCTURAL}
     * rules, stopping at the first finding, so a bug in a pass never ships malformed BTF while
     * object-file BTF (extern linkage, unsized DATASECs, compiler naming quirks) passes.
     *
     * @throws ValidationException naming the first broken rule
     */
    public static void checkOutput(Btf btf) {
        List<Finding> f = validate(btf, new Options(true, Profile.STRUCTURAL));
        if (!f.isEmpty()) {
            throw new ValidationException(f);
        }
    }
}
