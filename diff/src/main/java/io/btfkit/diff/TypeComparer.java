package io.btfkit.diff;

import io.btfkit.core.Kind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Compares two definitions of one named type (same kind class and name, one per side) and lists
 * what a reader would see change, kind by kind:
 *
 * <ul>
 *   <li>STRUCT/UNION: size; members matched by name path (anonymous structs and unions lifted,
 *       see {@link Side#members}): added, removed, moved, retyped (by C spelling, so
 *       {@code struct foo *} to {@code struct bar *} shows), bitfield width, and the size of a
 *       same-named member type (a struct embedded by value that grew).</li>
 *   <li>ENUM/ENUM64: kind, size, signedness; enumerators by name: added, removed, new value.</li>
 *   <li>FUNC: linkage, return type, parameters by position (name, type, added, removed).</li>
 *   <li>TYPEDEF and VAR: target type; VAR linkage; when the target is an anonymous struct, union
 *       or enum, its body is compared as above (that is how {@code typedef struct {...} atomic_t}
 *       is followed).</li>
 *   <li>DATASEC: size. INT: size, encoding, bits, bit offset. FLOAT: size. FWD: struct/union.</li>
 * </ul>
 *
 * <p>Anything else anonymous is compared through these: only the C spelling of a member,
 * parameter or target shows, so a change inside an anonymous struct reached through a pointer
 * is not itemised (its fingerprint still differs; such an entry ends up empty and is dropped).
 */
final class TypeComparer {
    private final Side a;
    private final Side b;

    TypeComparer(Side a, Side b) {
        this.a = a;
        this.b = b;
    }

    /** The changes between {@code ia} (side a) and {@code ib} (side b), filling the given lists. */
    void compare(int ia, int ib, List<PropertyChange> props, List<MemberDiff> members, List<ValueDiff> values,
            List<ParamDiff> params) {
        int ka = a.btf.kind(ia);
        int kb = b.btf.kind(ib);
        switch (kb) {
            case Kind.STRUCT:
            case Kind.UNION:
                compareComposite(ia, ib, props, members);
                break;
            case Kind.ENUM:
            case Kind.ENUM64:
                compareEnum(ia, ib, props, values);
                break;
            case Kind.TYPEDEF:
            case Kind.VAR:
                if (kb == Kind.VAR) {
                    property(props, "linkage", linkage(a.btf.extra(ia, 0)), linkage(b.btf.extra(ib, 0)));
                }
                compareTarget(a.btf.sizeOrType(ia), b.btf.sizeOrType(ib), props, members, values);
                break;
            case Kind.FUNC:
                property(props, "linkage", linkage(a.btf.vlen(ia)), linkage(b.btf.vlen(ib)));
                property(props, "return", a.names.returnType(ia), b.names.returnType(ib));
                compareParams(a.names.params(ia), b.names.params(ib), params);
                break;
            case Kind.DATASEC:
            case Kind.FLOAT:
                property(props, "size", size(a, ia), size(b, ib));
                break;
            case Kind.INT: {
                property(props, "size", size(a, ia), size(b, ib));
                int ea = a.btf.extra(ia, 0);
                int eb = b.btf.extra(ib, 0);
                property(props, "encoding", encoding((ea >>> 24) & 0x0f), encoding((eb >>> 24) & 0x0f));
                property(props, "bits", Integer.toString(ea & 0xff), Integer.toString(eb & 0xff));
                property(props, "bit_offset", Integer.toString((ea >>> 16) & 0xff), Integer.toString((eb >>> 16) & 0xff));
                break;
            }
            case Kind.FWD:
                property(props, "fwd_kind", a.btf.kindFlag(ia) ? "union" : "struct", b.btf.kindFlag(ib) ? "union" : "struct");
                break;
            default:
                if (ka != kb) {
                    property(props, "kind", Kind.name(ka), Kind.name(kb));
                }
                break;
        }
    }

    private void compareTarget(int ta, int tb, List<PropertyChange> props, List<MemberDiff> members, List<ValueDiff> values) {
        property(props, "type", a.names.of(ta), b.names.of(tb));
        int ba = a.skipQualifiers(ta);
        int bb = b.skipQualifiers(tb);
        if (a.isAnonymousComposite(ba) && b.isAnonymousComposite(bb) && a.btf.kind(ba) == b.btf.kind(bb)) {
            compareComposite(ba, bb, props, members);
        } else if (a.isAnonymousEnum(ba) && b.isAnonymousEnum(bb)) {
            compareEnum(ba, bb, props, values);
        }
    }

    private void compareComposite(int ia, int ib, List<PropertyChange> props, List<MemberDiff> out) {
        property(props, "size", size(a, ia), size(b, ib));
        if (a.hash.members(ia) == b.hash.members(ib)) {
            return; // the same members: nothing to flatten, nothing to list
        }
        Map<String, MemberInfo> ma = a.members(ia);
        Map<String, MemberInfo> mb = b.members(ib);
        List<MemberDiff> found = new ArrayList<>();
        for (Map.Entry<String, MemberInfo> e : mb.entrySet()) {
            MemberInfo before = ma.get(e.getKey());
            MemberDiff d = new MemberDiff(e.getKey(), before, e.getValue());
            if (before == null || !d.changes().isEmpty()) {
                found.add(d);
            }
        }
        for (Map.Entry<String, MemberInfo> e : ma.entrySet()) {
            if (!mb.containsKey(e.getKey())) {
                found.add(new MemberDiff(e.getKey(), e.getValue(), null));
            }
        }
        found.sort(Comparator.comparingLong((MemberDiff d) -> (d.after() != null ? d.after() : d.before()).bitOffset())
                .thenComparing(MemberDiff::name));
        out.addAll(found);
    }

    private void compareEnum(int ia, int ib, List<PropertyChange> props, List<ValueDiff> out) {
        int ka = a.btf.kind(ia);
        int kb = b.btf.kind(ib);
        if (ka != kb) {
            property(props, "kind", Kind.name(ka), Kind.name(kb));
        }
        property(props, "size", size(a, ia), size(b, ib));
        property(props, "signedness", a.btf.kindFlag(ia) ? "signed" : "unsigned", b.btf.kindFlag(ib) ? "signed" : "unsigned");
        Map<String, String> va = a.values(ia);
        Map<String, String> vb = b.values(ib);
        for (Map.Entry<String, String> e : vb.entrySet()) {
            String before = va.get(e.getKey());
            if (!e.getValue().equals(before)) {
                out.add(new ValueDiff(e.getKey(), before, e.getValue()));
            }
        }
        for (Map.Entry<String, String> e : va.entrySet()) {
            if (!vb.containsKey(e.getKey())) {
                out.add(new ValueDiff(e.getKey(), e.getValue(), null));
            }
        }
    }

    private static void compareParams(ParamInfo[] pa, ParamInfo[] pb, List<ParamDiff> out) {
        for (int i = 0; i < Math.max(pa.length, pb.length); i++) {
            ParamInfo x = i < pa.length ? pa[i] : null;
            ParamInfo y = i < pb.length ? pb[i] : null;
            if (x == null || y == null || !x.equals(y)) {
                out.add(new ParamDiff(i + 1, x, y));
            }
        }
    }

    private static void property(List<PropertyChange> props, String name, String before, String after) {
        if (!before.equals(after)) {
            props.add(new PropertyChange(name, before, after));
        }
    }

    private static String size(Side s, int id) {
        return Integer.toUnsignedString(s.btf.sizeOrType(id));
    }

    static String linkage(int l) {
        switch (l) {
            case Kind.LINKAGE_STATIC:
                return "static";
            case Kind.LINKAGE_GLOBAL:
                return "global";
            case Kind.LINKAGE_EXTERN:
                return "extern";
            default:
                return "linkage " + l;
        }
    }

    static String encoding(int e) {
        if (e == 0) {
            return "none";
        }
        StringBuilder sb = new StringBuilder();
        if ((e & Kind.INT_SIGNED) != 0) {
            sb.append("signed");
        }
        if ((e & Kind.INT_CHAR) != 0) {
            sb.append(sb.length() > 0 ? "|" : "").append("char");
        }
        if ((e & Kind.INT_BOOL) != 0) {
            sb.append(sb.length() > 0 ? "|" : "").append("bool");
        }
        if ((e & ~7) != 0) {
            sb.append(sb.length() > 0 ? "|" : "").append("0x").append(Integer.toHexString(e & ~7));
        }
        return sb.toString();
    }

    /** A short description of one type: its size and member count, signature, target... */
    static String describe(Side s, int id) {
        int kind = s.btf.kind(id);
        int vlen = s.btf.vlen(id);
        switch (kind) {
            case Kind.STRUCT:
            case Kind.UNION:
                return "size " + size(s, id) + ", " + vlen + (vlen == 1 ? " member" : " members");
            case Kind.ENUM:
            case Kind.ENUM64:
                return "size " + size(s, id) + ", " + vlen + (vlen == 1 ? " value" : " values");
            case Kind.DATASEC:
                return "size " + size(s, id) + ", " + vlen + (vlen == 1 ? " variable" : " variables");
            case Kind.TYPEDEF:
                return s.names.of(s.btf.sizeOrType(id));
            case Kind.FUNC:
                return s.names.function(id);
            case Kind.VAR:
                return s.names.variable(id);
            case Kind.INT: {
                int e = s.btf.extra(id, 0);
                return "size " + size(s, id) + ", " + (e & 0xff) + " bits, " + encoding((e >>> 24) & 0x0f);
            }
            case Kind.FLOAT:
                return "size " + size(s, id);
            case Kind.FWD:
                return s.btf.kindFlag(id) ? "union" : "struct";
            default:
                return "";
        }
    }
}
