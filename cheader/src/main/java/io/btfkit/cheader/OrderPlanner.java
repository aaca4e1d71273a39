package io.btfkit.cheader;

import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.Arrays;

/**
 * Decides which definitions a root type needs and in which order, so that C sees every
 * struct, union, enum and typedef defined before anything that needs its size (libbpf's
 * {@code btf_dump_order_type}).
 *
 * <p>A depth-first walk from the root tells, for every edge, whether the referenced type must
 * be <em>complete</em> first (a strong link: it is embedded by value, or it is anonymous and
 * so defined inline) or whether a forward declaration will do (a weak link: the path passes a
 * pointer and reaches a named struct or union). Named definitions are queued in post-order
 * over strong links, which is a topological order of the "needs complete" relation; a cycle of
 * strong links cannot be written in C and is an error. Cycles through pointers to named
 * structs are fine: the emitter will print a forward declaration.
 *
 * <pre>
 * [1] STRUCT 'a' size=8 vlen=1           order(1) = [1]: b is reached through a pointer
 * 	'pb' type_id=2 bits_offset=0        (weak), a forward declaration of b will do
 * [2] PTR '(anon)' type_id=3
 * [3] STRUCT 'b' size=8 vlen=1           order(3) = [3]: a, embedded (strong), is complete
 * 	'a' type_id=1 bits_offset=0
 * </pre>
 *
 * <p>Iterative (an explicit stack), so long chains of pointers or typedefs cannot overflow
 * the Java stack; chains of qualifiers and arrays are jumped over ({@link ChainEnds}), and
 * walks of prototypes and weak typedefs that changed nothing are remembered (see the memo). A
 * chain that returns to itself without passing a struct (a typedef or function prototype
 * reaching itself through pointers) has no C spelling: libbpf recurses forever there; this
 * class reports it.
 */
final class OrderPlanner {
    private static final byte NOT_ORDERED = 0;
    private static final byte ORDERING = 1;
    private static final byte ORDERED = 2;

    // frame phases
    private static final int ENTER = 0;
    private static final int PASS = 1;
    private static final int AFTER_PTR = 2;
    private static final int AFTER_TYPEDEF = 3;
    private static final int MEMBERS = 4;
    private static final int PARAMS = 5;

    private final Types types;
    private final byte[] state;
    /** For a pass-through type on the current path: how many structs were open when it was entered; else -1. */
    private final int[] pathMark;
    private final boolean[] referenced;
    private final ChainEnds chains;
    private final IntArrayList queue = new IntArrayList();

    // Memo of walks of function prototypes and of typedefs left weak (neither has a state, so
    // each use walked them again: quadratic in chains of prototypes returning prototypes, or in
    // pointers to the head of a typedef chain). A walk is remembered, per type and pointer flag,
    // only when it changed nothing (no state set, nothing queued); its result then stays what
    // a new walk would give as long as none of its "stops" (named structs it did not enter
    // because they were reached through a pointer) has been ordered since.
    private static final int MAX_STOPS = 16;
    private static final int MIN_REMEMBERED_STEPS = 16;
    /** State changes so far: a walk that ends with the count it began with changed nothing. */
    private long transitions;
    /**
     * Steps left for all walks: a safety net for shapes the memo does not cover (walks that
     * stop at more than {@link #MAX_STOPS} structs, used many times). Real BTF needs a few steps
     * per type; past 64 per type and per root (plus a million) the printer gives up with a
     * message instead of running for minutes.
     */
    private long stepsLeft;
    /** Stops met by the walks on the current path, in order. */
    private final IntArrayList stopLog = new IntArrayList();
    /** Per pointer flag and id: 0 no memo, 1 weak, 2 strong. */
    private final byte[][] memoResult;
    private final int[][] memoStops;
    private final byte[][] memoStopCount;
    private final IntArrayList stopPool = new IntArrayList();

    // the explicit stack: per frame id, phase, next index, through-pointer flag, strong flag
    private int[] fId = new int[64];
    private int[] fPhase = new int[64];
    private int[] fIdx = new int[64];
    private boolean[] fPtr = new boolean[64];
    private boolean[] fStrong = new boolean[64];
    private int[] fSaved = new int[64];
    /** Per frame: the stop log's length, the state-change count and the steps left when it was pushed. */
    private int[] fLog = new int[64];
    private long[] fTrans = new long[64];
    private long[] fSteps = new long[64];
    private int sp;
    /** Structs and unions whose members are being ordered (frames in phase MEMBERS). */
    private int openComposites;

    OrderPlanner(Types types) {
        this.types = types;
        this.state = new byte[types.count];
        this.pathMark = new int[types.count];
        Arrays.fill(pathMark, -1);
        this.referenced = new boolean[types.count];
        state[0] = ORDERED;
        for (int id = 1; id < types.count; id++) {
            types.markReferenced(id, referenced);
        }
        this.chains = new ChainEnds(types, false);
        this.stepsLeft = 64L * types.count + (1 << 20);
        this.memoResult = new byte[2][types.count];
        this.memoStops = new int[2][types.count];
        this.memoStopCount = new byte[2][types.count];
    }

    /** The definitions {@code root} needs, in emission order (it may be empty). */
    IntArrayList order(int root) {
        queue.clear();
        stopLog.clear();
        stepsLeft += 64; // each root may cost a few steps even when all is ordered
        sp = 0;
        push(root, false);
        boolean ret = false;
        while (sp > 0) {
            if (--stepsLeft < 0) {
                throw new OperationException("type [" + root + "]: ordering the definitions needs more than 64 steps"
                        + " per type (and per root): too many paths to print as C");
            }
            int f = sp - 1;
            int id = fId[f];
            switch (fPhase[f]) {
                case ENTER -> {
                    id = skipChain(f, id);
                    int r = enter(f, id);
                    if (r >= 0) {
                        ret = r > 0;
                        sp--;
                    }
                }
                case PASS -> pop(f);
                case AFTER_PTR -> {
                    setState(id, ORDERED);
                    pop(f);
                }
                case AFTER_TYPEDEF -> {
                    if (!(fPtr[f] && !ret)) {
                        queue.add(id);
                        setState(id, ORDERED);
                        ret = true;
                    } else {
                        remember(f, id, false);
                    }
                    pop(f);
                }
                case MEMBERS -> {
                    int i = fIdx[f];
                    if (i < types.vlen(id)) {
                        fIdx[f] = i + 1;
                        push(types.memberType(id, i), false);
                    } else {
                        if (types.named(id)) {
                            queue.add(id);
                        }
                        setState(id, ORDERED);
                        ret = true;
                        openComposites--;
                        sp--;
                    }
                }
                case PARAMS -> {
                    // entered after the return type or a parameter was ordered
                    fStrong[f] |= ret;
                    int i = fIdx[f];
                    if (i < types.vlen(id)) {
                        fIdx[f] = i + 1;
                        push(types.paramType(id, i), fPtr[f]);
                    } else {
                        ret = fStrong[f];
                        remember(f, id, ret);
                        pop(f);
                    }
                }
                default -> throw new IllegalStateException("phase " + fPhase[f]);
            }
        }
        return queue;
    }

    /**
     * First visit of frame {@code f}: returns 0 or 1 (weak or strong) when the type is done at
     * once, or -1 after pushing what it depends on.
     */
    private int enter(int f, int id) {
        if (state[id] == ORDERED) {
            return 1;
        }
        int kind = types.kind(id);
        boolean throughPtr = fPtr[f];
        if (state[id] == ORDERING) {
            if (Kind.isComposite(kind) && throughPtr && types.named(id)) {
                stopLog.add(id);
                return 0;
            }
            throw new OperationException("type [" + id + "]: unsatisfiable type cycle (a struct or union contains itself)");
        }
        switch (kind) {
            case Kind.INT, Kind.FLOAT -> {
                setState(id, ORDERED);
                return 0;
            }
            case Kind.PTR -> follow(f, id, AFTER_PTR, types.ref(id), true);
            case Kind.ARRAY -> follow(f, id, PASS, types.arrayElem(id), false);
            case Kind.STRUCT, Kind.UNION -> {
                if (throughPtr && types.named(id)) {
                    stopLog.add(id);
                    return 0;
                }
                setState(id, ORDERING);
                openComposites++;
                fPhase[f] = MEMBERS;
                fIdx[f] = 0;
            }
            case Kind.ENUM, Kind.ENUM64, Kind.FWD -> {
                if (types.named(id) || !referenced[id]) {
                    queue.add(id);
                }
                setState(id, ORDERED);
                return 1;
            }
            case Kind.TYPEDEF -> {
                int memo = recall(id, throughPtr);
                if (memo >= 0) {
                    return memo;
                }
                follow(f, id, AFTER_TYPEDEF, types.ref(id), throughPtr);
            }
            case Kind.VOLATILE, Kind.CONST, Kind.RESTRICT, Kind.TYPE_TAG -> follow(f, id, PASS, types.ref(id), throughPtr);
            case Kind.FUNC_PROTO -> {
                int memo = recall(id, throughPtr);
                if (memo >= 0) {
                    return memo;
                }
                follow(f, id, PARAMS, types.ref(id), throughPtr);
                fIdx[f] = 0;
                fStrong[f] = false;
            }
            default -> { // FUNC, VAR, DATASEC, DECL_TAG: not part of any C type
                setState(id, ORDERED);
                return 0;
            }
        }
        return -1;
    }

    /**
     * Jumps frame {@code f} from a qualifier or array to the end of its chain: walking the chain
     * would only pass its result up. Below an array nothing is reached through a pointer.
     */
    private int skipChain(int f, int id) {
        int end = chains.end(id);
        if (end == id || end == ChainEnds.NONE) {
            return id;
        }
        if (chains.passesArray(id)) {
            fPtr[f] = false;
        }
        fId[f] = end;
        return end;
    }

    /**
     * Turns frame {@code f} into {@code phase} and pushes {@code next}. Meeting a pass-through
     * type again with no struct opened since its first visit means the walk would repeat
     * forever: the types form a loop that no struct breaks.
     */
    private void follow(int f, int id, int phase, int next, boolean throughPtr) {
        if (pathMark[id] == openComposites) {
            throw new OperationException("type [" + id + "]: type cycle that C cannot express (it reaches itself"
                    + " without passing a named struct or union)");
        }
        fSaved[f] = pathMark[id];
        pathMark[id] = openComposites;
        fPhase[f] = phase;
        push(next, throughPtr);
    }

    private void setState(int id, byte s) {
        state[id] = s;
        transitions++;
    }

    /**
     * The remembered result of walking {@code id} with this pointer flag (0 or 1), or -1. A hit
     * passes the walk's stops on to the walks above it. Meeting the type again on its own path
     * is still the loop it was.
     */
    private int recall(int id, boolean throughPtr) {
        int flag = throughPtr ? 1 : 0;
        int r = memoResult[flag][id];
        if (r == 0) {
            return -1;
        }
        int from = memoStops[flag][id];
        int n = memoStopCount[flag][id];
        for (int k = 0; k < n; k++) {
            if (state[stopPool.getInt(from + k)] == ORDERED) {
                memoResult[flag][id] = 0;
                return -1;
            }
        }
        if (pathMark[id] == openComposites) {
            return -1; // let the walk report the loop
        }
        for (int k = 0; k < n; k++) {
            stopLog.add(stopPool.getInt(from + k));
        }
        return r - 1;
    }

    /**
     * Remembers the walk of frame {@code f} (type {@code id}) when it changed nothing, met few
     * stops and was long enough to be worth it (most prototypes take a handful of steps, and
     * remembering each of them cost more than walking them again).
     */
    private void remember(int f, int id, boolean strong) {
        int n = stopLog.size() - fLog[f];
        if (transitions != fTrans[f] || n > MAX_STOPS || fSteps[f] - stepsLeft < MIN_REMEMBERED_STEPS) {
            return;
        }
        int flag = fPtr[f] ? 1 : 0;
        memoStops[flag][id] = stopPool.size();
        memoStopCount[flag][id] = (byte) n;
        for (int k = 0; k < n; k++) {
            stopPool.add(stopLog.getInt(fLog[f] + k));
        }
        memoResult[flag][id] = (byte) (strong ? 2 : 1);
    }

    private void pop(int f) {
        pathMark[fId[f]] = fSaved[f];
        sp--;
    }

    private void push(int id, boolean throughPtr) {
        if (sp == fId.length) {
            int n = sp * 2;
            fId = Arrays.copyOf(fId, n);
            fPhase = Arrays.copyOf(fPhase, n);
            fIdx = Arrays.copyOf(fIdx, n);
            fPtr = Arrays.copyOf(fPtr, n);
            fStrong = Arrays.copyOf(fStrong, n);
            fSaved = Arrays.copyOf(fSaved, n);
            fLog = Arrays.copyOf(fLog, n);
            fTrans = Arrays.copyOf(fTrans, n);
            fSteps = Arrays.copyOf(fSteps, n);
        }
        fId[sp] = id;
        fPhase[sp] = ENTER;
        fIdx[sp] = 0;
        fPtr[sp] = throughPtr;
        fStrong[sp] = false;
        fLog[sp] = stopLog.size();
        fTrans[sp] = transitions;
        fSteps[sp] = stepsLeft;
        sp++;
    }
}
