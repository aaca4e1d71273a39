package io.btfkit.cheader;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Prints BTF as a compilable C header — the {@code vmlinux.h} of {@code bpftool btf dump file
 * F format c}, byte for byte with bpftool 7.1 (libbpf 1.1).
 *
 * <p>Each root type is printed with every definition it needs, each definition once, in an
 * order C accepts: {@link OrderPlanner} orders the definitions, {@link DefinitionEmitter}
 * adds forward declarations where pointers close cycles, {@link Declarator} writes the C
 * syntax, {@link Layout} supplies packing and padding so that compiling the header gives back
 * the BTF sizes and offsets, and {@link Naming} makes clashing names unique ({@code foo___2}).
 * FUNC, VAR, DATASEC and DECL_TAG have no part in type definitions and print nothing.
 *
 * <pre>
 * [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
 * [2] PTR '(anon)' type_id=3                           struct node {
 * [3] STRUCT 'node' size=16 vlen=2                             struct node *next;
 * 	'next' type_id=2 bits_offset=0                          int v;
 * 	'v' type_id=1 bits_offset=64                    };
 * </pre>
 *
 * <p>The header is wrapped in bpftool's guard and {@code preserve_access_index} pragma.
 * A type graph C cannot express (a struct containing itself by value, a type reaching itself
 * without passing a named struct) raises {@link OperationException}; output written before
 * that point is not retracted.
 *
 * <p>Output is bounded: at most {@link #outputLimit} bytes, a linear function of the input
 * size, else {@link OperationException}. Real BTF prints less C than it has bytes; only
 * hostile shapes reach the limit (padding for a gap of hundreds of megabytes, one long
 * qualifier chain declared many times).
 */
public final class CHeaderPrinter {
    static final String PROLOGUE = """
            #ifndef __VMLINUX_H__
            #define __VMLINUX_H__

            #ifndef BPF_NO_PRESERVE_ACCESS_INDEX
            #pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)
            #endif

            """;
    static final String EPILOGUE = """
            #ifndef BPF_NO_PRESERVE_ACCESS_INDEX
            #pragma clang attribute pop
            #endif

            #endif /* __VMLINUX_H__ */
            """;

    /** Output allowed whatever the input: a small BTF may have a struct with a few megabytes of padding. */
    static final long BASE_OUTPUT_LIMIT = 16L << 20;
    /** Output allowed per input byte (type and string sections); vmlinux prints about 0.8. */
    static final int OUTPUT_PER_INPUT_BYTE = 16;

    private final Types types;
    private final OrderPlanner planner;
    private final DefinitionEmitter emitter;
    private final CText out;
    private final LimitedOutput limited;

    private CHeaderPrinter(Btf btf, OutputStream os, CHeaderOptions options) {
        this.types = new Types(btf);
        int pointerSize = options.pointerSize() != 0 ? options.pointerSize() : Layout.guessPointerSize(types);
        Naming naming = new Naming(types);
        Layout layout = new Layout(types, pointerSize);
        this.limited = new LimitedOutput(os, outputLimit(types.inputBytes));
        this.out = new CText(limited);
        Declarator declarator = new Declarator(types, naming, layout, out, options.currentLibbpf());
        this.planner = new OrderPlanner(types);
        this.emitter = new DefinitionEmitter(types, naming, declarator, out, limited.limit);
    }

    /**
     * Prints every own type of {@code btf}: all types of a standalone BTF; for split BTF the
     * split's types, preceded by the base types they need (so the header compiles alone).
     */
    public static void print(Btf btf, OutputStream os) {
        print(btf, os, CHeaderOptions.DEFAULT);
    }

    public static void print(Btf btf, OutputStream os, CHeaderOptions options) {
        print(btf, range(btf.firstId(), btf.typeCount()), os, options);
    }

    /**
     * Prints every type from id 1, base types included: for split BTF this is what bpftool
     * prints ({@code bpftool -B BASE btf dump file SPLIT format c}).
     */
    public static void printWithBase(Btf btf, OutputStream os) {
        printWithBase(btf, os, CHeaderOptions.DEFAULT);
    }

    public static void printWithBase(Btf btf, OutputStream os, CHeaderOptions options) {
        print(btf, range(1, btf.typeCount()), os, options);
    }

    /** Prints the given root types (ids of {@code btf} or its base), in that order, with what they need. */
    public static void print(Btf btf, int[] rootIds, OutputStream os) {
        print(btf, rootIds, os, CHeaderOptions.DEFAULT);
    }

    public static void print(Btf btf, int[] rootIds, OutputStream os, CHeaderOptions options) {
        for (int id : rootIds) {
            if (id < 0 || id >= btf.typeCount()) {
                throw new IllegalArgumentException("root type id " + id + " out of range [0, " + btf.typeCount() + ")");
            }
        }
        CHeaderPrinter p = new CHeaderPrinter(btf, os, options);
        int current = 0;
        try {
            p.out.str(PROLOGUE);
            for (int id : rootIds) {
                current = id;
                p.dump(id);
            }
            current = 0;
            p.out.str(EPILOGUE);
            p.out.flush();
        } catch (LimitedOutput.LimitReached e) {
            throw new OperationException("C header larger than " + p.limited.limit + " bytes ("
                    + (BASE_OUTPUT_LIMIT >> 20) + " MiB + " + OUTPUT_PER_INPUT_BYTE + " per byte of BTF)"
                    + (current == 0 ? "" : " while printing type [" + current + "] " + Kind.name(p.types.kind(current))
                    + " '" + io.btfkit.core.Printable.name(p.types.name(current)) + "'") + ": padding or declarations too large to print");
        }
    }

    /** The most bytes of C printed for an input of {@code inputBytes} (type and string sections). */
    static long outputLimit(long inputBytes) {
        return BASE_OUTPUT_LIMIT + OUTPUT_PER_INPUT_BYTE * inputBytes;
    }

    /** The header {@link #print(Btf, OutputStream, CHeaderOptions)} writes, one char per byte. */
    public static String toText(Btf btf, CHeaderOptions options) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        print(btf, bos, options);
        return bos.toString(StandardCharsets.ISO_8859_1);
    }

    public static String toText(Btf btf) {
        return toText(btf, CHeaderOptions.DEFAULT);
    }

    /** libbpf's {@code btf_dump__dump_type}: order what {@code id} needs, then print it. */
    private void dump(int id) {
        IntArrayList queue = planner.order(id);
        for (int i = 0; i < queue.size(); i++) {
            emitter.emit(queue.getInt(i));
        }
    }

    private static int[] range(int from, int to) {
        int[] ids = new int[Math.max(0, to - from)];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = from + i;
        }
        return ids;
    }
}
