package io.btfkit.diff;

import java.util.ArrayList;
import java.util.List;

/**
 * A member that was added ({@code before == null}), removed ({@code after == null}) or changed.
 * Members are matched by name; a member of an anonymous struct or union is named by the path C
 * code uses to reach it: {@code a} when the anonymous member itself is unnamed (C11 anonymous
 * member), {@code u.a} when it is named {@code u}, {@code arr[].a} inside an array of anonymous
 * structs. Unnamed members that are not anonymous composites are called {@code (anon)}; a
 * repeated name gets {@code #2}, {@code #3}... in member order.
 */
public record MemberDiff(String name, MemberInfo before, MemberInfo after) {

    public boolean isAdded() {
        return before == null;
    }

    public boolean isRemoved() {
        return after == null;
    }

    /**
     * What differs between the two sides, in this order: {@code offset}, {@code type},
     * {@code bitfield}, {@code size} (the type keeps its name but its size changed, e.g. a
     * struct embedded by value grew). Empty for added and removed members.
     */
    public List<String> changes() {
        List<String> c = new ArrayList<>(4);
        if (before == null || after == null) {
            return c;
        }
        if (before.bitOffset() != after.bitOffset()) {
            c.add("offset");
        }
        boolean sameType = before.type().equals(after.type());
        if (!sameType) {
            c.add("type");
        }
        if (before.bitfieldSize() != after.bitfieldSize()) {
            c.add("bitfield");
        }
        if (sameType && before.size() != after.size()) {
            c.add("size");
        }
        return c;
    }
}
