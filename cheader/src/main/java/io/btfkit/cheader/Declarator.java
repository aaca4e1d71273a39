package io.btfkit.cheader;

import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import io.btfkit.core.StringTable;
import java.util.Arrays;

/**
 * Writes C declarations of BTF types: struct, union, enum and typedef definitions, and the
 * declarator of a member, parameter or typedef name (libbpf's {@code btf_dump_emit_type_decl}
 * and {@code btf_dump_emit_type_chain}).
 *
 * <p>A BTF reference chain lists a declaration from the outside in: {@code int *(*f[4])(void)}
 * is ARRAY → PTR → FUNC_PROTO → PTR → INT. C writes it inside out: the base type first, then
 * pointers with their qualifiers, and each array or function wraps what lies <em>outside</em>
 * it in parentheses before adding {@code [n]} or {@code (params)}. So the chain is collected
 * on a stack (outer at the bottom) and printed from the top: qualifiers just below a base type
 * go before it ({@code const int}), qualifiers of pointers after the star ({@code * const});
 * qualifiers on arrays and function prototypes are dropped (gcc's spurious ones). Anonymous
 * structs, unions and enums are defined inline where they are used.
 *
 * <p>Nesting (anonymous members, parameters that are function pointers, arrays of arrays) is
 * handled with an explicit stack of pending operations instead of recursion, so no input can
 * overflow the Java stack.
 */
final class Declarator {
    // operations on the pending stack (operands are pushed first, the code last)
    private static final int OP_DECL = 1;        // type, nameRef, lvl
    private static final int OP_DECL_END = 2;    // base
    private static final int OP_CHAIN = 3;       // base, cnt, nameRef, lvl, lastWasPtr
    private static final int OP_ARRAY_END = 4;   // array, multidim
    private static final int OP_CLOSE = 5;       //
    private static final int OP_PARAMS = 6;      // proto, index, lvl
    private static final int OP_MEMBER_END = 7;  // struct, index, lvl, packed, align

    /** nameRef for "the typedef name being defined"; other nameRefs are string offsets. */
    private static final int TYPEDEF_NAME = -1;

    private final Types types;
    private final StringTable strings;
    private final Naming naming;
    private final Layout layout;
    private final CText out;
    private final boolean currentLibbpf;
    private final long maxPending;

    private int[] decl = new int[64];
    private int declTop;
    private int[] ops = new int[256];
    private int opTop;
    private String typedefName = "";

    Declarator(Types types, Naming naming, Layout layout, CText out, boolean currentLibbpf) {
        this.types = types;
        this.strings = types.strings;
        this.naming = naming;
        this.layout = layout;
        this.out = out;
        this.currentLibbpf = currentLibbpf;
        this.maxPending = 64L * types.count + 1024;
    }

    // ---- top-level entry points ----

    /** {@code struct name { ... }} (or union), without the final semicolon. */
    void structDefinition(int id) {
        structStart(id, 0);
        run();
    }

    /** {@code struct name} / {@code union name}: a forward declaration or a use by tag. */
    void structForward(int id) {
        out.str(types.kind(id) == Kind.STRUCT ? "struct" : "union");
        if (types.named(id)) {
            out.ch(' ');
        }
        out.str(naming.typeName(id));
    }

    /** A FWD: {@code struct name} or {@code union name} by its kind_flag. */
    void forwardDeclaration(int id) {
        String name = naming.typeName(id);
        out.str(types.kflag(id) ? "union " : "struct ").str(name);
    }

    /** {@code typedef <declaration of the target named by the typedef>}. */
    void typedefDefinition(int id) {
        String name = naming.identName(id);
        if (types.ref(id) == 0 && name.equals("__gnuc_va_list")) {
            // old gcc wrote this typedef as pointing to void
            out.str("typedef __builtin_va_list __gnuc_va_list");
            return;
        }
        out.str("typedef ");
        typedefName = name;
        pushDecl(types.ref(id), TYPEDEF_NAME, 0);
        run();
        typedefName = "";
    }

    /** {@code enum name { A = 1, ... }} (values indented at {@code lvl + 1}); a valueless enum is just {@code enum name}. */
    void enumDefinition(int id, int lvl) {
        out.str("enum");
        if (types.named(id)) {
            out.ch(' ');
        }
        out.str(naming.typeName(id));
        int vlen = types.vlen(id);
        if (vlen == 0) {
            return;
        }
        out.str(" {");
        boolean signed = types.kflag(id);
        boolean is64 = types.kind(id) == Kind.ENUM64;
        for (int i = 0; i < vlen; i++) {
            int nameOff = is64 ? types.enum64Name(id, i) : types.enumName(id, i);
            String name = strings.latin1(nameOff);
            int dups = naming.enumeratorCount(name == null ? "" : name);
            out.ch('\n').indent(lvl + 1).name(strings, nameOff);
            if (dups > 1) {
                out.str("___").dec(dups);
            }
            out.str(" = ");
            if (is64) {
                long v = types.enum64Value(id, i);
                if (signed) {
                    out.dec(v).str("LL,");
                } else {
                    out.u64(v).str("ULL,");
                }
            } else {
                int v = types.enumValue(id, i);
                if (signed) {
                    out.dec(v);
                } else {
                    out.u32(v);
                }
                out.ch(',');
            }
        }
        out.ch('\n').indent(lvl).ch('}');
        if (currentLibbpf) {
            enumMode(id, vlen, is64);
        }
    }

    /** libbpf ≥ 1.2: a size the enumerators alone would not give the enum is forced with a mode attribute. */
    private void enumMode(int id, int vlen, boolean is64) {
        int size = types.size(id);
        if (size == 1) {
            out.str(" __attribute__((mode(byte)))");
        } else if (size == 8 && layout.pointerSize == 8) {
            boolean fitsIn32 = true;
            for (int i = 0; is64 && i < vlen; i++) {
                if (types.enum64High(id, i) != 0) {
                    fitsIn32 = false;
                    break;
                }
            }
            if (fitsIn32) {
                out.str(" __attribute__((mode(word)))");
            }
        }
    }

    /** libbpf ≥ 1.2: gcc's ARM SIMD base types {@code __PolyN_t} get a typedef to a standard type. */
    void missingAlias(int id) {
        if (!currentLibbpf) {
            return;
        }
        String name = naming.typeName(id); // libbpf resolves (and counts) the INT's name here
        String alias = switch (name) {
            case "__Poly8_t" -> "unsigned char";
            case "__Poly16_t" -> "unsigned short";
            case "__Poly64_t" -> "unsigned long long";
            case "__Poly128_t" -> "unsigned __int128";
            default -> null;
        };
        if (alias != null) {
            out.str("typedef ").str(alias).ch(' ').str(name).str(";\n\n");
        }
    }

    // ---- the pending-operation machine ----

    private void run() {
        while (opTop > 0) {
            int op = ops[--opTop];
            switch (op) {
                case OP_DECL -> {
                    int lvl = pop();
                    int nameRef = pop();
                    int type = pop();
                    collect(type, nameRef, lvl);
                }
                case OP_DECL_END -> declTop = pop();
                case OP_CHAIN -> {
                    boolean lastWasPtr = pop() != 0;
                    int lvl = pop();
                    int nameRef = pop();
                    int cnt = pop();
                    int base = pop();
                    chain(base, cnt, nameRef, lvl, lastWasPtr);
                }
                case OP_ARRAY_END -> {
                    boolean multidim = pop() != 0;
                    int array = pop();
                    if (!multidim) {
                        out.ch(')');
                    }
                    out.ch('[').u32(types.arrayLen(array)).ch(']');
                }
                case OP_CLOSE -> out.ch(')');
                case OP_PARAMS -> {
                    int lvl = pop();
                    int index = pop();
                    int proto = pop();
                    params(proto, index, lvl);
                }
                case OP_MEMBER_END -> {
                    int align = pop();
                    boolean packed = pop() != 0;
                    int lvl = pop();
                    int index = pop();
                    int struct = pop();
                    memberEnd(struct, index, lvl, packed, align);
                }
                default -> throw new IllegalStateException("op " + op);
            }
        }
    }

    /** Collects the chain of {@code type} down to its base type on the declaration stack, then prints it. */
    private void collect(int type, int nameRef, int lvl) {
        int base = declTop;
        int id = type;
        for (int steps = 0; ; steps++) {
            if (steps > types.count) {
                throw new OperationException("type [" + type + "]: reference loop in a declaration");
            }
            pushChain(id);
            if (id == 0) {
                break;
            }
            int kind = types.kind(id);
            if (kind == Kind.PTR || Kind.isModifier(kind) || kind == Kind.FUNC_PROTO) {
                id = types.ref(id);
            } else if (kind == Kind.ARRAY) {
                id = types.arrayElem(id);
            } else {
                break; // a base type (or a kind C cannot declare, which prints nothing)
            }
        }
        push(base);
        pushOp(OP_DECL_END);
        chain(base, declTop - base, nameRef, lvl, true);
    }

    /** Prints the declaration chain {@code decl[base, base + cnt)} from its top (the base type) outwards. */
    private void chain(int base, int cnt, int nameRef, int lvl, boolean lastWasPtr) {
        while (cnt > 0) {
            int id = decl[base + --cnt];
            if (id == 0) {
                cnt = qualifiers(base, cnt);
                out.str("void");
                lastWasPtr = false;
                continue;
            }
            int kind = types.kind(id);
            switch (kind) {
                case Kind.INT, Kind.FLOAT -> {
                    cnt = qualifiers(base, cnt);
                    out.name(strings, types.nameOff(id));
                }
                case Kind.STRUCT, Kind.UNION -> {
                    cnt = qualifiers(base, cnt);
                    if (!types.named(id)) {
                        pushChainOp(base, cnt, nameRef, lvl, false);
                        structStart(id, lvl);
                        return;
                    }
                    structForward(id);
                }
                case Kind.ENUM, Kind.ENUM64 -> {
                    cnt = qualifiers(base, cnt);
                    if (!types.named(id)) {
                        enumDefinition(id, lvl);
                    } else {
                        out.str("enum ").str(naming.typeName(id));
                    }
                }
                case Kind.FWD -> {
                    cnt = qualifiers(base, cnt);
                    forwardDeclaration(id);
                }
                case Kind.TYPEDEF -> {
                    cnt = qualifiers(base, cnt);
                    out.str(naming.identName(id));
                }
                case Kind.PTR -> out.str(lastWasPtr ? "*" : " *");
                case Kind.VOLATILE -> out.str(" volatile");
                case Kind.CONST -> out.str(" const");
                case Kind.RESTRICT -> out.str(" restrict");
                case Kind.TYPE_TAG -> {
                    cnt = qualifiers(base, cnt);
                    if (currentLibbpf && types.kflag(id)) {
                        out.str(" __attribute__((").name(strings, types.nameOff(id)).str("))");
                    } else {
                        out.str(" __attribute__((btf_type_tag(\"").name(strings, types.nameOff(id)).str("\")))");
                    }
                }
                case Kind.ARRAY -> {
                    cnt = dropModifiers(base, cnt);
                    if (cnt == 0) {
                        name(nameRef, lastWasPtr);
                        out.ch('[').u32(types.arrayLen(id)).ch(']');
                        return;
                    }
                    int next = decl[base + cnt - 1];
                    boolean multidim = next != 0 && types.kind(next) == Kind.ARRAY;
                    if (!nameEmpty(nameRef) && !lastWasPtr) {
                        out.ch(' ');
                    }
                    if (!multidim) {
                        out.ch('(');
                    }
                    push(id);
                    push(multidim ? 1 : 0);
                    pushOp(OP_ARRAY_END);
                    pushChainOp(base, cnt, nameRef, lvl, true);
                    return;
                }
                case Kind.FUNC_PROTO -> {
                    cnt = dropModifiers(base, cnt);
                    pushParams(id, -1, lvl);
                    if (cnt > 0) {
                        out.str(" (");
                        pushOp(OP_CLOSE);
                        pushChainOp(base, cnt, nameRef, lvl, true);
                    } else {
                        name(nameRef, lastWasPtr);
                    }
                    return;
                }
                default -> {
                    return; // FUNC, VAR, DATASEC, DECL_TAG have no C declaration
                }
            }
            lastWasPtr = kind == Kind.PTR;
        }
        name(nameRef, lastWasPtr);
    }

    /** Prints the const/volatile/restrict just outside a base type before it ({@code const int}). */
    private int qualifiers(int base, int cnt) {
        while (cnt > 0) {
            int id = decl[base + cnt - 1];
            int kind = id == 0 ? Kind.UNKN : types.kind(id);
            if (kind == Kind.VOLATILE) {
                out.str("volatile ");
            } else if (kind == Kind.CONST) {
                out.str("const ");
            } else if (kind == Kind.RESTRICT) {
                out.str("restrict ");
            } else {
                return cnt;
            }
            cnt--;
        }
        return cnt;
    }

    /** Skips qualifiers and type tags on an array or function prototype, which C cannot carry there. */
    private int dropModifiers(int base, int cnt) {
        while (cnt > 0) {
            int id = decl[base + cnt - 1];
            if (id == 0 || !Kind.isModifier(types.kind(id))) {
                return cnt;
            }
            cnt--;
        }
        return cnt;
    }

    /** Parameter list of {@code proto} from parameter {@code index} on (-1: the opening parenthesis). */
    private void params(int proto, int index, int lvl) {
        int vlen = types.vlen(proto);
        if (index < 0) {
            out.ch('(');
            if (vlen == 0 || (vlen == 1 && types.paramType(proto, 0) == 0)) {
                out.str("void)");
                return;
            }
            index = 0;
        }
        if (index == vlen) {
            out.ch(')');
            return;
        }
        if (index > 0) {
            out.str(", ");
        }
        int type = types.paramType(proto, index);
        if (index == vlen - 1 && type == 0) {
            out.str("...)");
            return;
        }
        pushParams(proto, index + 1, lvl);
        pushDecl(type, types.paramName(proto, index), lvl);
    }

    // ---- struct and union bodies ----

    private void structStart(int id, int lvl) {
        boolean isStruct = types.kind(id) == Kind.STRUCT;
        int align = layout.alignOf(id);
        boolean packed = isStruct && layout.isPacked(id);
        structForward(id);
        out.str(" {");
        member(id, 0, lvl, 0, false, packed, align);
    }

    /** Starts member {@code i} (padding, indentation, its declaration), or closes the body. */
    private void member(int id, int i, int lvl, int off, boolean prevBitfield, boolean packed, int align) {
        int vlen = types.vlen(id);
        if (i == vlen) {
            int size = types.size(id);
            if (types.kind(id) == Kind.STRUCT) {
                layout.padding(out, off, size * 8, align, false, lvl + 1); // wraps as libbpf's u32 -> int
            }
            if (vlen != 0 || size != 0) {
                out.ch('\n').indent(lvl);
            }
            out.ch('}');
            if (packed) {
                out.str(" __attribute__((packed))");
            }
            return;
        }
        int bits = types.memberBitfieldSize(id, i);
        int at = types.memberBitOffset(id, i);
        int memberAlign = packed ? 1 : layout.alignOf(types.memberType(id, i));
        layout.padding(out, off, at, memberAlign, prevBitfield && bits != 0, lvl + 1);
        out.ch('\n').indent(lvl + 1);
        push(id);
        push(i);
        push(lvl);
        push(packed ? 1 : 0);
        push(align);
        pushOp(OP_MEMBER_END);
        pushDecl(types.memberType(id, i), types.memberName(id, i), lvl + 1);
    }

    private void memberEnd(int id, int i, int lvl, boolean packed, int align) {
        int bits = types.memberBitfieldSize(id, i);
        int at = types.memberBitOffset(id, i);
        int off;
        if (bits != 0) {
            out.str(": ").dec(bits);
            off = at + bits;
        } else {
            // libbpf keeps offsets in C ints: the size is cut to 32 bits and the sum wraps
            off = at + (int) Math.max(0, layout.resolveSize(types.memberType(id, i))) * 8;
        }
        out.ch(';');
        member(id, i + 1, lvl, off, bits != 0, packed, align);
    }

    // ---- names ----

    private void name(int nameRef, boolean lastWasPtr) {
        if (nameEmpty(nameRef)) {
            return;
        }
        if (!lastWasPtr) {
            out.ch(' ');
        }
        if (nameRef == TYPEDEF_NAME) {
            out.str(typedefName);
        } else {
            out.name(strings, nameRef);
        }
    }

    private boolean nameEmpty(int nameRef) {
        if (nameRef == TYPEDEF_NAME) {
            return typedefName.isEmpty();
        }
        return nameRef <= 0 || nameRef >= strings.end() || strings.isEmptyAt(nameRef);
    }

    // ---- stacks ----

    private void pushChain(int id) {
        if (declTop == decl.length) {
            decl = Arrays.copyOf(decl, declTop * 2);
        }
        decl[declTop++] = id;
    }

    private void pushDecl(int type, int nameRef, int lvl) {
        push(type);
        push(nameRef);
        push(lvl);
        pushOp(OP_DECL);
    }

    private void pushChainOp(int base, int cnt, int nameRef, int lvl, boolean lastWasPtr) {
        push(base);
        push(cnt);
        push(nameRef);
        push(lvl);
        push(lastWasPtr ? 1 : 0);
        pushOp(OP_CHAIN);
    }

    private void pushParams(int proto, int index, int lvl) {
        push(proto);
        push(index);
        push(lvl);
        pushOp(OP_PARAMS);
    }

    private void pushOp(int op) {
        push(op);
    }

    private void push(int v) {
        if (opTop == ops.length) {
            if (opTop > maxPending) {
                throw new OperationException("declaration nested too deeply to print (a type loop?)");
            }
            ops = Arrays.copyOf(ops, opTop * 2);
        }
        ops[opTop++] = v;
    }

    private int pop() {
        return ops[--opTop];
    }
}
