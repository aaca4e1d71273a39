package io.btfkit.diff;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.StringTable;
import io.btfkit.core.TypeRefs;

/**
 * 64-bit fingerprints that let the diff skip unchanged types without describing them. Two BTFs
 * are compared by name, so a fingerprint sees a type the way a report spells it:
 *
 * <ul>
 *   <li>A reference to a named type (struct, union, enum, forward declaration, typedef, int,
 *       float, func, var) counts as its kind class and name only ({@link #ref}): whatever changed
 *       inside {@code struct foo} is reported at {@code struct foo}, not at every user of it.</li>
 *   <li>Anonymous types (pointers, arrays, qualifiers, type tags, prototypes, anonymous structs,
 *       unions and enums) are part of whoever uses them: their fingerprint mixes their shape with
 *       their children's {@link #ref}, so it changes exactly when their spelled-out form could.</li>
 *   <li>{@link #body} of a named type mixes its own shape (size, members, values, parameters,
 *       linkage...) with its children's refs; a struct or union member also brings its type's
 *       size, so a container notices when a struct it embeds by value grows.</li>
 * </ul>
 *
 * <p>Equal fingerprints mean "nothing to report" (up to a 2^-64 collision); different ones only
 * mean "look closer": the comparer decides, and an entry with no visible difference is dropped.
 * All fingerprints are computed up front in passes over the columnar words: refs of named types,
 * then refs of anonymous types leaves first with an explicit stack (no recursion on deep chains;
 * a cycle through anonymous types only, malformed in C terms, hashes as a constant), then bodies.
 */
final class ShapeHash {
    private static final long VOID = 0x9e3779b97f4a7c15L;
    private static final long CYCLE = 0x2545f4914f6cdd1dL;
    private static final long INVALID = 0x5851f42d4c957f2dL;

    private final Btf btf;
    private final TypeSizes sizes;
    private final StringTable strings;
    private final long[] ref;
    private final long[] body;
    /** Per id: 1 when spelled out where used (anonymous, or a pure type constructor). */
    private final boolean[] structural;

    ShapeHash(Btf btf, TypeSizes sizes) {
        this.btf = btf;
        this.sizes = sizes;
        this.strings = btf.strings();
        int count = btf.typeCount();
        this.ref = new long[count];
        this.body = new long[count];
        this.structural = new boolean[count];
        ref[0] = VOID;
        forEachLayer((w, s, id) -> {
            int info = w[s + 1];
            int kind = Kind.kindOf(info);
            structural[id] = isStructural(kind, w[s]);
            if (!structural[id]) {
                ref[id] = mix(mix(refClass(kind, info < 0), 0), nameHash(w[s]));
            }
        });
        computeStructural(count);
        forEachLayer((w, s, id) -> body[id] = bodyOf(w, s));
    }

    /** How type {@code id} counts when something refers to it. */
    long ref(int id) {
        return Integer.compareUnsigned(id, ref.length) < 0 ? ref[id] : INVALID;
    }

    /** Fingerprint of a named type's own definition, for comparing two definitions of one name. */
    long body(int id) {
        return body[id];
    }

    /**
     * Fingerprint of a struct's or union's members alone (names, offsets, bitfields, type refs
     * and sizes; not its own size): equal on both sides exactly when their flattened member lists
     * are, so a struct that only changed size is not flattened at all.
     */
    long members(int id) {
        int[] w = btf.owner(id).words();
        int s = btf.startOf(id);
        int info = w[s + 1];
        int vlen = Kind.vlenOf(info);
        long h = mix(mix(Kind.kindOf(info), info < 0 ? 1 : 0), vlen);
        for (int i = 0, m = s + 3; i < vlen; i++, m += 3) {
            h = mix(mix(mix(mix(h, nameHash(w[m])), w[m + 2]), ref(w[m + 1])), sizes.of(w[m + 1]));
        }
        return h;
    }

    private interface TypeVisitor {
        void visit(int[] words, int start, int id);
    }

    /** Visits every type, base layers first, with its owner's words and start index. */
    private void forEachLayer(TypeVisitor v) {
        int depth = 0;
        for (Btf b = btf; b != null; b = b.base()) {
            depth++;
        }
        Btf[] layers = new Btf[depth];
        int i = depth;
        for (Btf b = btf; b != null; b = b.base()) {
            layers[--i] = b;
        }
        for (Btf layer : layers) {
            int[] w = layer.words();
            int[] st = layer.starts();
            int first = layer.firstId();
            for (int k = 0; k < layer.ownTypeCount(); k++) {
                v.visit(w, st[k], first + k);
            }
        }
    }

    private boolean isStructural(int kind, int nameOff) {
        switch (kind) {
            case Kind.PTR:
            case Kind.ARRAY:
            case Kind.CONST:
            case Kind.VOLATILE:
            case Kind.RESTRICT:
            case Kind.TYPE_TAG:
            case Kind.FUNC_PROTO:
                return true;
            case Kind.STRUCT:
            case Kind.UNION:
            case Kind.ENUM:
            case Kind.ENUM64:
                return isAnonymous(strings, nameOff);
            default:
                return !Kind.isKnown(kind);
        }
    }

    private long bodyOf(int[] w, int s) {
        int info = w[s + 1];
        int kind = Kind.kindOf(info);
        int vlen = Kind.vlenOf(info);
        long h = mix(kind, info < 0 ? 1 : 0);
        switch (kind) {
            case Kind.STRUCT:
            case Kind.UNION:
            case Kind.ENUM:
            case Kind.ENUM64:
                return shape(w, s);
            case Kind.TYPEDEF:
            case Kind.TYPE_TAG:
                return mix(h, ref(w[s + 2]));
            case Kind.VAR:
                return mix(mix(h, w[s + 3]), ref(w[s + 2]));
            case Kind.FUNC: {
                h = mix(h, vlen);
                int proto = w[s + 2];
                if (!btf.isValidId(proto) || proto == 0 || btf.kind(proto) != Kind.FUNC_PROTO) {
                    return mix(h, ref(proto));
                }
                int[] pw = btf.owner(proto).words();
                int ps = btf.startOf(proto);
                int pvlen = Kind.vlenOf(pw[ps + 1]);
                h = mix(mix(h, ref(pw[ps + 2])), pvlen);
                for (int i = 0, p = ps + 3; i < pvlen; i++, p += 2) {
                    h = mix(mix(h, nameHash(pw[p])), ref(pw[p + 1]));
                }
                return h;
            }
            case Kind.INT:
                return mix(mix(h, w[s + 2]), w[s + 3]);
            case Kind.FLOAT:
            case Kind.DATASEC:
                return mix(h, w[s + 2]);
            default:
                return h;
        }
    }

    /** Shape of a composite or enum: size, members/values with names, offsets and child refs. */
    private long shape(int[] w, int s) {
        int info = w[s + 1];
        int kind = Kind.kindOf(info);
        int vlen = Kind.vlenOf(info);
        long h = mix(mix(mix(kind, info < 0 ? 1 : 0), w[s + 2]), vlen);
        switch (kind) {
            case Kind.STRUCT:
            case Kind.UNION:
                for (int i = 0, m = s + 3; i < vlen; i++, m += 3) {
                    h = mix(mix(mix(mix(h, nameHash(w[m])), w[m + 2]), ref(w[m + 1])), sizes.of(w[m + 1]));
                }
                return h;
            case Kind.ENUM:
                for (int i = 0, m = s + 3; i < vlen; i++, m += 2) {
                    h = mix(mix(h, nameHash(w[m])), w[m + 1]);
                }
                return h;
            case Kind.ENUM64:
                for (int i = 0, m = s + 3; i < vlen; i++, m += 3) {
                    h = mix(mix(mix(h, nameHash(w[m])), w[m + 1]), w[m + 2]);
                }
                return h;
            default:
                return h;
        }
    }

    /** Refs of all structural types, children first, with an explicit stack. */
    private void computeStructural(int count) {
        byte[] state = new byte[count];
        int[] cursor = new int[count];
        int[] stack = new int[64];
        for (int root = 1; root < count; root++) {
            if (state[root] != 0 || !structural[root]) {
                continue;
            }
            int sp = 0;
            stack[sp++] = root;
            state[root] = 1;
            while (sp > 0) {
                int u = stack[sp - 1];
                int[] w = btf.owner(u).words();
                int start = btf.startOf(u);
                int n = TypeRefs.typeIdCount(w, start);
                int next = -1;
                while (cursor[u] < n) {
                    int c = w[TypeRefs.typeIdSlot(w, start, cursor[u]++)];
                    if (Integer.compareUnsigned(c, count) < 0 && state[c] == 0 && structural[c]) {
                        next = c;
                        break;
                    }
                }
                if (next >= 0) {
                    if (sp == stack.length) {
                        stack = java.util.Arrays.copyOf(stack, sp * 2);
                    }
                    stack[sp++] = next;
                    state[next] = 1;
                    continue;
                }
                ref[u] = structural(w, start, state);
                state[u] = 2;
                sp--;
            }
        }
    }

    private long structural(int[] w, int s, byte[] state) {
        int info = w[s + 1];
        int kind = Kind.kindOf(info);
        int vlen = Kind.vlenOf(info);
        switch (kind) {
            case Kind.PTR:
            case Kind.CONST:
            case Kind.VOLATILE:
            case Kind.RESTRICT:
                return mix(kind, childRef(w[s + 2], state));
            case Kind.TYPE_TAG:
                return mix(mix(kind, nameHash(w[s])), childRef(w[s + 2], state));
            case Kind.ARRAY:
                return mix(mix(kind, w[s + 5]), childRef(w[s + 3], state));
            case Kind.FUNC_PROTO: {
                long h = mix(mix(kind, vlen), childRef(w[s + 2], state));
                for (int i = 0, p = s + 3; i < vlen; i++, p += 2) {
                    h = mix(h, childRef(w[p + 1], state));
                }
                return h;
            }
            case Kind.STRUCT:
            case Kind.UNION: {
                long h = mix(mix(mix(kind, info < 0 ? 1 : 0), w[s + 2]), vlen);
                for (int i = 0, m = s + 3; i < vlen; i++, m += 3) {
                    h = mix(mix(mix(mix(h, nameHash(w[m])), w[m + 2]), childRef(w[m + 1], state)), sizes.of(w[m + 1]));
                }
                return h;
            }
            case Kind.ENUM:
            case Kind.ENUM64:
                return shape(w, s);
            default:
                return mix(mix(kind, info), w[s + 2]);
        }
    }

    private long childRef(int c, byte[] state) {
        if (Integer.compareUnsigned(c, ref.length) >= 0) {
            return INVALID;
        }
        if (c != 0 && state[c] == 1) {
            return CYCLE;
        }
        return ref[c];
    }

    /** The kind class a reference sees: forward declarations count as the struct/union they declare. */
    private static long refClass(int kind, boolean kindFlag) {
        switch (kind) {
            case Kind.FWD:
                return kindFlag ? Kind.UNION : Kind.STRUCT;
            case Kind.ENUM64:
                return Kind.ENUM;
            default:
                return kind;
        }
    }

    /** Whether {@code off} is a valid offset of the empty string. */
    static boolean isAnonymous(StringTable strings, int off) {
        if (off < 0 || off >= strings.end()) {
            return false;
        }
        StringTable t = strings.tableOf(off);
        return t.bytes()[off - t.start()] == 0;
    }

    /** FNV-1a of the string's bytes (so equal names on both sides hash equal); a constant when invalid. */
    long nameHash(int off) {
        if (off < 0 || off >= strings.end()) {
            return INVALID;
        }
        StringTable t = strings.tableOf(off);
        byte[] d = t.bytes();
        long h = 0xcbf29ce484222325L;
        int i = off - t.start();
        for (; i < d.length && d[i] != 0; i++) {
            h = (h ^ (d[i] & 0xff)) * 0x100000001b3L;
        }
        return i < d.length ? h : INVALID;
    }

    static long mix(long h, long v) {
        long x = h * 0x9e3779b97f4a7c15L + v;
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb33fa34ca53bL;
        return x ^ (x >>> 33);
    }
}
