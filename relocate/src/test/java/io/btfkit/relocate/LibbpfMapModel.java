package io.btfkit.relocate;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Test oracle: libbpf's {@code btf_relocate_map_distilled_base} transcribed step by step as
 * libbpf does it — sort the distilled types by (name, size descending), walk every new-base id
 * in order, binary-search its (name[, size]) key, stop at the first ambiguity, then check that
 * every distilled id is mapped. Slow and literal on purpose, to check {@link DistilledBaseMap}'s
 * indexed walk (which must reach the same outcome) on random inputs.
 */
final class LibbpfMapModel {
    /** Outcome: map (when ok), else the distilled id libbpf complains about and whether it stopped on an ambiguity. */
    record Outcome(boolean ok, int[] map, int complaintId, boolean ambiguity) {
    }

    private static final int EMBEDDED = -1;

    private record Info(String name, boolean needsSize, int size, int id) {
    }

    private LibbpfMapModel() {
    }

    private static int compare(Info a, Info b) {
        int c = Arrays.compareUnsigned(a.name().getBytes(StandardCharsets.ISO_8859_1), b.name().getBytes(StandardCharsets.ISO_8859_1));
        if (c == 0 && a.needsSize() && b.needsSize()) {
            return Integer.compare(b.size(), a.size());
        }
        return c;
    }

    static Outcome run(Btf split, Btf base) {
        Btf dist = split.base();
        int nDist = dist.typeCount();
        Info[] info = new Info[nDist];
        for (int id = 0; id < nDist; id++) {
            info[id] = new Info(dist.strings().latin1(dist.nameOff(id)), true, dist.sizeOrType(id) & 0x7fffffff, id);
        }
        Arrays.sort(info, LibbpfMapModel::compare); // stable, like the qsort libbpf gets on glibc for our tie cases
        int[] idMap = new int[nDist];
        for (int id = split.firstId(); id < split.typeCount(); id++) {
            if (!Kind.isComposite(split.kind(id))) {
                continue;
            }
            for (var m : split.type(id).members()) {
                int next = m.type();
                while (next != 0) {
                    int k = split.kind(next);
                    if (k == Kind.CONST || k == Kind.RESTRICT || k == Kind.VOLATILE || k == Kind.TYPEDEF || k == Kind.TYPE_TAG) {
                        next = split.sizeOrType(next);
                    } else if (k == Kind.ARRAY) {
                        next = split.extra(next, 0);
                    } else {
                        if (Kind.isComposite(k) && next < nDist) {
                            idMap[next] = EMBEDDED;
                        }
                        next = 0;
                    }
                }
            }
        }
        int[] nameCount = new int[base.strings().end()];
        for (int id = 1; id < base.typeCount(); id++) {
            if (Kind.isComposite(base.kind(id)) && base.nameOff(id) != 0) {
                nameCount[base.nameOff(id)]++;
            }
        }
        for (int id = 1; id < base.typeCount(); id++) {
            if (base.nameOff(id) == 0) {
                continue;
            }
            int bk = base.kind(id);
            String name = base.strings().latin1(base.nameOff(id));
            Info key;
            switch (bk) {
                case Kind.INT:
                case Kind.FLOAT:
                case Kind.ENUM:
                case Kind.ENUM64:
                    key = new Info(name, true, base.sizeOrType(id) & 0x7fffffff, id);
                    break;
                case Kind.FWD:
                    key = new Info(name, false, 0, id);
                    break;
                case Kind.STRUCT:
                case Kind.UNION:
                    key = new Info(name, nameCount[base.nameOff(id)] > 1, base.sizeOrType(id) & 0x7fffffff, id);
                    break;
                default:
                    continue;
            }
            int lo = leftmost(info, key);
            for (int i = lo; i >= 0 && i < nDist && compare(key, info[i]) == 0; i++) {
                int d = info[i].id();
                if (d == 0) {
                    return new Outcome(false, null, 0, true);
                }
                int dk = dist.kind(d);
                boolean compatible;
                switch (dk) {
                    case Kind.FWD:
                        compatible = bk == Kind.FWD ? dist.kindFlag(d) == base.kindFlag(id)
                                : bk == Kind.STRUCT ? !base.kindFlag(id) : bk == Kind.UNION && base.kindFlag(id);
                        break;
                    case Kind.INT:
                        compatible = bk == Kind.INT && ((base.extra(id, 0) >>> 24) & 0xf) == ((dist.extra(d, 0) >>> 24) & 0xf);
                        break;
                    case Kind.FLOAT:
                        compatible = bk == Kind.FLOAT;
                        break;
                    case Kind.ENUM:
                        compatible = bk == Kind.ENUM || bk == Kind.ENUM64;
                        break;
                    case Kind.STRUCT:
                    case Kind.UNION:
                        compatible = !(idMap[d] == EMBEDDED && base.sizeOrType(id) != dist.sizeOrType(d));
                        break;
                    default:
                        compatible = false;
                }
                if (!compatible) {
                    continue;
                }
                if (idMap[d] != 0 && idMap[d] != EMBEDDED) {
                    return new Outcome(false, null, d, true);
                }
                idMap[d] = id;
            }
        }
        for (int d = 1; d < nDist; d++) {
            if (idMap[d] == 0 || idMap[d] == EMBEDDED) {
                return new Outcome(false, null, d, false);
            }
        }
        return new Outcome(true, idMap, -1, false);
    }

    private static int leftmost(Info[] vals, Info key) {
        int ret = -1;
        int low = 0;
        int high = vals.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int diff = compare(key, vals[mid]);
            if (diff == 0) {
                ret = mid;
            }
            if (diff <= 0) {
                high = mid - 1;
            } else {
                low = mid + 1;
            }
        }
        return ret;
    }

    static Comparator<Info> order() {
        return LibbpfMapModel::compare;
    }
}
