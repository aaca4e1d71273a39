package io.btfkit.cheader;

import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import java.util.Arrays;

/**
 * Prints the top-level C declarations for one ordered definition: first whatever its members
 * and referenced types still lack (forward declarations of named structs met through
 * pointers, typedefs used before their target is complete), then the definition itself
 * (libbpf's {@code btf_dump_emit_type}).
 *
 * <p>Each type moves NOT_EMITTED → EMITTING → EMITTED. Meeting a struct or typedef that is
 * EMITTING means it is referenced from inside its own definition: a struct then needs a
 * forward declaration ({@code struct s;}) unless the reference is from its own body, and a
 * typedef is printed early, as its own forward declaration. Named structs reached from inside
 * another definition only get a forward declaration; their full definition waits for their
 * own turn in the queue, which {@link OrderPlanner} put after everything they embed.
 * Anonymous structs and unions are walked through (they are defined inline), as are pointers,
 * arrays, qualifiers and function prototypes. Enums are printed only at top level; inside a
 * struct an anonymous enum is defined inline by the {@link Declarator}.
 *
 * <p>Iterative over an explicit stack; chains of pointers, qualifiers and arrays are jumped
 * over ({@link ChainEnds}), so a long chain costs once, not once per use.
 */
final class DefinitionEmitter {
    private static final byte NOT_EMITTED = 0;
    private static final byte EMITTING = 1;
    private static final byte EMITTED = 2;

    private static final int ENTER = 0;
    private static final int TYPEDEF_DONE = 1;
    private static final int MEMBERS = 2;
    private static final int PARAMS = 3;

    private final Types types;
    private final Naming naming;
    private final Declarator declarator;
    private final CText out;
    private final byte[] state;
    private final boolean[] fwdEmitted;
    private final ChainEnds chains;
    /**
     * Steps left before the walks are refused. Everything a walk enters is printed by the
     * definition that follows (inline, or by name), so a walk longer than the output limit
     * would print past it; counting steps stops that before the walk itself runs for minutes
     * (a prototype of 65,535 parameters pointing at another such prototype).
     */
    private long stepsLeft;

    // explicit stack: per frame id, containing definition, phase, next index
    private int[] fId = new int[64];
    private int[] fCont = new int[64];
    private int[] fPhase = new int[64];
    private int[] fIdx = new int[64];
    private int sp;

    DefinitionEmitter(Types types, Naming naming, Declarator declarator, CText out, long maxSteps) {
        this.types = types;
        this.naming = naming;
        this.declarator = declarator;
        this.out = out;
        this.state = new byte[types.count];
        this.fwdEmitted = new boolean[types.count];
        this.chains = new ChainEnds(types, true);
        this.stepsLeft = maxSteps;
        state[0] = EMITTED;
    }

    /** Prints top-level definition {@code id} and what it still needs before it. */
    void emit(int id) {
        sp = 0;
        push(id, 0);
        while (sp > 0) {
            if (--stepsLeft < 0) {
                throw new LimitedOutput.LimitReached();
            }
            int f = sp - 1;
            int t = fId[f];
            int cont = fCont[f];
            switch (fPhase[f]) {
                case ENTER -> enter(f, t, cont);
                case TYPEDEF_DONE -> {
                    if (!fwdEmitted[t] && !naming.isCompilerBuiltin(t)) {
                        declarator.typedefDefinition(t);
                        out.str(";\n\n");
                    }
                    state[t] = EMITTED;
                    sp--;
                }
                case MEMBERS -> {
                    int i = fIdx[f];
                    if (i < types.vlen(t)) {
                        fIdx[f] = i + 1;
                        push(types.memberType(t, i), types.named(t) ? t : cont);
                    } else {
                        if (cont == 0) {
                            declarator.structDefinition(t);
                            out.str(";\n\n");
                            state[t] = EMITTED;
                        } else {
                            state[t] = NOT_EMITTED;
                        }
                        sp--;
                    }
                }
                case PARAMS -> {
                    int i = fIdx[f];
                    if (i < types.vlen(t)) {
                        fIdx[f] = i + 1;
                        push(types.paramType(t, i), cont);
                    } else {
                        sp--;
                    }
                }
                default -> throw new IllegalStateException("phase " + fPhase[f]);
            }
        }
    }

    private void enter(int f, int id, int cont) {
        int end = chains.end(id);
        if (end != id && end != ChainEnds.NONE) {
            // pointers, qualifiers and arrays print nothing here: go to what they lead to
            id = end;
            fId[f] = end;
        }
        if (state[id] == EMITTED) {
            sp--;
            return;
        }
        int kind = types.kind(id);
        if (state[id] == EMITTING) {
            referenceWhileEmitting(id, kind, cont);
            sp--;
            return;
        }
        switch (kind) {
            case Kind.ENUM, Kind.ENUM64 -> {
                if (cont == 0) {
                    declarator.enumDefinition(id, 0);
                    out.str(";\n\n");
                }
                state[id] = EMITTED;
                sp--;
            }
            case Kind.PTR, Kind.VOLATILE, Kind.CONST, Kind.RESTRICT, Kind.TYPE_TAG -> replace(f, types.ref(id));
            case Kind.ARRAY -> replace(f, types.arrayElem(id));
            case Kind.FWD -> {
                declarator.forwardDeclaration(id);
                out.str(";\n\n");
                state[id] = EMITTED;
                sp--;
            }
            case Kind.TYPEDEF -> {
                state[id] = EMITTING;
                fPhase[f] = TYPEDEF_DONE;
                push(types.ref(id), id);
            }
            case Kind.STRUCT, Kind.UNION -> {
                state[id] = EMITTING;
                if (cont == 0 || !types.named(id)) {
                    fPhase[f] = MEMBERS;
                    fIdx[f] = 0;
                } else {
                    if (!fwdEmitted[id] && id != cont) {
                        declarator.structForward(id);
                        out.str(";\n\n");
                        fwdEmitted[id] = true;
                    }
                    state[id] = NOT_EMITTED;
                    sp--;
                }
            }
            case Kind.FUNC_PROTO -> {
                fPhase[f] = PARAMS;
                fIdx[f] = 0;
                push(types.ref(id), cont);
            }
            default -> { // INT (always defined), FLOAT, FUNC, VAR, DATASEC, DECL_TAG
                if (kind == Kind.INT) {
                    declarator.missingAlias(id);
                    state[id] = EMITTED;
                }
                sp--;
            }
        }
    }

    /** A type met again while its own definition is being printed. */
    private void referenceWhileEmitting(int id, int kind, int cont) {
        if (fwdEmitted[id]) {
            return;
        }
        if (Kind.isComposite(kind)) {
            if (id == cont || !types.named(id)) {
                return; // its own body; an anonymous loop was already refused by the planner
            }
            declarator.structForward(id);
            out.str(";\n\n");
            fwdEmitted[id] = true;
        } else if (kind == Kind.TYPEDEF) {
            if (!naming.isCompilerBuiltin(id)) {
                declarator.typedefDefinition(id);
                out.str(";\n\n");
            }
            fwdEmitted[id] = true;
        }
    }

    /** Tail step through a pointer, array or qualifier; a chain longer than the type count is a loop. */
    private void replace(int f, int next) {
        if (++fIdx[f] > types.count) {
            throw new OperationException("type [" + fId[f] + "]: reference loop without a named struct");
        }
        fId[f] = next;
    }

    private void push(int id, int cont) {
        if (sp == fId.length) {
            int n = sp * 2;
            fId = Arrays.copyOf(fId, n);
            fCont = Arrays.copyOf(fCont, n);
            fPhase = Arrays.copyOf(fPhase, n);
            fIdx = Arrays.copyOf(fIdx, n);
        }
        fId[sp] = id;
        fCont[sp] = cont;
        fPhase[sp] = ENTER;
        fIdx[sp] = 0;
        sp++;
    }
}
