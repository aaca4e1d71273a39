package io.btfkit.diff;

import java.util.ArrayList;
import java.util.List;

/**
 * The result of {@link BtfDiff#diff}: every added, removed and changed type, sorted by kind
 * (struct, union, enum, typedef, func, var, datasec, int, float, fwd, decl_tag), then label,
 * then status, then type ids. Equal inputs give an equal report.
 */
public record DiffReport(List<TypeDiff> types) {

    public DiffReport {
        types = List.copyOf(types);
    }

    public boolean isEmpty() {
        return types.isEmpty();
    }

    public List<TypeDiff> withStatus(Status status) {
        List<TypeDiff> out = new ArrayList<>();
        for (TypeDiff t : types) {
            if (t.status() == status) {
                out.add(t);
            }
        }
        return out;
    }

    public int count(Status status) {
        int n = 0;
        for (TypeDiff t : types) {
            if (t.status() == status) {
                n++;
            }
        }
        return n;
    }

    /** The entry for {@code kindWord label} (e.g. {@code "struct", "device"}) with the given status, or null. */
    public TypeDiff find(Status status, String kindWord, String label) {
        for (TypeDiff t : types) {
            if (t.status() == status && t.kindWord().equals(kindWord) && t.label().equals(label)) {
                return t;
            }
        }
        return null;
    }
}
