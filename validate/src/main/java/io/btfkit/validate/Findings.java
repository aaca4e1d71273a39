package io.btfkit.validate;

import io.btfkit.core.Kind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Collects findings for one validation run; knows the profile (which rules are checked) and
 * whether to stop at the first finding. Passes ask {@link #done()} between types.
 */
final class Findings {
    private final Types types;
    private final boolean stopAtFirst;
    private final boolean kernel;
    private final List<Finding> list = new ArrayList<>();

    Findings(Types types, Validator.Options options) {
        this.types = types;
        this.stopAtFirst = options.stopAtFirst();
        this.kernel = options.profile() == Validator.Profile.KERNEL;
    }

    /** Whether kernel-only rules (and the strict form of the relaxed ones) apply. */
    boolean kernel() {
        return kernel;
    }

    /** Whether {@code rule} is checked in this run's profile. */
    boolean checks(Rule rule) {
        return kernel || !rule.kernelOnly();
    }

    boolean done() {
        return stopAtFirst && !list.isEmpty();
    }

    /** Records a finding for type {@code id} (-1: the whole BTF) if the rule is checked; returns whether it was. */
    boolean add(int id, Rule rule, String detail) {
        if (!checks(rule) || done()) {
            return false;
        }
        int kind = id < 0 ? 0 : types.kind(id);
        String name = id <= 0 ? "" : nameOf(id);
        list.add(new Finding(id, kind, name, rule.id(), detail));
        return true;
    }

    /** The type's name as findings quote it (cut past {@link io.btfkit.core.Printable#MAX_NAME} bytes). */
    private String nameOf(int id) {
        String n = types.btf.strings().forMessage(types.nameOff(id));
        return n == null ? "(invalid name offset " + Integer.toUnsignedString(types.nameOff(id)) + ")" : n;
    }

    /** Findings ordered by type id (whole-BTF findings first), in pass order within a type. */
    List<Finding> result() {
        List<Finding> out = new ArrayList<>(list);
        out.sort(Comparator.comparingInt(Finding::typeId));
        return out;
    }

    /** "[id] KIND 'name'" for details that mention another type. */
    String describe(int id) {
        if (id == 0) {
            return "void";
        }
        if (!types.exists(id)) {
            return "[" + Integer.toUnsignedString(id) + "] (no such type)";
        }
        String n = types.btf.strings().forMessage(types.nameOff(id));
        return "[" + id + "] " + Kind.name(types.kind(id)) + " '" + (n == null || n.isEmpty() ? "(anon)" : n) + "'";
    }

    /** The string at {@code off} for details ("" if invalid; cut as names are). */
    String string(int off) {
        String s = types.btf.strings().forMessage(off);
        return s == null ? "" : s;
    }
}
