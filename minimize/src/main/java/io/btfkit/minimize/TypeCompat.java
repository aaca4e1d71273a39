package io.btfkit.minimize;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;

/**
 * libbpf's three notions of "the same type on another kernel": compatible fields
 * ({@code bpf_core_fields_are_compat}), compatible types for type relocations
 * ({@code bpf_core_types_are_compat}) and the stricter TYPE_MATCHES relation
 * ({@code bpf_core_types_match}). Each is bounded in depth as libbpf bounds it (a loop in
 * either BTF ends it); the last two compare each pair of types once ({@link ComparedPairs}).
 */
final class TypeCompat {
    private TypeCompat() {
    }

    /** Whether a local field of type {@code localId} can be read from a target field of type {@code targId}. */
    static boolean fieldsAreCompatible(Btf local, int localId, Btf target, int targId) {
        for (int depth = 0; depth <= TypeOps.MAX_DEPTH; depth++) {
            localId = TypeOps.skipModsAndTypedefs(local, localId);
            targId = TypeOps.skipModsAndTypedefs(target, targId);
            if (localId < 0 || targId < 0) {
                throw new ReloFailure("field type chain loops");
            }
            int lk = local.kind(localId);
            int tk = target.kind(targId);
            if (Kind.isComposite(lk) && Kind.isComposite(tk)) {
                return true;
            }
            if (!TypeOps.kindsCompatible(lk, tk)) {
                return false;
            }
            switch (lk) {
                case Kind.PTR, Kind.FLOAT:
                    return true;
                case Kind.FWD, Kind.ENUM, Kind.ENUM64:
                    return namesMatchOrAnonymous(TypeOps.nameOrEmpty(local, localId), TypeOps.nameOrEmpty(target, targId));
                case Kind.INT:
                    return intOffset(local, localId) == 0 && intOffset(target, targId) == 0;
                case Kind.ARRAY:
                    localId = local.extra(localId, 0);
                    targId = target.extra(targId, 0);
                    continue;
                default:
                    return false;
            }
        }
        throw new ReloFailure("field types nested deeper than " + TypeOps.MAX_DEPTH);
    }

    /** Whether the essential names are equal, or either is anonymous. */
    private static boolean namesMatchOrAnonymous(String a, String b) {
        int la = TypeOps.essentialNameLength(a);
        int lb = TypeOps.essentialNameLength(b);
        return la == 0 || lb == 0 || (la == lb && a.regionMatches(0, b, 0, la));
    }

    private static int intOffset(Btf btf, int id) {
        return (btf.extra(id, 0) >>> 16) & 0xff;
    }

    /** libbpf's level budget of both type relations: how deep parameters (and member pairs) may nest. */
    static final int LEVELS = 32;

    /** Compatibility for TYPE_ID_TARGET, TYPE_EXISTS and TYPE_SIZE (the caller matched the names). */
    static boolean typesAreCompatible(Btf local, int localId, Btf target, int targId) {
        ComparedPairs pairs = new ComparedPairs(LEVELS, 0);
        return pairs.top(ComparedPairs.key(localId, targId, false),
                () -> typesAreCompatible(local, localId, target, targId, pairs));
    }

    private static boolean typesAreCompatible(Btf local, int localId, Btf target, int targId, ComparedPairs pairs) {
        if (!TypeOps.kindsCompatible(local.kind(localId), target.kind(targId))) {
            return false;
        }
        // libbpf follows at most 32 types in a row within one call
        for (int depth = TypeOps.MAX_DEPTH; depth > 0; depth--) {
            pairs.step();
            localId = TypeOps.skipModsAndTypedefs(local, localId);
            targId = TypeOps.skipModsAndTypedefs(target, targId);
            if (localId < 0 || targId < 0) {
                throw new ReloFailure("type chain loops");
            }
            int lk = local.kind(localId);
            if (!TypeOps.kindsCompatible(lk, target.kind(targId))) {
                return false;
            }
            switch (lk) {
                case Kind.UNKN, Kind.STRUCT, Kind.UNION, Kind.ENUM, Kind.FWD, Kind.ENUM64:
                    return true;
                case Kind.INT:
                    return intOffset(local, localId) == 0 && intOffset(target, targId) == 0;
                case Kind.PTR:
                    localId = local.sizeOrType(localId);
                    targId = target.sizeOrType(targId);
                    continue;
                case Kind.ARRAY:
                    localId = local.extra(localId, 0);
                    targId = target.extra(targId, 0);
                    continue;
                case Kind.FUNC_PROTO:
                    int n = local.vlen(localId);
                    if (n != target.vlen(targId)) {
                        return false;
                    }
                    for (int i = 0; i < n; i++) {
                        pairs.step();
                        int lp = TypeOps.skipModsAndTypedefs(local, local.extra(localId, 2 * i + 1));
                        int tp = TypeOps.skipModsAndTypedefs(target, target.extra(targId, 2 * i + 1));
                        if (lp < 0 || tp < 0) {
                            throw new ReloFailure("type chain loops");
                        }
                        // one level down (libbpf: an error when no level is left)
                        if (!pairs.nested(ComparedPairs.key(lp, tp, false),
                                () -> typesAreCompatible(local, lp, target, tp, pairs))) {
                            return false;
                        }
                    }
                    localId = local.sizeOrType(localId);
                    targId = target.sizeOrType(targId);
                    continue;
                default:
                    return false;
            }
        }
        throw new ReloFailure("types nested deeper than " + TypeOps.MAX_DEPTH);
    }

    /** TYPE_MATCHES: the target has every member, enumerator and parameter the local type names, of matching types. */
    static boolean typesMatch(Btf local, int localId, Btf target, int targId) {
        // a call with no level left fails on entry (libbpf), so every call needs one
        ComparedPairs pairs = new ComparedPairs(LEVELS, 1);
        return pairs.top(ComparedPairs.key(localId, targId, false),
                () -> typesMatch(local, localId, target, targId, false, pairs));
    }

    private static boolean typesMatch(Btf local, int localId, Btf target, int targId, boolean behindPtr, ComparedPairs pairs) {
        // libbpf follows at most 32 types in a row within one call
        for (int depth = TypeOps.MAX_DEPTH; depth > 0; depth--) {
            pairs.step();
            localId = TypeOps.skipModsAndTypedefs(local, localId);
            targId = TypeOps.skipModsAndTypedefs(target, targId);
            if (localId < 0 || targId < 0) {
                throw new ReloFailure("type chain loops");
            }
            if (!namesMatch(TypeOps.nameOrEmpty(local, localId), TypeOps.nameOrEmpty(target, targId))) {
                return false;
            }
            int lk = local.kind(localId);
            int tk = target.kind(targId);
            switch (lk) {
                case Kind.UNKN:
                    return tk == Kind.UNKN;
                case Kind.FWD: {
                    boolean lf = local.kindFlag(localId);
                    if (behindPtr && tk != lk) {
                        return (tk == Kind.STRUCT && !lf) || (tk == Kind.UNION && lf);
                    }
                    return tk == lk && lf == target.kindFlag(targId);
                }
                case Kind.ENUM, Kind.ENUM64:
                    return Kind.isEnum(tk) && enumsMatch(local, localId, target, targId);
                case Kind.STRUCT, Kind.UNION:
                    if (behindPtr) {
                        return lk == tk || (tk == Kind.FWD && (lk == Kind.UNION) == target.kindFlag(targId));
                    }
                    return lk == tk && compositesMatch(local, localId, target, targId, behindPtr, pairs);
                case Kind.INT:
                    return tk == Kind.INT && local.sizeOrType(localId) == target.sizeOrType(targId)
                            && ((local.extra(localId, 0) >>> 24) & Kind.INT_SIGNED) == ((target.extra(targId, 0) >>> 24) & Kind.INT_SIGNED);
                case Kind.PTR:
                    if (tk != lk) {
                        return false;
                    }
                    behindPtr = true;
                    localId = local.sizeOrType(localId);
                    targId = target.sizeOrType(targId);
                    continue;
                case Kind.ARRAY:
                    if (tk != lk || local.extra(localId, 2) != target.extra(targId, 2)) {
                        return false;
                    }
                    localId = local.extra(localId, 0);
                    targId = target.extra(targId, 0);
                    continue;
                case Kind.FUNC_PROTO:
                    if (tk != lk || local.vlen(localId) != target.vlen(targId)) {
                        return false;
                    }
                    for (int i = 0; i < local.vlen(localId); i++) {
                        pairs.step();
                        if (!nestedMatch(local, local.extra(localId, 2 * i + 1), target, target.extra(targId, 2 * i + 1),
                                behindPtr, pairs)) {
                            return false;
                        }
                    }
                    localId = local.sizeOrType(localId);
                    targId = target.sizeOrType(targId);
                    continue;
                default:
                    return false;
            }
        }
        throw new ReloFailure("types nested deeper than " + TypeOps.MAX_DEPTH);
    }

    /**
     * libbpf's {@code bpf_core_names_match}: an anonymous target matches an anonymous local
     * only, a named one a local of the same essential name (so an anonymous local matches no
     * named target) — stricter than {@link #namesMatchOrAnonymous}, which field compatibility uses.
     */
    private static boolean namesMatch(String local, String target) {
        if (target.isEmpty()) {
            return local.isEmpty();
        }
        int ll = TypeOps.essentialNameLength(local);
        return ll == TypeOps.essentialNameLength(target) && local.regionMatches(0, target, 0, ll);
    }

    private static boolean enumsMatch(Btf local, int localId, Btf target, int targId) {
        int ln = local.vlen(localId);
        int tn = target.vlen(targId);
        if (local.sizeOrType(localId) != target.sizeOrType(targId) || ln > tn) {
            return false;
        }
        for (int i = 0; i < ln; i++) {
            String name = TypeOps.enumeratorName(local, localId, i);
            boolean found = false;
            for (int j = 0; j < tn && !found; j++) {
                found = namesMatch(name, TypeOps.enumeratorName(target, targId, j));
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }

    /** {@link #typesMatch} one level down (a parameter, a member), compared once per pair. */
    private static boolean nestedMatch(Btf local, int localId, Btf target, int targId, boolean behindPtr, ComparedPairs pairs) {
        return pairs.nested(ComparedPairs.key(localId, targId, behindPtr),
                () -> typesMatch(local, localId, target, targId, behindPtr, pairs));
    }

    private static boolean compositesMatch(Btf local, int localId, Btf target, int targId, boolean behindPtr, ComparedPairs pairs) {
        int ln = local.vlen(localId);
        int tn = target.vlen(targId);
        if (ln > tn) {
            return false;
        }
        for (int i = 0; i < ln; i++) {
            String name = TypeOps.memberName(local, localId, i);
            boolean found = false;
            for (int j = 0; j < tn && !found; j++) {
                pairs.step();
                if (namesMatch(name, TypeOps.memberName(target, targId, j))) {
                    found = nestedMatch(local, TypeOps.memberType(local, localId, i), target,
                            TypeOps.memberType(target, targId, j), behindPtr, pairs);
                }
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }
}
