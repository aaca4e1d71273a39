package io.btfkit.validate;

import io.btfkit.core.Kind;

/**
 * One broken rule: which type breaks it (id, kind, name as of the input) and how.
 *
 * @param typeId the type that breaks the rule, or -1 for a rule about the whole BTF (header,
 *               string section, type count)
 * @param kind   the type's kind ({@link Kind}), 0 for whole-BTF findings
 * @param name   the type's name ("" when anonymous)
 * @param rule   the {@link Rule#id() rule id}, e.g. {@code "member-size"}
 * @param detail what exactly is wrong, with the numbers involved
 */
public record Finding(int typeId, int kind, String name, String rule, String detail) {

    /** The rule as an enum constant. */
    public Rule ruleConstant() {
        return Rule.byId(rule);
    }

    /**
     * {@code type [id] KIND 'name': rule broken (detail)}, or {@code btf: rule broken (detail)}
     * for whole-BTF findings. Anonymous types print as {@code '(anon)'}, as bpftool does.
     */
    @Override
    public String toString() {
        String where = typeId < 0 ? "btf"
                : "type [" + typeId + "] " + Kind.name(kind) + " '" + (name == null || name.isEmpty() ? "(anon)" : name) + "'";
        return where + ": " + rule + " broken (" + detail + ")";
    }
}
