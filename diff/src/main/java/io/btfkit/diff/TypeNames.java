package io.btfkit.diff;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import java.util.function.IntFunction;

/**
 * Spells a BTF type the way C declares it, for diff reports: {@code struct foo *},
 * {@code const char *}, {@code int (*)(struct device *)}, {@code char[16]}, {@code int *const},
 * {@code union {...}} for an anonymous union, {@code int foo(struct sk_buff *skb, u32 len)} for a
 * declaration. Named types are spelled by name only, so two types spell the same exactly when
 * they refer to the same named types through the same chain of pointers, arrays, qualifiers and
 * function prototypes.
 *
 * <p>How: the classic inside-out declarator walk. {@link #declare} carries the declarator built
 * so far ({@code *p}, {@code [4]}, {@code (*)(int)}) down the chain of referenced types and puts
 * the named type in front at the end; a pointer to an array or function gets parentheses, and a
 * qualifier of a pointer goes after its star. The walk is bounded ({@link #MAX_DEPTH} steps, then
 * {@code ...}), so cyclic or very deep anonymous chains cannot recurse without end.
 *
 * <p>Bounded work and text: every spelling is computed once per (type, depth) — a spelling that
 * was cut at the depth limit depends on the depth it was reached at, and was recomputed each
 * time before, which made prototypes whose parameters point at prototypes exponential — and a
 * parameter list stops with {@code ...} past {@link #MAX_PARAMS_LENGTH} characters (a 1 KB BTF
 * used to spell a 2 GB string). All spellings of one side together may hold at most
 * {@link #MAX_MEMO_CHARS} characters; past that the diff stops with an {@link OperationException}.
 * Real kernels come nowhere near: their longest spelling is under 500 characters.
 */
final class TypeNames {
    static final int MAX_DEPTH = 32;
    /** A parameter list longer than this ends in {@code ...}. */
    static final int MAX_PARAMS_LENGTH = 4096;
    /** All memoised spellings of one side, in characters. */
    static final long MAX_MEMO_CHARS = 1L << 27;

    private final Btf btf;
    private final IntFunction<String> strings;
    private final Int2ObjectOpenHashMap<String> memo = new Int2ObjectOpenHashMap<>();
    /** Spellings cut at the depth limit, by (id, depth): they differ by depth. */
    private final Long2ObjectOpenHashMap<String> cutMemo = new Long2ObjectOpenHashMap<>();
    private long memoChars;

    /** @param strings decodes a string offset ("(invalid)" when bad) */
    TypeNames(Btf btf, IntFunction<String> strings) {
        this.btf = btf;
        this.strings = strings;
    }

    /** The type as an abstract declarator (no name), e.g. {@code struct foo *}; memoised. */
    String of(int id) {
        return of(id, 0);
    }

    /** {@link #of(int)} reached at walk depth {@code depth} (keeps the walk bounded through the memo). */
    private String of(int id, int depth) {
        String s = memo.get(id);
        if (s != null) {
            return s;
        }
        long key = ((long) id << 6) | depth;
        s = cutMemo.get(key);
        if (s != null) {
            return s;
        }
        s = declare(id, "", false, depth);
        memoChars += s.length();
        if (memoChars > MAX_MEMO_CHARS) {
            throw new OperationException("type spellings exceed " + MAX_MEMO_CHARS + " characters"
                    + " (anonymous types nest too deeply to describe)");
        }
        if (depth == 0 || !s.contains("...")) {
            memo.put(id, s);
        } else {
            cutMemo.put(key, s);
        }
        return s;
    }

    /** A FUNC as its C declaration with parameter names, e.g. {@code static int foo(int a)}. */
    String function(int funcId) {
        String linkage = switch (btf.vlen(funcId)) {
            case Kind.LINKAGE_STATIC -> "static ";
            case Kind.LINKAGE_EXTERN -> "extern ";
            default -> "";
        };
        return linkage + declare(btf.sizeOrType(funcId), name(funcId), true, 0);
    }

    /** A VAR as its C declaration, e.g. {@code static struct foo bar}. */
    String variable(int varId) {
        int linkage = btf.extra(varId, 0);
        String prefix = linkage == Kind.LINKAGE_STATIC ? "static " : linkage == Kind.LINKAGE_EXTERN ? "extern " : "";
        return prefix + declare(btf.sizeOrType(varId), name(varId), false, 0);
    }

    /** The parameters of a FUNC (through its FUNC_PROTO): names and types; "..." for the variadic marker. */
    ParamInfo[] params(int funcId) {
        int proto = btf.sizeOrType(funcId);
        if (!btf.isValidId(proto) || btf.kind(proto) != Kind.FUNC_PROTO) {
            return new ParamInfo[0];
        }
        int n = btf.vlen(proto);
        ParamInfo[] out = new ParamInfo[n];
        for (int i = 0; i < n; i++) {
            int nameOff = btf.extra(proto, 2 * i);
            int type = btf.extra(proto, 2 * i + 1);
            String pn = str(nameOff);
            out[i] = new ParamInfo(pn, type == 0 && pn.isEmpty() && i == n - 1 ? "..." : of(type));
        }
        return out;
    }

    /** The return type of a FUNC (through its FUNC_PROTO). */
    String returnType(int funcId) {
        int proto = btf.sizeOrType(funcId);
        if (!btf.isValidId(proto) || btf.kind(proto) != Kind.FUNC_PROTO) {
            return of(proto);
        }
        return of(btf.sizeOrType(proto));
    }

    private String name(int id) {
        return str(btf.nameOff(id));
    }

    private String str(int off) {
        return strings.apply(off);
    }

    /**
     * {@code id} declared as {@code name}: from the memoised abstract spelling when the name just
     * goes at its end ({@code struct foo *} + {@code p}), else by the full walk (arrays, function
     * pointers).
     */
    private String named(int id, String name, int depth) {
        String abs = of(id, depth);
        if (name.isEmpty()) {
            return abs;
        }
        if (abs.indexOf('[') < 0 && abs.indexOf('(') < 0) {
            return abs.endsWith("*") ? abs + name : abs + " " + name;
        }
        return declare(id, name, false, depth);
    }

    /** {@code id} declared with declarator {@code decl} ("" for an abstract declarator). */
    String declare(int id, String decl, boolean paramNames, int depth) {
        if (depth > MAX_DEPTH) {
            return "..." + space(decl);
        }
        if (id == 0) {
            return "void" + space(decl);
        }
        if (!btf.isValidId(id)) {
            return "<bad type " + Integer.toUnsignedString(id) + ">" + space(decl);
        }
        int kind = btf.kind(id);
        String n = name(id);
        switch (kind) {
            case Kind.INT:
            case Kind.FLOAT:
            case Kind.TYPEDEF:
                return (n.isEmpty() ? "(anon " + Kind.name(kind).toLowerCase(java.util.Locale.ROOT) + ")" : n) + space(decl);
            case Kind.STRUCT:
            case Kind.UNION:
            case Kind.ENUM:
            case Kind.ENUM64:
                return TypeDiff.kindWord(kind) + " " + (n.isEmpty() ? "{...}" : n) + space(decl);
            case Kind.FWD:
                return (btf.kindFlag(id) ? "union " : "struct ") + n + space(decl);
            case Kind.PTR: {
                int t = btf.sizeOrType(id);
                int tk = btf.isValidId(t) ? btf.kind(t) : 0;
                String d = tk == Kind.ARRAY || tk == Kind.FUNC_PROTO ? "(*" + decl + ")" : "*" + decl;
                return declare(t, d, paramNames, depth + 1);
            }
            case Kind.CONST:
            case Kind.VOLATILE:
            case Kind.RESTRICT:
            case Kind.TYPE_TAG: {
                String q = kind == Kind.TYPE_TAG ? "__attribute__((btf_type_tag(\"" + n + "\")))"
                        : Kind.name(kind).toLowerCase(java.util.Locale.ROOT);
                int t = btf.sizeOrType(id);
                if (btf.isValidId(t) && btf.kind(t) == Kind.PTR) {
                    return declare(t, q + space(decl), paramNames, depth + 1);
                }
                return q + " " + declare(t, decl, paramNames, depth + 1);
            }
            case Kind.ARRAY:
                return declare(btf.extra(id, 0), decl + "[" + Integer.toUnsignedString(btf.extra(id, 2)) + "]",
                        paramNames, depth + 1);
            case Kind.FUNC_PROTO: {
                int vlen = btf.vlen(id);
                StringBuilder p = new StringBuilder(decl).append('(');
                if (vlen == 0) {
                    p.append("void");
                }
                for (int i = 0; i < vlen; i++) {
                    if (i > 0) {
                        p.append(", ");
                    }
                    if (p.length() - decl.length() > MAX_PARAMS_LENGTH) {
                        p.append("...");
                        break;
                    }
                    int pt = btf.extra(id, 2 * i + 1);
                    String pn = paramNames ? str(btf.extra(id, 2 * i)) : "";
                    if (pt == 0 && i == vlen - 1 && str(btf.extra(id, 2 * i)).isEmpty()) {
                        p.append("...");
                    } else {
                        p.append(named(pt, pn, depth + 1));
                    }
                }
                p.append(')');
                return declare(btf.sizeOrType(id), p.toString(), false, depth + 1);
            }
            case Kind.FUNC:
                return declare(btf.sizeOrType(id), n + decl, paramNames, depth + 1);
            case Kind.VAR:
                return declare(btf.sizeOrType(id), n, paramNames, depth + 1);
            default:
                return Kind.name(kind).toLowerCase(java.util.Locale.ROOT) + " " + n + space(decl);
        }
    }

    private static String space(String decl) {
        if (decl.isEmpty()) {
            return "";
        }
        return decl.charAt(0) == '[' ? decl : " " + decl;
    }
}
