package io.btfkit.minimize;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;

/**
 * Matches a local spec against one candidate target type, building the target spec on the way
 * (libbpf's {@code bpf_core_spec_match}): type relocations compare whole types
 * ({@link TypeCompat}); enum value relocations look for an enumerator of the same essential
 * name; field relocations follow each named member by exact name through the target, descending
 * into anonymous structs/unions ({@link MemberSearch}), and each array index within the target's
 * bounds.
 */
final class SpecMatcher {
    private SpecMatcher() {
    }

    /** The target spec when {@code targetId} matches, else null. */
    static CoreSpec match(CoreSpec local, Btf target, int targetId) {
        CoreSpec spec = new CoreSpec(target, targetId, local.kind());
        if (local.kind().isTypeBased()) {
            boolean ok = local.kind() == ReloKind.TYPE_MATCHES
                    ? TypeCompat.typesMatch(local.btf(), local.rootTypeId(), target, targetId)
                    : TypeCompat.typesAreCompatible(local.btf(), local.rootTypeId(), target, targetId);
            return ok ? spec : null;
        }
        if (local.kind().isEnumValueBased()) {
            return matchEnumerator(local, spec, target, targetId);
        }
        int targId = targetId;
        for (int i = 0; i < local.length(); i++) {
            targId = TypeOps.skipModsAndTypedefs(target, targId);
            if (targId < 0) {
                throw new ReloFailure("target type chain from [" + targetId + "] loops");
            }
            Accessor la = local.accessor(i);
            if (!la.isArrayStep()) {
                targId = MemberSearch.find(local.btf(), la, target, targId, spec);
                if (targId <= 0) {
                    return null;
                }
                continue;
            }
            if (i > 0) {
                if (targId == 0 || target.kind(targId) != Kind.ARRAY) {
                    return null;
                }
                int nelems = target.extra(targId, 2);
                if (!SpecParser.isFlexibleArray(target, spec.last(), nelems)
                        && Integer.compareUnsigned(la.index(), nelems) >= 0) {
                    return null;
                }
                targId = TypeOps.skipModsAndTypedefs(target, target.extra(targId, 0));
                if (targId < 0) {
                    throw new ReloFailure("target array element type loops");
                }
            }
            if (spec.rawLength() == CoreSpec.MAX_LEN) {
                throw new ReloFailure("target access path longer than " + CoreSpec.MAX_LEN);
            }
            spec.addAccessor(new Accessor(targId, la.index(), null));
            spec.pushRaw(la.index());
            long size = TypeOps.resolveSize(target, targId);
            if (size < 0) {
                throw new ReloFailure("target " + TypeOps.describe(target, targId) + " has no size");
            }
            spec.addBits(la.index() * size * 8);
        }
        return spec;
    }

    private static CoreSpec matchEnumerator(CoreSpec local, CoreSpec spec, Btf target, int targetId) {
        int id = TypeOps.skipModsAndTypedefs(target, targetId);
        if (id <= 0 || !Kind.isEnum(target.kind(id))) {
            return null;
        }
        String want = TypeOps.essentialName(local.accessor(0).name());
        for (int i = 0; i < target.vlen(id); i++) {
            String name = TypeOps.enumeratorName(target, id, i);
            if (TypeOps.essentialName(name).equals(want)) {
                spec.addAccessor(new Accessor(id, i, name));
                spec.pushRaw(i);
                return spec;
            }
        }
        return null;
    }
}
