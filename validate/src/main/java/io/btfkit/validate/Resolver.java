package io.btfkit.validate;

import io.btfkit.core.Kind;
import java.util.Arrays;

/**
 * The kernel's second pass ({@code btf_check_all_types}): resolves every type that refers to
 * others, in id order, with the same depth-first walk, sink rules and resolved ids/sizes as
 * {@code btf_resolve}, so it finds exactly the kernel's reference errors: cycles not broken by
 * a pointer, references to types without a size, bad array index/element types, member
 * offsets and bitfields ({@link MemberRules}), DATASEC entries, DECL_TAG targets, FUNC and
 * FUNC_PROTO rules.
 *
 * <p>Why it is correct: the walk is the kernel's, step for step. A vertex on the explicit stack
 * either pushes one unresolved type it depends on, pops itself as resolved, or fails. What
 * counts as a dependency depends on the mode fixed by the first PTR (then only modifiers and
 * pointers are followed: a pointer loop is still a loop) or STRUCT/UNION/ARRAY (then pointers
 * end the walk: {@code struct A { struct A *next; }} is fine). Pushing a type already on the
 * stack is a cycle. Types resolve once ({@code RESOLVED}), so the pass is linear.
 *
 * <p>No recursion: the stack is two growable int arrays, so chains thousands deep are fine. In
 * the kernel profile a stack deeper than the kernel's 32 entries is reported
 * ({@link Rule#RESOLVE_DEPTH}), once per top-level type. Base types count as resolved (the
 * kernel validated the base when it loaded it); their resolved ids and sizes are computed on
 * demand.
 *
 * <p>After a failure every type on the stack is marked {@link #FAILED}; later types that reach
 * a failed type stop silently, so one defect gives one finding.
 */
final class Resolver {
    static final byte NOT_VISITED = 0;
    static final byte VISITED = 1;
    static final byte RESOLVED = 2;
    static final byte FAILED = 3;

    /** Results of one resolve step. */
    static final int OK = 0;
    static final int ERR = 1;
    static final int SILENT = 2;
    private static final int EEXIST = 3;

    private static final int MODE_TBD = 0;
    private static final int MODE_PTR = 1;
    private static final int MODE_STRUCT = 2;

    static final int KERNEL_MAX_DEPTH = 32;

    private final Types t;
    private final Findings out;
    private final byte[] state;
    private final ResolvedSizes sizes;
    private final MemberRules members;
    private final int depthLimit;
    private final boolean kernel;

    private int[] stackId = new int[64];
    private int[] stackNext = new int[64];
    private int top;
    /** Deepest stack of the current top-level resolution. */
    private int maxTop;
    private int mode;
    /** The type whose push found it already on the stack. */
    private int loopId;

    Resolver(Types t, Findings out, byte[] state) {
        this.t = t;
        this.out = out;
        this.state = state;
        this.kernel = out.kernel();
        this.depthLimit = kernel ? KERNEL_MAX_DEPTH : Integer.MAX_VALUE;
        this.sizes = new ResolvedSizes(t);
        this.members = new MemberRules(t, this, sizes);
    }

    void run() {
        for (int id = t.first; id < t.count && !out.done(); id++) {
            int i = id - t.first;
            if (state[i] == FAILED) {
                continue;
            }
            int k = t.kind(id);
            if (Types.needsResolve(k) && state[i] == NOT_VISITED) {
                resolve(id);
            }
            if (k == Kind.FUNC_PROTO && !out.done()) {
                checkProto(id);
            }
        }
    }

    // --- findings ---

    int err(int id, Rule rule, String detail) {
        out.add(id, rule, detail);
        return ERR;
    }

    /** A kernel-only (policy) finding: reported, but the type still resolves. */
    void policy(int id, Rule rule, String detail) {
        out.add(id, rule, detail);
    }

    String describe(int id) {
        return out.describe(id);
    }

    String string(int off) {
        return out.string(off);
    }

    // --- state queries ---

    private boolean isResolved(int id) {
        return id < t.first || state[id - t.first] == RESOLVED;
    }

    boolean isFailed(int id) {
        return id >= t.first && state[id - t.first] == FAILED;
    }

    /** {@code env_type_is_resolve_sink}: whether the walk stops at a type of this kind. */
    private boolean isSink(int kind) {
        switch (mode) {
            case MODE_TBD:
                return !Types.needsResolve(kind);
            case MODE_PTR:
                return !Types.isModifier(kind) && kind != Kind.PTR;
            default:
                return !Types.isModifier(kind) && kind != Kind.ARRAY && !Kind.isComposite(kind);
        }
    }

    // --- the stack ---

    private int push(int id) {
        int i = id - t.first;
        if (i < 0) {
            return EEXIST;
        }
        if (state[i] == FAILED) {
            return SILENT;
        }
        if (state[i] != NOT_VISITED) {
            loopId = id;
            return EEXIST;
        }
        state[i] = VISITED;
        if (top == stackId.length) {
            stackId = Arrays.copyOf(stackId, top * 2);
            stackNext = Arrays.copyOf(stackNext, top * 2);
        }
        stackId[top] = id;
        stackNext[top] = 0;
        top++;
        maxTop = Math.max(maxTop, top);
        if (mode == MODE_TBD) {
            int k = t.kind(id);
            if (k == Kind.PTR) {
                mode = MODE_PTR;
            } else if (Kind.isComposite(k) || k == Kind.ARRAY) {
                mode = MODE_STRUCT;
            }
        }
        return OK;
    }

    private int pop(int resolvedTo, long size) {
        int id = stackId[--top];
        sizes.set(id, resolvedTo, size);
        state[id - t.first] = RESOLVED;
        return OK;
    }

    /**
     * {@code btf_resolve}: resolves {@code id} and whatever it needs; false on failure. The
     * kernel gives up when its stack of 32 is full; here the walk goes on (it is the same
     * walk, only deeper) and the depth is reported once, so a long chain gives one finding.
     */
    private boolean resolve(int id) {
        mode = MODE_TBD;
        top = 0;
        maxTop = 0;
        int st = push(id);
        while (st == OK && top > 0) {
            st = step();
        }
        if (maxTop > depthLimit) {
            err(id, Rule.RESOLVE_DEPTH, "resolving it stacks " + maxTop + " unresolved types, the kernel's limit is "
                    + KERNEL_MAX_DEPTH);
        }
        if (st == OK) {
            return true;
        }
        if (st == EEXIST) {
            int from = 0;
            while (from < top && stackId[from] != loopId) {
                from++;
            }
            err(id, Rule.LOOP, "reference cycle " + chain(from, top, loopId));
        }
        for (int j = 0; j < top; j++) {
            state[stackId[j] - t.first] = FAILED;
        }
        state[id - t.first] = FAILED;
        top = 0;
        return false;
    }

    private String chain(int from, int to, int last) {
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        for (int j = from; j < to; j++, shown++) {
            if (shown == 12 && to - j > 2) {
                sb.append(" -> ... (").append(to - j - 1).append(" more)");
                j = to - 1;
            }
            sb.append(shown == 0 ? "" : " -> ").append('[').append(stackId[j]).append("] ").append(Kind.name(t.kind(stackId[j])));
        }
        if (last >= 0) {
            sb.append(" -> [").append(last).append(']');
        }
        return sb.toString();
    }

    /** One resolve step for the vertex on top of the stack. */
    private int step() {
        int id = stackId[top - 1];
        switch (t.kind(id)) {
            case Kind.PTR:
                return resolveRef(id, true);
            case Kind.TYPEDEF:
            case Kind.VOLATILE:
            case Kind.CONST:
            case Kind.RESTRICT:
            case Kind.TYPE_TAG:
                return resolveRef(id, false);
            case Kind.VAR:
                return resolveVar(id);
            case Kind.ARRAY:
                return resolveArray(id);
            case Kind.STRUCT:
            case Kind.UNION:
                return resolveStruct(id);
            case Kind.DATASEC:
                return resolveDatasec(id);
            case Kind.FUNC:
                return resolveFunc(id);
            case Kind.DECL_TAG:
                return resolveDeclTag(id);
            default:
                return SILENT;
        }
    }

    /**
     * A PTR's or modifier's target resolved to another pointer: the kernel then continues from
     * that pointer (in pointer mode) so pointer loops through modifiers are found.
     */
    private int pushResolvedPointer(int next) {
        if (!Types.isModifier(t.kind(next))) {
            return -1;
        }
        int r = sizes.resolvedIdOf(next);
        if (r > 0 && t.kind(r) == Kind.PTR && !isSink(Kind.PTR) && !isResolved(r)) {
            return push(r);
        }
        return -1;
    }

    /** PTR, TYPEDEF, VOLATILE, CONST, RESTRICT, TYPE_TAG. */
    private int resolveRef(int id, boolean ptr) {
        int next = t.word2(id);
        if (isFailed(next)) {
            return SILENT;
        }
        int kn = t.kind(next);
        if (Types.isSourceOnly(kn)) {
            return err(id, Rule.REF_TARGET, "refers to " + describe(next) + ", which is not a type");
        }
        if (!isSink(kn) && !isResolved(next)) {
            return push(next);
        }
        if (ptr) {
            int pushed = pushResolvedPointer(next);
            if (pushed >= 0) {
                return pushed;
            }
        }
        if (sizes.idSize(next) >= 0) {
            return pop(sizes.sizeId, 0);
        }
        int target = isResolved(next) ? sizes.resolvedIdOf(next) : next;
        int kt = t.kind(target);
        if (target != 0 && kt != Kind.FWD && kt != Kind.FUNC_PROTO) {
            return err(id, Rule.REF_TARGET, "refers to " + describe(next)
                    + (target != next ? ", which resolves to " + describe(target) : "") + ", which has no size");
        }
        return pop(target, 0);
    }

    private int resolveVar(int id) {
        int next = t.word2(id);
        if (isFailed(next)) {
            return SILENT;
        }
        int kn = t.kind(next);
        if (Types.isSourceOnly(kn)) {
            return err(id, Rule.VAR_TYPE, "type " + describe(next) + " is not a type");
        }
        if (!isSink(kn) && !isResolved(next)) {
            return push(next);
        }
        int pushed = pushResolvedPointer(next);
        if (pushed >= 0) {
            return pushed;
        }
        if (sizes.idSize(next) < 0) {
            return err(id, Rule.VAR_TYPE, "type " + describe(next) + " has no size");
        }
        return pop(sizes.sizeId, 0);
    }

    private int resolveArray(int id) {
        int index = t.extra(id, 1);
        if (isFailed(index)) {
            return SILENT;
        }
        int ki = t.kind(index);
        if (Types.isNoSize(ki) || Types.isSourceOnly(ki)) {
            return err(id, Rule.ARRAY_INDEX, "index type " + describe(index) + " has no size");
        }
        if (!isSink(ki) && !isResolved(index)) {
            return push(index);
        }
        if (sizes.idSize(index) < 0 || t.kind(sizes.sizeId) != Kind.INT || !sizes.isRegularInt(sizes.sizeId)) {
            return err(id, Rule.ARRAY_INDEX, "index type " + describe(index) + " is not a regular INT");
        }
        int elem = t.extra(id, 0);
        if (isFailed(elem)) {
            return SILENT;
        }
        int ke = t.kind(elem);
        if (Types.isNoSize(ke) || Types.isSourceOnly(ke)) {
            return err(id, Rule.ARRAY_ELEM, "element type " + describe(elem) + " has no size");
        }
        if (!isSink(ke) && !isResolved(elem)) {
            return push(elem);
        }
        long elemSize = sizes.idSize(elem);
        if (elemSize < 0) {
            return err(id, Rule.ARRAY_ELEM, "element type " + describe(elem) + " has no size");
        }
        int elemType = sizes.sizeId;
        if (t.kind(elemType) == Kind.INT && !sizes.isRegularInt(elemType)) {
            return err(id, Rule.ARRAY_INT_ELEM, "element type " + describe(elemType) + " is a bitfield INT");
        }
        long n = Types.u32(t.extra(id, 2));
        if (n != 0 && elemSize > 0xffffffffL / n) {
            return err(id, Rule.ARRAY_OVERFLOW, n + " elements of " + elemSize + " bytes exceed 4 GiB");
        }
        return pop(elemType, elemSize * n);
    }

    private int resolveStruct(int id) {
        int v = top - 1;
        int next = stackNext[v];
        int s = t.start(id);
        int[] w = t.w;
        if (next > 0) {
            int st = members.check(id, next - 1, w[s + 3 + 3 * (next - 1) + 1]);
            if (st != OK) {
                return st;
            }
        }
        int vlen = Kind.vlenOf(w[s + 1]);
        for (int i = next; i < vlen; i++) {
            int m = s + 3 + 3 * i;
            int mt = w[m + 1];
            if (isFailed(mt)) {
                return SILENT;
            }
            int km = t.kind(mt);
            if (Types.isNoSize(km) || Types.isSourceOnly(km)) {
                return err(id, Rule.MEMBER_TYPE, "member " + i + " '" + string(w[m]) + "' has type " + describe(mt)
                        + ", which has no size");
            }
            if (!isSink(km) && !isResolved(mt)) {
                stackNext[v] = i + 1;
                return push(mt);
            }
            int st = members.check(id, i, mt);
            if (st != OK) {
                return st;
            }
        }
        return pop(0, 0);
    }

    private int resolveDatasec(int id) {
        mode = MODE_TBD;
        int v = top - 1;
        int s = t.start(id);
        int[] w = t.w;
        int vlen = Kind.vlenOf(w[s + 1]);
        for (int i = stackNext[v]; i < vlen; i++) {
            int e = s + 3 + 3 * i;
            int var = w[e];
            if (isFailed(var)) {
                return SILENT;
            }
            int kv = t.kind(var);
            if (kv != Kind.VAR) {
                if (!kernel && kv == Kind.FUNC) {
                    continue;
                }
                return err(id, Rule.DATASEC_ENTRY, "entry " + i + " refers to " + describe(var) + ", not a VAR"
                        + (kv == Kind.FUNC ? " (FUNC entries, as in .ksyms of object files, are fixed up by libbpf before loading)" : ""));
            }
            if (!isSink(kv) && !isResolved(var)) {
                stackNext[v] = i + 1;
                return push(var);
            }
            long size = sizes.idSize(t.word2(var));
            if (size < 0) {
                return err(id, Rule.DATASEC_ENTRY, "entry " + i + " variable " + describe(var) + " has no size");
            }
            if (kernel && Types.u32(w[e + 2]) < size) {
                policy(id, Rule.DATASEC_LAYOUT, "entry " + i + " size " + Types.u32(w[e + 2]) + " is smaller than the "
                        + size + " bytes of " + describe(var));
            }
        }
        return pop(0, 0);
    }

    private int resolveFunc(int id) {
        int proto = t.word2(id);
        if (isFailed(proto)) {
            return SILENT;
        }
        if (proto == 0 || t.kind(proto) != Kind.FUNC_PROTO) {
            return err(id, Rule.FUNC_PROTO, "type " + describe(proto) + " is not a FUNC_PROTO");
        }
        if (kernel) {
            int vlen = t.vlen(proto);
            for (int i = 0; i < vlen; i++) {
                if (t.extra(proto, 2 * i) == 0 && t.extra(proto, 2 * i + 1) != 0) {
                    policy(id, Rule.FUNC_PARAM_NAME, "parameter " + i + " of prototype " + describe(proto) + " has no name");
                    break;
                }
            }
        }
        return pop(proto, 0);
    }

    private int resolveDeclTag(int id) {
        int target = t.word2(id);
        if (isFailed(target)) {
            return SILENT;
        }
        int kt = t.kind(target);
        if (target == 0 || !(kt == Kind.FUNC || Kind.isComposite(kt) || kt == Kind.VAR || kt == Kind.TYPEDEF)) {
            return err(id, Rule.DECL_TAG_TARGET, "target " + describe(target) + " is not a STRUCT, UNION, FUNC, VAR or TYPEDEF");
        }
        if (!isSink(kt) && !isResolved(target)) {
            return push(target);
        }
        int component = t.extra(id, 0);
        if (component != -1) {
            if (kt == Kind.VAR || kt == Kind.TYPEDEF) {
                return err(id, Rule.DECL_TAG_COMPONENT, "component_idx " + component + " on " + describe(target)
                        + ", which has no components");
            }
            int holder = Kind.isComposite(kt) ? target : t.word2(target);
            if (isFailed(holder)) {
                return SILENT;
            }
            int vlen = t.vlen(holder);
            if (Types.u32(component) >= vlen) {
                return err(id, Rule.DECL_TAG_COMPONENT, "component_idx " + component + " but " + describe(target) + " has "
                        + vlen + (kt == Kind.FUNC ? " parameters" : " members"));
            }
        }
        return pop(target, 0);
    }

    /** {@code btf_func_proto_check}: return and parameter types of a FUNC_PROTO. */
    private void checkProto(int id) {
        int ret = t.word2(id);
        if (ret != 0) {
            if (isFailed(ret)) {
                return;
            }
            int kr = t.kind(ret);
            if (Types.isSourceOnly(kr)) {
                err(id, Rule.PROTO_RETURN, "return type " + describe(ret) + " is not a type");
                return;
            }
            if (Types.needsResolve(kr) && !isResolved(ret) && !resolve(ret)) {
                return;
            }
            if (sizes.idSize(ret) < 0) {
                err(id, Rule.PROTO_RETURN, "return type " + describe(ret) + " has no size");
                return;
            }
        }
        int vlen = t.vlen(id);
        if (vlen == 0) {
            return;
        }
        int s = t.start(id);
        int[] w = t.w;
        int n = vlen;
        int lastParam = s + 3 + 2 * (n - 1);
        if (w[lastParam + 1] == 0) {
            if (w[lastParam] != 0) {
                err(id, Rule.PROTO_PARAM, "parameter " + (n - 1) + " is void (the vararg marker) but named '" + string(w[lastParam])
                        + "'");
                return;
            }
            n--;
        }
        for (int i = 0; i < n; i++) {
            int p = s + 3 + 2 * i;
            int pt = w[p + 1];
            if (isFailed(pt)) {
                return;
            }
            int kp = t.kind(pt);
            if (Types.isSourceOnly(kp)) {
                err(id, Rule.PROTO_PARAM, "parameter " + i + " type " + describe(pt) + " is not a type");
                return;
            }
            if (kernel && w[p] != 0 && !Names.isIdentifier(t.btf.strings(), w[p])) {
                policy(id, Rule.NAME_IDENTIFIER, "parameter " + i + " name '" + string(w[p]) + "' is not a valid identifier");
            }
            if (Types.needsResolve(kp) && !isResolved(pt) && !resolve(pt)) {
                return;
            }
            if (sizes.idSize(pt) < 0) {
                err(id, Rule.PROTO_PARAM, pt == 0 ? "parameter " + i + " is void but is not the last parameter"
                        : "parameter " + i + " type " + describe(pt) + " has no size");
                return;
            }
        }
    }
}
