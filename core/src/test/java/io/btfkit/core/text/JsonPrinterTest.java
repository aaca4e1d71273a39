package io.btfkit.core.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.StringTable;
import io.btfkit.core.TestData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link JsonPrinter} against {@code bpftool -j btf dump file F format raw}: live when bpftool is
 * installed, and against outputs of bpftool 7.1 committed beside this test (a golden module and a
 * hand-built BTF with every kind and every escaped character) so the test has teeth without it.
 */
class JsonPrinterTest {
    static byte[] json(Btf btf) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        JsonPrinter.print(btf, bos);
        return bos.toByteArray();
    }

    static byte[] resource(String name) {
        try (InputStream in = JsonPrinterTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new AssertionError("missing test resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path bpftool() {
        Path tool = TestData.requireTool("bpftool");
        return tool;
    }

    static byte[] bpftoolJson(Path file, Path base) {
        List<String> cmd = new ArrayList<>(List.of(bpftool().toString(), "-j", "btf", "dump"));
        if (base != null) {
            cmd.add("-B");
            cmd.add(base.toString());
        }
        cmd.addAll(List.of("file", file.toString(), "format", "raw"));
        return TestData.run(cmd);
    }

    /**
     * A BTF of every kind whose names hold each character bpftool's JSON writer treats specially
     * ({@code " \ TAB LF CR FF BS}), a quote, a slash, a control byte and non-ASCII bytes, plus
     * the enum values whose printing is signed, unsigned or sign-extended.
     */
    static Btf everyKindAndEscape() {
        BtfBuilder b = new BtfBuilder();
        b.addInt("int", 4, Kind.INT_SIGNED);
        byte[] weird = "q\"b\\s\tt\nn\rr\ff\bb'a/x\u0001c\u00e9\u00ff\u007fz".getBytes(StandardCharsets.ISO_8859_1);
        b.addRaw(new int[] {b.addString(weird), Kind.info(Kind.INT, 0, false), 4, Kind.INT_CHAR << 24 | 8}, 0, 4);
        b.addEnum("e", 4, false);
        b.addEnumValue("a", 0xffffffffL);
        b.addEnumValue("b", 0x80000000L);
        b.addEnumValue("c", 5);
        b.addEnum("se", 4, true);
        b.addEnumValue("a", -1);
        b.addEnumValue("b", Integer.MIN_VALUE);
        b.addEnum64("e64", 8, false);
        b.addEnumValue("a", -1L);
        b.addEnumValue("b", 0x8000000000000001L);
        b.addEnum64("s64", 8, true);
        b.addEnumValue("a", -1L);
        b.addEnumValue("b", 0x8000000000000001L);
        b.addDeclTag("tag", 1, -1);
        b.addFunc("f", 9, Kind.LINKAGE_STATIC);
        b.addFuncProto(1);
        b.addParam("p", 1);
        b.addFunc("g", 9, Kind.LINKAGE_GLOBAL);
        b.addFunc("x", 9, Kind.LINKAGE_EXTERN);
        b.addVar("v0", 1, 0);
        b.addVar("v1", 1, 1);
        b.addVar("v2", 1, 2);
        b.addStruct("st", 8);
        b.addMember("a", 1, 5, 3);
        b.addMember("b", 1, 32, 0);
        b.addFwd("fw", true);
        b.addDatasec(".data", 8);
        b.addVarSecinfo(12, 0, 4);
        b.addVarSecinfo(13, 4, 4);
        b.addFloat("fl", 8);
        b.addTypeTag("tt", 1);
        b.addArray(1, 1, 10);
        b.addTypedef("\u00e9t\u00e9 \u20ac", 1);
        return b.build();
    }

    @Test
    void everyKindAndEscapeMatchesCommittedBpftoolOutput() {
        assertEquals(new String(resource("escapes.json"), StandardCharsets.ISO_8859_1),
                new String(json(everyKindAndEscape()), StandardCharsets.ISO_8859_1));
    }

    @Test
    void everyKindAndEscapeMatchesBpftool(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("escapes.btf");
        Files.write(f, BtfWriter.write(everyKindAndEscape()));
        assertArrayEquals(bpftoolJson(f, null), json(everyKindAndEscape()));
    }

    @Test
    void goldenModuleMatchesCommittedBpftoolOutput() {
        Btf base = RawTextRealDataTest.base();
        Btf roles = BtfReader.read(TestData.bytes(TestData.golden("modules/roles.btf")), base);
        assertArrayEquals(resource("roles.json"), json(roles));
    }

    @Test
    void vmlinux618MatchesBpftool() {
        Path f = TestData.vmlinux618();
        byte[] expected = bpftoolJson(f, null);
        assertArrayEquals(expected, json(BtfReader.read(TestData.bytes(f))));
    }

    static Stream<String> modules() {
        return TestData.goldenModules().stream();
    }

    @ParameterizedTest
    @MethodSource("modules")
    void goldenModuleMatchesBpftool(String module) {
        Path basePath = TestData.golden("vmlinux-6.1.0-56.btf");
        Path f = TestData.golden("modules/" + module + ".btf");
        byte[] expected = bpftoolJson(f, basePath);
        Btf split = BtfReader.read(TestData.bytes(f), RawTextRealDataTest.base());
        assertArrayEquals(expected, json(split));
    }

    @Test
    void withBaseAndRangesPrintTheRequestedIds() {
        BtfBuilder bb = new BtfBuilder();
        bb.addInt("int", 4, Kind.INT_SIGNED);
        Btf base = bb.build();
        BtfBuilder sb = new BtfBuilder(base);
        sb.addPtr(1);
        Btf split = sb.build();
        assertEquals("{\"types\":[{\"id\":2,\"kind\":\"PTR\",\"name\":\"(anon)\",\"type_id\":1}]}\n",
                JsonPrinter.toJson(split));
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        JsonPrinter.printWithBase(split, bos);
        assertEquals("{\"types\":[{\"id\":1,\"kind\":\"INT\",\"name\":\"int\",\"size\":4,\"bits_offset\":0,\"nr_bits\":32,"
                + "\"encoding\":\"SIGNED\"},{\"id\":2,\"kind\":\"PTR\",\"name\":\"(anon)\",\"type_id\":1}]}\n",
                bos.toString(StandardCharsets.ISO_8859_1));
        bos.reset();
        JsonPrinter.print(split, 2, 2, bos);
        assertEquals("{\"types\":[]}\n", bos.toString(StandardCharsets.ISO_8859_1));
    }

    @Test
    void invalidNamesAndUnknownKindsPrintAsBpftoolWould() {
        StringTable strings = StringTable.of(null, "", "ok");
        int[] words = {
            99, Kind.info(Kind.PTR, 0, false), 0,
            1, Kind.info(0, 0, false), 0,
        };
        Btf btf = new Btf(null, words, new int[] {0, 3, 6}, strings, Btf.RawFormat.CLASSIC);
        assertEquals("{\"types\":[{\"id\":1,\"kind\":\"PTR\",\"name\":\"(invalid)\",\"type_id\":0},"
                + "{\"id\":2,\"kind\":\"UNKNOWN\",\"name\":\"ok\"}]}\n", JsonPrinter.toJson(btf));
    }

    @Test
    void emptyVlenListsAreEmptyArrays() {
        BtfBuilder b = new BtfBuilder();
        b.addStruct("s", 0);
        b.addFuncProto(0);
        assertEquals("{\"types\":[{\"id\":1,\"kind\":\"STRUCT\",\"name\":\"s\",\"size\":0,\"vlen\":0,\"members\":[]},"
                + "{\"id\":2,\"kind\":\"FUNC_PROTO\",\"name\":\"(anon)\",\"ret_type_id\":0,\"vlen\":0,\"params\":[]}]}\n",
                JsonPrinter.toJson(b.build()));
    }
}
