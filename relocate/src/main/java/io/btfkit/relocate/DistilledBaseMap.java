package io.btfkit.relocate;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.Kind;
import io.btfkit.core.StringTable;
import io.btfkit.core.TypeRefs;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Maps each type of a distilled base to the one type of a new base that stands for it, by
 * libbpf's rules ({@code btf_relocate_map_distilled_base}), and collects every type that has no
 * such match instead of stopping at the first.
 *
 * <p>A new-base type B is a candidate for distilled type D when B is a named INT, FLOAT, ENUM,
 * ENUM64, FWD, STRUCT or UNION with D's name and, when B's "needs size" flag is set (see
 * {@link NewBaseIndex}), with D's size. A candidate then matches when, by D's kind:
 * <ul>
 *   <li>FWD: B is a FWD with the same kind_flag (struct/union), or a STRUCT whose kind_flag is
 *       clear, or a UNION whose kind_flag is set (libbpf tests the candidate's own kind_flag);</li>
 *   <li>INT: B is an INT with the same encoding bits;</li>
 *   <li>FLOAT: B is a FLOAT;</li>
 *   <li>ENUM: B is an ENUM or an ENUM64 (the distilled base keeps both as sized ENUMs);</li>
 *   <li>STRUCT/UNION: any candidate (libbpf does not compare kinds here), but when D is embedded
 *       by value in a split STRUCT/UNION (through typedefs, qualifiers, type tags and arrays, not
 *       pointers) and D has no match yet, B must have D's size.</li>
 * </ul>
 * D maps to its one match. A second match is ambiguous; libbpf stops at the first ambiguity it
 * meets walking the new base in id order, otherwise complains about the lowest unmapped id — so
 * the problem list starts with that complaint and continues in distilled id order.
 *
 * <p>Beyond libbpf: a STRUCT/UNION the split needs by size ({@link SizeNeeds}) whose one match
 * is a FWD is a problem too (libbpf maps it and writes BTF the kernel rejects); such problems
 * come after libbpf's complaint.
 *
 * <p>Why this equals libbpf's walk over all base ids: libbpf visits base ids in ascending order
 * and, per base id, the distilled types whose (name, size) key equals it; here each distilled
 * type visits its candidates in ascending base id order. The per-type state (mapped or not,
 * embedded) evolves in the same order, so the outcome per type is the same.
 */
final class DistilledBaseMap {
    /** New-base id of each distilled id (0 for void and unmapped). */
    final int[] baseId;
    /** New-base name offset for each distilled name offset that a mapped type uses (0 = unmapped). */
    final int[] strMap;
    final List<Problem> problems;

    private DistilledBaseMap(int[] baseId, int[] strMap, List<Problem> problems) {
        this.baseId = baseId;
        this.strMap = strMap;
        this.problems = problems;
    }

    /**
     * A problem, the new-base id at which libbpf would stop on it (MAX_VALUE: at the final
     * check), for a stop the distilled type's size word as libbpf sorts it, and whether libbpf
     * maps the type anyway (a problem only btfkit sees, listed after libbpf's).
     */
    private record Found(Problem problem, int stopAt, int sortSize, boolean libbpfMaps) {
        Found(Problem problem, int stopAt, Btf dist) {
            this(problem, stopAt, stopAt == Integer.MAX_VALUE ? 0 : dist.sizeOrType(problem.typeId()) & NewBaseIndex.SIZE_MASK,
                    false);
        }
    }

    static DistilledBaseMap build(Btf split, NewBaseIndex index) {
        Btf dist = split.base();
        int nDist = dist.typeCount();
        List<Problem> invalid = validate(dist);
        if (!invalid.isEmpty()) {
            return new DistilledBaseMap(new int[nDist], new int[0], invalid);
        }
        int[] embeddedBy = markEmbedded(split, nDist);
        SizeNeeds sizeNeeds = SizeNeeds.of(split, nDist);
        Btf base = index.base();
        int[] map = new int[nDist];
        CandidateLists lists = new CandidateLists(dist, index);
        List<Found> found = new ArrayList<>();
        StringTable ds = dist.strings();
        int voidStop = voidNameClash(index);
        if (voidStop != Integer.MAX_VALUE) {
            found.add(new Found(new Problem(0, 0, "", 0, Problem.Reason.INVALID_NAME,
                    "new base type " + describe(base, voidStop) + " has a name offset that holds the empty string"), voidStop, 0, false));
        }
        for (int d = 1; d < nDist; d++) {
            int nameOff = dist.nameOff(d);
            StringTable t = ds.tableOf(nameOff);
            int g = index.group(t.bytes(), nameOff - t.start(), ds.lengthAt(nameOff));
            if (g < 0) {
                found.add(new Found(problem(dist, d, Problem.Reason.MISSING, "the new base has no type of that name"),
                        Integer.MAX_VALUE, dist));
                continue;
            }
            int[] two = lists.firstTwo(d, g, embeddedBy[d] != 0);
            int first = two[0];
            int second = two[1];
            if (second != 0) {
                found.add(new Found(problem(dist, d, Problem.Reason.AMBIGUOUS, "new base has " + lists.matching(d, g, embeddedBy[d] != 0)),
                        second, dist));
            } else if (first == 0) {
                found.add(new Found(unmatched(dist, d, base, lists, g, embeddedBy[d], sizeNeeds, split), Integer.MAX_VALUE, dist));
            } else if (base.kind(first) == Kind.FWD && Kind.isComposite(dist.kind(d)) && sizeNeeds.by(d) != 0) {
                // libbpf maps it, and its output has an array, member or variable without size
                String only = index.groupEnd(g) - index.groupStart(g) == 1 ? "new base has only " + describe(base, first)
                        : "its only match in the new base is " + describe(base, first) + " (of " + lists.group(g) + ")";
                found.add(new Found(problem(dist, d, Problem.Reason.NEEDED_BY_SIZE, "(" + sizeNeeds.describe(split, d) + "), "
                        + only), Integer.MAX_VALUE, 0, true));
            } else {
                map[d] = first;
            }
        }
        if (!found.isEmpty()) {
            return new DistilledBaseMap(map, new int[0], order(found));
        }
        return new DistilledBaseMap(map, nameMap(dist, base, map), List.of());
    }

    /**
     * libbpf's complaint first, then by id. libbpf stops at the earliest new-base id where some
     * distilled type meets its second match; at one base id it visits distilled types of that
     * name by decreasing size (its sort order), equal sizes in id order. Without such a stop it
     * names the lowest unmapped id.
     */
    private static List<Problem> order(List<Found> found) {
        Found head = found.stream().min(Comparator.comparing(Found::libbpfMaps).thenComparingInt(Found::stopAt)
                .thenComparing(Found::sortSize, Comparator.reverseOrder())
                .thenComparingInt(f -> f.problem().typeId())).orElseThrow();
        List<Problem> out = new ArrayList<>(found.size());
        out.add(head.problem());
        for (Found f : found) {
            if (f != head) {
                out.add(f.problem());
            }
        }
        return out;
    }

    /** A distilled base holds only named INT, FLOAT, ENUM, STRUCT, UNION and FWD types. */
    private static List<Problem> validate(Btf dist) {
        List<Problem> out = new ArrayList<>();
        for (int d = 1; d < dist.typeCount(); d++) {
            int kind = dist.kind(d);
            switch (kind) {
                case Kind.INT:
                case Kind.FLOAT:
                case Kind.ENUM:
                case Kind.STRUCT:
                case Kind.UNION:
                case Kind.FWD:
                    if (dist.nameOff(d) == 0) {
                        out.add(problem(dist, d, Problem.Reason.INVALID_DISTILLED_TYPE, "it is anonymous"));
                    }
                    break;
                default:
                    out.add(problem(dist, d, Problem.Reason.INVALID_DISTILLED_TYPE,
                            "a distilled base holds only named INT, FLOAT, ENUM, STRUCT, UNION and FWD types"));
                    break;
            }
        }
        return out;
    }

    /**
     * For each distilled STRUCT/UNION embedded by value in a split STRUCT/UNION member (through
     * TYPEDEF, CONST, VOLATILE, RESTRICT, TYPE_TAG and ARRAY element types), the first split type
     * that embeds it; 0 elsewhere.
     */
    static int[] markEmbedded(Btf split, int nDist) {
        int[] by = new int[nDist];
        int count = split.typeCount();
        for (int s = split.firstId(); s < count; s++) {
            if (!Kind.isComposite(split.kind(s))) {
                continue;
            }
            int[] w = split.words();
            int start = split.startOf(s);
            int members = TypeRefs.typeIdCount(w, start);
            for (int m = 0; m < members; m++) {
                int next = w[TypeRefs.typeIdSlot(w, start, m)];
                int steps = 0;
                while (next != 0) {
                    if (++steps > count) {
                        throw new BtfFormatException("type [" + s + "] member " + m + ": the chain of typedefs, qualifiers"
                                + " and arrays it refers to loops");
                    }
                    int kind = split.kind(next);
                    if (kind == Kind.CONST || kind == Kind.RESTRICT || kind == Kind.VOLATILE || kind == Kind.TYPEDEF
                            || kind == Kind.TYPE_TAG) {
                        next = split.sizeOrType(next);
                    } else if (kind == Kind.ARRAY) {
                        next = split.extra(next, 0);
                    } else {
                        if (Kind.isComposite(kind) && next < nDist && by[next] == 0) {
                            by[next] = s;
                        }
                        next = 0;
                    }
                }
            }
        }
        return by;
    }

    /** libbpf's per-kind compatibility test of distilled type {@code d} with candidate {@code b}. */
    static boolean matches(Btf dist, int d, Btf base, int b, boolean sizeMustMatch) {
        int bk = base.kind(b);
        switch (dist.kind(d)) {
            case Kind.FWD:
                if (bk == Kind.FWD) {
                    return dist.kindFlag(d) == base.kindFlag(b);
                }
                return (bk == Kind.STRUCT && !base.kindFlag(b)) || (bk == Kind.UNION && base.kindFlag(b));
            case Kind.INT:
                return bk == Kind.INT && intEncoding(base, b) == intEncoding(dist, d);
            case Kind.FLOAT:
                return bk == Kind.FLOAT;
            case Kind.ENUM:
                return bk == Kind.ENUM || bk == Kind.ENUM64;
            case Kind.STRUCT:
            case Kind.UNION:
                return !sizeMustMatch || base.sizeOrType(b) == dist.sizeOrType(d);
            default:
                return false;
        }
    }

    /** The same test without sizes and encodings: could {@code b} stand for {@code d} at all? */
    static boolean sameKindFamily(Btf dist, int d, Btf base, int b) {
        int bk = base.kind(b);
        switch (dist.kind(d)) {
            case Kind.FWD:
                return matches(dist, d, base, b, false);
            case Kind.INT:
                return bk == Kind.INT;
            case Kind.FLOAT:
                return bk == Kind.FLOAT;
            case Kind.ENUM:
                return bk == Kind.ENUM || bk == Kind.ENUM64;
            default:
                return true;
        }
    }

    static int intEncoding(Btf btf, int id) {
        return (btf.extra(id, 0) >>> 24) & 0x0f;
    }

    /** First new-base id where libbpf would match its distilled void entry (a named type whose name is ""), or MAX_VALUE. */
    private static int voidNameClash(NewBaseIndex index) {
        int g = index.group(new byte[0], 0, 0);
        if (g < 0) {
            return Integer.MAX_VALUE;
        }
        for (int e = index.groupStart(g); e < index.groupEnd(g); e++) {
            if (!index.needsSize(e) || (index.base().sizeOrType(index.id(e)) & NewBaseIndex.SIZE_MASK) == 0) {
                return index.id(e);
            }
        }
        return Integer.MAX_VALUE;
    }

    /** Why {@code d} found no match among the new-base types of its name (group {@code g}). */
    private static Problem unmatched(Btf dist, int d, Btf base, CandidateLists lists, int g, int embeddedBy, SizeNeeds sizeNeeds,
            Btf split) {
        CandidateLists.Family family = lists.family(d, g);
        if (family.ids().isEmpty()) {
            return problem(dist, d, Problem.Reason.KIND_DIFFERS, "new base has " + lists.group(g));
        }
        int kind = dist.kind(d);
        int dsize = dist.sizeOrType(d);
        if (kind == Kind.INT) {
            int b = family.firstOfSize(dsize & NewBaseIndex.SIZE_MASK);
            if (b != 0) {
                return problem(dist, d, Problem.Reason.ENCODING_DIFFERS, "distilled encoding "
                        + encodingName(intEncoding(dist, d)) + ", new base has " + describe(base, b) + " encoding "
                        + encodingName(intEncoding(base, b)));
            }
        }
        String candidates = "new base has " + family.listed();
        if (Kind.isComposite(kind) && embeddedBy != 0 && family.allForwards()) {
            return problem(dist, d, Problem.Reason.NEEDED_BY_SIZE, "(" + sizeNeeds.describe(split, d) + "), new base has only "
                    + family.listed());
        }
        if (Kind.isComposite(kind) && embeddedBy != 0) {
            return problem(dist, d, Problem.Reason.SIZE_CHANGED_EMBEDDED, "embedded by value in split type "
                    + describe(split, embeddedBy) + ", " + candidates);
        }
        if (kind == Kind.FWD) {
            return problem(dist, d, Problem.Reason.AMBIGUOUS, "a forward declaration has no size to choose between "
                    + family.listed());
        }
        return problem(dist, d, Problem.Reason.SIZE_DIFFERS, candidates);
    }

    /** Distilled name offset → new-base name offset; libbpf keeps the last write in new-base id order. */
    private static int[] nameMap(Btf dist, Btf base, int[] map) {
        int end = dist.strings().end();
        int[] strMap = new int[end];
        int[] setBy = new int[end];
        for (int d = 1; d < map.length; d++) {
            int off = dist.nameOff(d);
            if (map[d] > setBy[off]) {
                setBy[off] = map[d];
                strMap[off] = base.nameOff(map[d]);
            }
        }
        return strMap;
    }

    private static Problem problem(Btf dist, int d, Problem.Reason reason, String detail) {
        String name = dist.strings().latin1(dist.nameOff(d));
        int kind = dist.kind(d);
        int size = Kind.isKnown(kind) && Kind.hasSize(kind) ? dist.sizeOrType(d) : 0;
        return new Problem(d, kind, name == null ? "(invalid)" : name, size, reason, detail);
    }

    static String describe(Btf btf, int id) {
        String name = btf.strings().forMessage(btf.nameOff(id), java.nio.charset.StandardCharsets.ISO_8859_1);
        int kind = btf.kind(id);
        StringBuilder b = new StringBuilder().append('[').append(id).append("] ").append(Kind.name(kind)).append(" '")
                .append(name == null || name.isEmpty() ? "(anon)" : name).append('\'');
        if (kind == Kind.FWD) {
            b.append(btf.kindFlag(id) ? " fwd_kind=union" : " fwd_kind=struct");
        } else if (Kind.hasSize(kind)) {
            b.append(" size=").append(Integer.toUnsignedString(btf.sizeOrType(id)));
        }
        return b.toString();
    }

    private static String encodingName(int enc) {
        switch (enc) {
            case 0:
                return "(none)";
            case Kind.INT_SIGNED:
                return "SIGNED";
            case Kind.INT_CHAR:
                return "CHAR";
            case Kind.INT_BOOL:
                return "BOOL";
            default:
                return "UNKN(" + enc + ")";
        }
    }
}
