package io.btfkit.validate;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;

/**
 * Fast word access to every type id of a BTF and its bases, for the validator's passes: own
 * types are read straight from the columnar arrays, base types through {@link Btf}. Id 0 (void)
 * reads as all-zero words. Also holds the kernel's kind classes, which differ from
 * {@link Kind}'s: the kernel counts TYPEDEF and TYPE_TAG among "modifiers".
 */
final class Types {
    final Btf btf;
    /** First own id. */
    final int first;
    /** Number of ids including void and the base's. */
    final int count;
    final int[] w;
    final int[] st;

    Types(Btf btf) {
        this.btf = btf;
        this.first = btf.firstId();
        this.count = btf.typeCount();
        this.w = btf.words();
        this.st = btf.starts();
    }

    boolean isOwn(int id) {
        return id >= first && id < count;
    }

    /** Start word of own type {@code id} in {@link #w}. */
    int start(int id) {
        return st[id - first];
    }

    int info(int id) {
        if (id >= first) {
            return w[st[id - first] + 1];
        }
        return id == 0 ? 0 : btf.info(id);
    }

    int kind(int id) {
        return Kind.kindOf(info(id));
    }

    int vlen(int id) {
        return Kind.vlenOf(info(id));
    }

    boolean kflag(int id) {
        return info(id) < 0;
    }

    int nameOff(int id) {
        if (id >= first) {
            return w[st[id - first]];
        }
        return id == 0 ? 0 : btf.nameOff(id);
    }

    /** The size-or-type word. */
    int word2(int id) {
        if (id >= first) {
            return w[st[id - first] + 2];
        }
        return id == 0 ? 0 : btf.sizeOrType(id);
    }

    /** Extra word {@code k} after the 3-word header. */
    int extra(int id, int k) {
        if (id >= first) {
            return w[st[id - first] + 3 + k];
        }
        return btf.extra(id, k);
    }

    /** Whether {@code id} names a type (void included). */
    boolean exists(int id) {
        return id >= 0 && id < count;
    }

    // --- the kernel's kind classes ---

    /** TYPEDEF, VOLATILE, CONST, RESTRICT, TYPE_TAG ({@code btf_type_is_modifier}). */
    static boolean isModifier(int kind) {
        switch (kind) {
            case Kind.TYPEDEF:
            case Kind.VOLATILE:
            case Kind.CONST:
            case Kind.RESTRICT:
            case Kind.TYPE_TAG:
                return true;
            default:
                return false;
        }
    }

    /** Kinds with no size: FWD, FUNC, FUNC_PROTO, DECL_TAG (and void, kind 0). */
    static boolean isNoSize(int kind) {
        return kind == 0 || kind == Kind.FWD || kind == Kind.FUNC || kind == Kind.FUNC_PROTO || kind == Kind.DECL_TAG;
    }

    /** VAR, DECL_TAG, DATASEC: only ever the start of a reference, never its target. */
    static boolean isSourceOnly(int kind) {
        return kind == Kind.VAR || kind == Kind.DECL_TAG || kind == Kind.DATASEC;
    }

    /** Kinds the kernel's resolve pass visits ({@code btf_type_needs_resolve}). */
    static boolean needsResolve(int kind) {
        switch (kind) {
            case Kind.PTR:
            case Kind.STRUCT:
            case Kind.UNION:
            case Kind.ARRAY:
            case Kind.VAR:
            case Kind.FUNC:
            case Kind.DECL_TAG:
            case Kind.DATASEC:
                return true;
            default:
                return isModifier(kind);
        }
    }

    static long u32(int v) {
        return v & 0xffffffffL;
    }
}
