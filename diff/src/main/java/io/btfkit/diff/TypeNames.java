package io.btfkit.diff;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
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
 * qualifier of a pointer goes after its star.
 *
 * <p>Bounded work and text (issue 23): every type is spelled once, by id, and its parameters'
 * types before it ({@link #spellAll}, children first with an explicit stack, so prototypes nested
 * a million deep need no deep recursion); a spelling no longer depends on where it was reached.
 * One walk follows at most {@link #MAX_DEPTH} types and stops with {@code ...} when its
 * declarator passes {@link #MAX_SPELLING} characters; a parameter list ends in {@code ...} past
 * {@link #MAX_PARAMS_LENGTH}. Every character built counts against {@link #MAX_WORK} per side,
 * past which the diff stops with a {@link DiffLimitException} naming the side (prototypes that
 * return and take pointers to the previous level used to spell gigabytes before). A parameter
 * type met again while it is being spelled (a prototype taking a pointer to itself, which C cannot
 * write) is spelled {@code ...} there. Real kernels come nowhere near any bound: their longest
 * spelling is under 500 characters.
 */
final class TypeNames {
    /** Types one declarator walk follows. */
    static final int MAX_DEPTH = 32;
    /** A parameter list longer than this ends in {@code ...}. */
    static final int MAX_PARAMS_LENGTH = 4096;
    /** A declarator longer than this ends the walk with {@code ...}. */
    static final int MAX_SPELLING = 4096;
    /** Characters one side may build while spelling. */
    static final long MAX_WORK = 1L << 27;

    private final Btf btf;
    private final IntFunction<String> strings;
    private final int side;
    private final Int2ObjectOpenHashMap<String> memo = new Int2ObjectOpenHashMap<>();
    private final IntOpenHashSet spelling = new IntOpenHashSet();
    private long work;

    /**
     * @param strings decodes a string offset ("(invalid)" when bad)
     * @param side    0 for side a, 1 for side b (named when a bound is passed)
     */
    TypeNames(Btf btf, IntFunction<String> strings, int side) {
        this.btf = btf;
        this.strings = strings;
        this.side = side;
    }

    /** The type as an abstract declarator (no name), e.g. {@code struct foo *}; spelled once. */
    String of(int id) {
        String s = memo.get(id);
        if (s == null) {
            spellAll(id);
            s = memo.get(id);
        }
        return s;
    }

    /**
     * Spells {@code root} and, before it, every parameter type its declarator walk meets that is
     * not spelled yet: depth first with an explicit stack, so that each spelling finds its
     * parameters' spellings in the memo.
     */
    private void spellAll(int root) {
        IntArrayList stack = new IntArrayList();
        java.util.ArrayList<int[]> deps = new java.util.ArrayList<>();
        IntArrayList next = new IntArrayList();
        stack.add(root);
        deps.add(parameterTypes(root));
        next.add(0);
        spelling.add(root);
        while (!stack.isEmpty()) {
            int top = stack.size() - 1;
            int[] d = deps.get(top);
            int k = next.getInt(top);
            while (k < d.length && (memo.containsKey(d[k]) || spelling.contains(d[k]))) {
                k++;
            }
            if (k < d.length) {
                next.set(top, k + 1);
                stack.add(d[k]);
                deps.add(parameterTypes(d[k]));
                next.add(0);
                spelling.add(d[k]);
                continue;
            }
            int id = stack.removeInt(top);
            deps.remove(top);
            next.removeInt(top);
            memo.put(id, declare(id, "", false));
            spelling.remove(id);
        }
    }

    /** The parameter types of the prototypes on {@code id}'s declarator walk (what its spelling needs spelled first). */
    private int[] parameterTypes(int id) {
        IntArrayList out = new IntArrayList();
        for (int step = 0; step < MAX_DEPTH && id != 0 && btf.isValidId(id); step++) {
            int kind = btf.kind(id);
            switch (kind) {
                case Kind.PTR, Kind.CONST, Kind.VOLATILE, Kind.RESTRICT, Kind.TYPE_TAG, Kind.FUNC, Kind.VAR -> id = btf.sizeOrType(id);
                case Kind.ARRAY -> id = btf.extra(id, 0);
                case Kind.FUNC_PROTO -> {
                    for (int i = 0; i < btf.vlen(id); i++) {
                        out.add(btf.extra(id, 2 * i + 1));
                    }
                    id = btf.sizeOrType(id);
                }
                default -> id = 0;
            }
        }
        return out.toIntArray();
    }

    /** A FUNC as its C declaration with parameter names, e.g. {@code static int foo(int a)}. */
    String function(int funcId) {
        String linkage = switch (btf.vlen(funcId)) {
            case Kind.LINKAGE_STATIC -> "static ";
            case Kind.LINKAGE_EXTERN -> "extern ";
            default -> "";
        };
        prepare(btf.sizeOrType(funcId));
        return linkage + declare(btf.sizeOrType(funcId), name(funcId), true);
    }

    /** A VAR as its C declaration, e.g. {@code static struct foo bar}. */
    String variable(int varId) {
        int linkage = btf.extra(varId, 0);
        String prefix = linkage == Kind.LINKAGE_STATIC ? "static " : linkage == Kind.LINKAGE_EXTERN ? "extern " : "";
        prepare(btf.sizeOrType(varId));
        return prefix + declare(btf.sizeOrType(varId), name(varId), false);
    }

    /** Spells the parameter types {@code id}'s walk meets, for a walk with names that is not memoised. */
    private void prepare(int id) {
        for (int p : parameterTypes(id)) {
            of(p);
        }
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
     * {@code id} declared as {@code name}: from its spelling when the name just goes at its end
     * ({@code struct foo *} + {@code p}), else by the full walk (arrays, function pointers). A
     * type still being spelled (a cycle) is {@code ...}.
     */
    private String named(int id, String name) {
        String abs = memo.get(id);
        if (abs == null) {
            return "..." + (name.isEmpty() ? "" : " " + name);
        }
        if (name.isEmpty()) {
            return abs;
        }
        if (abs.indexOf('[') < 0 && abs.indexOf('(') < 0) {
            return abs.endsWith("*") ? abs + name : abs + " " + name;
        }
        return declare(id, name, false);
    }

    /**
     * {@code id} declared with declarator {@code decl} ("" for an abstract declarator): a loop
     * down the chain of pointers, qualifiers, arrays and prototype return types, the qualifiers of
     * the named type gathered in {@code prefix}. Parameter types come from the memo.
     */
    String declare(int id, String decl, boolean paramNames) {
        StringBuilder prefix = new StringBuilder();
        for (int step = 0; ; step++) {
            if (step > MAX_DEPTH) {
                return done(prefix, "...", decl);
            }
            if (id == 0) {
                return done(prefix, "void", decl);
            }
            if (!btf.isValidId(id)) {
                return done(prefix, "<bad type " + Integer.toUnsignedString(id) + ">", decl);
            }
            int kind = btf.kind(id);
            String n = name(id);
            if (decl.length() > MAX_SPELLING && grows(kind)) {
                return done(prefix, "...", decl);
            }
            switch (kind) {
                case Kind.INT:
                case Kind.FLOAT:
                case Kind.TYPEDEF:
                    return done(prefix, n.isEmpty() ? "(anon " + Kind.name(kind).toLowerCase(java.util.Locale.ROOT) + ")" : n, decl);
                case Kind.STRUCT:
                case Kind.UNION:
                case Kind.ENUM:
                case Kind.ENUM64:
                    return done(prefix, TypeDiff.kindWord(kind) + " " + (n.isEmpty() ? "{...}" : n), decl);
                case Kind.FWD:
                    return done(prefix, (btf.kindFlag(id) ? "union " : "struct ") + n, decl);
                case Kind.PTR: {
                    int t = btf.sizeOrType(id);
                    int tk = btf.isValidId(t) ? btf.kind(t) : 0;
                    decl = count(tk == Kind.ARRAY || tk == Kind.FUNC_PROTO ? "(*" + decl + ")" : "*" + decl);
                    id = t;
                    continue;
                }
                case Kind.CONST:
                case Kind.VOLATILE:
                case Kind.RESTRICT:
                case Kind.TYPE_TAG: {
                    String q = kind == Kind.TYPE_TAG ? "__attribute__((btf_type_tag(\"" + n + "\")))"
                            : Kind.name(kind).toLowerCase(java.util.Locale.ROOT);
                    int t = btf.sizeOrType(id);
                    if (btf.isValidId(t) && btf.kind(t) == Kind.PTR) {
                        decl = count(q + space(decl));
                    } else {
                        prefix.append(q).append(' ');
                        charge(prefix.length());
                    }
                    id = t;
                    continue;
                }
                case Kind.ARRAY:
                    decl = count(decl + "[" + Integer.toUnsignedString(btf.extra(id, 2)) + "]");
                    id = btf.extra(id, 0);
                    continue;
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
                            p.append(named(pt, pn));
                        }
                    }
                    decl = count(p.append(')'));
                    paramNames = false;
                    id = btf.sizeOrType(id);
                    continue;
                }
                case Kind.FUNC:
                    decl = count(n + decl);
                    id = btf.sizeOrType(id);
                    continue;
                case Kind.VAR:
                    decl = n;
                    id = btf.sizeOrType(id);
                    continue;
                default:
                    return done(prefix, Kind.name(kind).toLowerCase(java.util.Locale.ROOT) + " " + n, decl);
            }
        }
    }

    /** Whether a step of {@link #declare} through this kind adds to the declarator. */
    private static boolean grows(int kind) {
        return kind == Kind.PTR || Kind.isModifier(kind) || kind == Kind.ARRAY || kind == Kind.FUNC_PROTO || kind == Kind.FUNC;
    }

    private String done(StringBuilder prefix, String base, String decl) {
        return count(prefix.append(base).append(space(decl)));
    }

    /** Counts the characters of a text built while spelling against {@link #MAX_WORK}. */
    private String count(CharSequence built) {
        charge(built.length());
        return built.toString();
    }

    private void charge(int characters) {
        work += characters;
        if (work > MAX_WORK) {
            throw new DiffLimitException(side, "spelling its types takes more than " + MAX_WORK
                    + " characters (prototypes or anonymous types nest too widely to describe)");
        }
    }

    private static String space(String decl) {
        if (decl.isEmpty()) {
            return "";
        }
        return decl.charAt(0) == '[' ? decl : " " + decl;
    }
}
