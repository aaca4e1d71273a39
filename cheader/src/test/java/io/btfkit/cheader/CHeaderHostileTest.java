package io.btfkit.cheader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import io.btfkit.core.text.RawTextParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile shapes for the C printer (issue 17): sizes and offsets past what libbpf's int
 * arithmetic holds print what bpftool prints, output is bounded by the input size, and long
 * chains cost linear time without deep recursion. Inputs are built here; the expected texts
 * were checked against bpftool 7.1, which {@link #bpftoolPrintsTheSame} repeats when present.
 */
class CHeaderHostileTest {
    private static final String INTS = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=SIGNED
            [3] INT 'long int' size=8 bits_offset=0 nr_bits=64 encoding=SIGNED
            """;

    /** 75 bytes of BTF that made gigabytes of {@code long: 64;}: the size times 8 wraps to -8 in libbpf. */
    static final String SIZE_4G = INTS + """
            [4] STRUCT 'big' size=4294967295 vlen=1
            \t'a' type_id=1 bits_offset=0
            """;

    /** 2^31 bits: a negative int in libbpf, so no trailing padding. */
    static final String SIZE_256M = INTS + """
            [4] STRUCT 'big' size=268435456 vlen=1
            \t'a' type_id=1 bits_offset=0
            """;

    /** An array of 2^28 chars ends at bit 2^31, which wraps; the member after it is at 2^31. */
    static final String ARRAY_256M = INTS + """
            [4] ARRAY '(anon)' type_id=2 index_type_id=1 nr_elems=268435456
            [5] STRUCT 's' size=268435472 vlen=2
            \t'a' type_id=4 bits_offset=0
            \t'b' type_id=1 bits_offset=2147483648
            """;

    /** 4 GiB of int: the array's size overflows 32 bits, libbpf counts it as 0 bytes. */
    static final String ARRAY_OVERFLOW = INTS + """
            [4] ARRAY '(anon)' type_id=1 index_type_id=1 nr_elems=1073741824
            [5] STRUCT 's' size=16 vlen=2
            \t'a' type_id=4 bits_offset=0
            \t'b' type_id=1 bits_offset=64
            """;

    /** Sizes whose bit count wraps past 2^32 to a small number; a union is never padded. */
    static final String WRAPPED_SIZES = INTS + """
            [4] STRUCT 's' size=536870913 vlen=1
            \t'a' type_id=2 bits_offset=0
            [5] UNION 'u' size=4294967295 vlen=1
            \t'a' type_id=2 bits_offset=0
            [6] ARRAY '(anon)' type_id=3 index_type_id=1 nr_elems=536870911
            [7] STRUCT 't' size=4294967288 vlen=2
            \t'a' type_id=6 bits_offset=0
            \t'b' type_id=2 bits_offset=4294967232
            """;

    /** 200 MB with one member at its start: bpftool prints 275 MB of padding for these 89 bytes. */
    static final String SIZE_200M = INTS + """
            [4] STRUCT 'big' size=200000000 vlen=1
            \t'a' type_id=1 bits_offset=0
            """;

    /** A member at bit 2^31 (negative in libbpf) followed by a tail of 2^32 bits: bpftool writes without end. */
    static final String OFFSET_2G = INTS + """
            [4] STRUCT 's' size=8 vlen=2
            \t'a' type_id=1 bits_offset=0
            \t'b' type_id=1 bits_offset=2147483648
            """;

    @Test
    void structOf4GiBPrintsNoPadding() {
        assertEquals("struct big {\n\tint a;\n} __attribute__((packed));\n\n", CHeaderPrinterTest.body(SIZE_4G));
    }

    @Test
    void structOf256MiBPrintsNoPadding() {
        assertEquals("struct big {\n\tint a;\n};\n\n", CHeaderPrinterTest.body(SIZE_256M));
    }

    @Test
    void membersPastTwoGibibitsWrapAsInLibbpf() {
        assertEquals("struct s {\n\tchar a[268435456];\n\tint b;\n\tlong: 0;\n};\n\n",
                CHeaderPrinterTest.body(ARRAY_256M));
        assertEquals("struct s {\n\tint a[1073741824];\n\tlong: 64;\n\tint b;\n\tlong: 0;\n};\n\n",
                CHeaderPrinterTest.body(ARRAY_OVERFLOW));
        assertEquals("struct s {\n\tchar a;\n};\n\nunion u {\n\tchar a;\n};\n\n"
                        + "struct t {\n\tlong int a[536870911];\n\tchar b;\n};\n\n",
                CHeaderPrinterTest.body(WRAPPED_SIZES));
    }

    @Test
    void outputIsBoundedByTheInputSize() {
        for (String text : List.of(SIZE_200M, OFFSET_2G)) {
            Btf btf = RawTextParser.parse(text, null);
            CountingSink sink = new CountingSink();
            OperationException e = assertThrows(OperationException.class, () -> CHeaderPrinter.print(btf, sink));
            assertTrue(e.getMessage().startsWith("C header larger than "), e.getMessage());
            assertTrue(e.getMessage().contains("while printing type [4] STRUCT"), e.getMessage());
            long inputBytes = btf.strings().end() + 4L * btf.starts()[btf.ownTypeCount()];
            assertTrue(sink.count <= CHeaderPrinter.outputLimit(inputBytes), sink.count + " bytes");
            assertTrue(sink.count > CHeaderPrinter.BASE_OUTPUT_LIMIT / 2, "what fits is written: " + sink.count);
        }
    }

    /**
     * A million CONSTs and a million array dimensions, each under a typedef and used by a
     * struct, and a million typedefs of a pointer: linear (the planner and emitter jump over
     * the chains; each used to be walked again for every root), no recursion.
     */
    @Test
    void millionLongChainsPrintOnce() {
        int n = 1_000_000;
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int c = i;
        for (int k = 0; k < n; k++) {
            c = b.addConst(c);
        }
        int a = i;
        for (int k = 0; k < n; k++) {
            a = b.addArray(a, i, 1);
        }
        int tc = b.addTypedef("tc", c);
        int ta = b.addTypedef("ta", a);
        b.addStruct("s", 8);
        b.addMember("x", tc, 0, 0);
        b.addMember("y", ta, 32, 0);
        Btf btf = b.build();
        CountingSink sink = new CountingSink();
        CHeaderPrinter.print(btf, sink);
        String tail = sink.tail();
        assertTrue(tail.endsWith("[1]".repeat(1000)), "typedef of the arrays");
        // prologue, two typedefs (6 bytes per const, 3 per dimension), the struct, epilogue; the
        // struct is padded as in libbpf, whose size resolution gives up after 32 links (size 0)
        long expected = CHeaderPrinter.PROLOGUE.length() + "typedef ".length() + 6L * n + "int tc;\n\n".length()
                + "typedef int ta".length() + 3L * n + ";\n\n".length()
                + "struct s {\n\ttc x;\n\tint: 32;\n\tta y;\n\tlong: 0;\n};\n\n".length()
                + CHeaderPrinter.EPILOGUE.length();
        assertEquals(expected, sink.count);
    }

    /**
     * Walks with no state of their own: a chain of prototypes returning prototypes (each one a
     * root), and pointers that come before the head of a chain of typedefs ending at a struct
     * reached through them. Each use walked the whole chain again (40,000 prototypes: 80 s);
     * the planner now remembers walks that changed nothing.
     */
    @Test
    void statelessWalksAreRemembered() {
        int n = 200_000;
        BtfBuilder b = new BtfBuilder();
        int proto = b.addInt("int", 4, Kind.INT_SIGNED);
        for (int k = 0; k < n; k++) {
            proto = b.addFuncProto(proto);
        }
        assertEquals("", CHeaderPrinterTest.body(b.build(), CHeaderOptions.BPFTOOL_71), "prototypes alone print nothing");

        assertEquals(typedefChainText(n / 2), CHeaderPrinterTest.body(typedefChain(n / 2), CHeaderOptions.BPFTOOL_71));
    }

    /**
     * A typedef of a pointer to a prototype of 65,535 parameters, each a pointer to another
     * prototype of 65,535 parameters: 1 MB of BTF whose declaration is 21 GB of C. The walk
     * before printing used to take minutes; it is now refused once it passes the output limit.
     */
    @Test
    void walksLongerThanTheOutputLimitAreRefused() {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int inner = b.addFuncProto(i);
        for (int k = 0; k < 65_535; k++) {
            b.addParam(null, i);
        }
        int innerPtr = b.addPtr(inner);
        int outer = b.addFuncProto(i);
        for (int k = 0; k < 65_535; k++) {
            b.addParam(null, innerPtr);
        }
        b.addTypedef("T", b.addPtr(outer));
        Btf btf = b.build();
        CountingSink sink = new CountingSink();
        OperationException e = assertThrows(OperationException.class, () -> CHeaderPrinter.print(btf, sink));
        assertTrue(e.getMessage().startsWith("C header larger than "), e.getMessage());
        assertTrue(e.getMessage().contains("TYPEDEF 'T'"), e.getMessage());
    }

    /** {@code n} pointers to t0, then typedefs t0 -> t1 -> ... -> t(n-1) -> struct s. */
    static Btf typedefChain(int n) {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int firstTypedef = b.nextId() + n;
        for (int k = 0; k < n; k++) {
            b.addPtr(firstTypedef);
        }
        for (int k = 0; k < n; k++) {
            b.addTypedef("t" + k, firstTypedef + k + 1);
        }
        b.addStruct("s", 4);
        b.addMember("a", i, 0, 0);
        return b.build();
    }

    /** What bpftool prints for {@link #typedefChain}: the struct, then the typedefs from the last. */
    static String typedefChainText(int n) {
        StringBuilder sb = new StringBuilder("struct s {\n\tint a;\n};\n\ntypedef struct s t" + (n - 1) + ";\n\n");
        for (int k = n - 2; k >= 0; k--) {
            sb.append("typedef t").append(k + 1).append(" t").append(k).append(";\n\n");
        }
        return sb.toString();
    }

    @TempDir
    Path dir;

    /** Every shape above that bpftool finishes prints byte for byte as bpftool prints it. */
    @Test
    void bpftoolPrintsTheSame() throws IOException {
        Path bpftool = CHeaderRealDataTest.bpftool();
        Path file = dir.resolve("hostile.btf");
        for (String text : List.of(SIZE_4G, SIZE_256M, ARRAY_256M, ARRAY_OVERFLOW, WRAPPED_SIZES)) {
            sameAsBpftool(bpftool, file, RawTextParser.parse(text, null), text);
        }
        sameAsBpftool(bpftool, file, typedefChain(300), "typedef chain");
        assertEquals(CHeaderPrinterTest.body(typedefChain(300), CHeaderOptions.BPFTOOL_71), typedefChainText(300));
    }

    private static void sameAsBpftool(Path bpftool, Path file, Btf btf, String what) throws IOException {
        Files.write(file, BtfWriter.write(btf));
        byte[] expected = io.btfkit.core.TestData.run(List.of(bpftool.toString(), "btf", "dump", "file",
                file.toString(), "format", "c"));
        CHeaderRealDataTest.assertSameText(expected, CHeaderRealDataTest.header(btf, CHeaderOptions.BPFTOOL_71), what);
    }

    /** Counts what is written and keeps the last two blocks (the printer writes 64 KiB at a time). */
    private static final class CountingSink extends java.io.OutputStream {
        long count;
        private byte[] previous = new byte[0];
        private byte[] last = new byte[0];

        @Override
        public void write(int v) {
            write(new byte[] {(byte) v}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int off, int len) {
            count += len;
            previous = last;
            last = java.util.Arrays.copyOfRange(bytes, off, off + len);
        }

        /** The text written last, up to the struct that follows the typedefs. */
        String tail() {
            String s = new String(previous, StandardCharsets.ISO_8859_1) + new String(last, StandardCharsets.ISO_8859_1);
            int end = s.lastIndexOf(";\n\nstruct s {");
            return end < 0 ? s : s.substring(0, end);
        }
    }
}
