package io.btfkit.core.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.TestData;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** dump → parse → dump on real BTF: the 6.18 vmlinux and the golden modules on their base. */
class RawTextRealDataTest {

    @Test
    void vmlinux618DumpParseDumpIsIdentity() {
        byte[] raw = TestData.bytes(TestData.vmlinux618());
        Btf x = BtfReader.read(raw);
        String text = RawTextPrinter.toText(x);
        Btf y = RawTextParser.parse(text, null);
        assertEquals(text, RawTextPrinter.toText(y));

        // same types; the one kind_flag the text cannot show is the attribute TYPE_TAG
        IntArrayList lost = TypeWords.assertSameTypes(x, y);
        assertEquals(1, lost.size(), "kind_flags lost: " + lost);
        int tag = lost.getInt(0);
        assertEquals(Kind.TYPE_TAG, x.kind(tag));
        assertEquals("address_space(1)", x.name(tag));

        // The parser adds strings in first-use order. The 6.18 vmlinux's section is not in that
        // order (and holds 213 strings no type uses), so byte identity with x is only possible
        // when it is; otherwise the type-word equality above is the contract.
        TypeWords.assertFirstUseOrder(y);
        boolean firstUse = Arrays.equals(x.strings().bytes(), y.strings().bytes());
        if (firstUse) {
            int[] words = y.words().clone();
            words[y.startOf(tag) + 1] |= 0x80000000;
            Btf restored = new Btf(null, words, y.starts(), y.strings(), x.format());
            assertArrayEquals(raw, BtfWriter.write(restored));
        }
        // and once in first-use order, text round trips are byte-exact in binary form too
        Btf z = RawTextParser.parse(RawTextPrinter.toText(y), null);
        assertArrayEquals(BtfWriter.write(y), BtfWriter.write(z));
    }

    @Test
    void bpftoolsOwnTextOfVmlinux618Parses() {
        Path tool = TestData.requireTool("bpftool");
        Path f = TestData.vmlinux618();
        byte[] text = TestData.run(List.of(tool.toString(), "btf", "dump", "file", f.toString(), "format", "raw"));
        Btf x = BtfReader.read(TestData.bytes(f));
        Btf y = RawTextParser.parse(text, null);
        assertEquals(1, TypeWords.assertSameTypes(x, y).size(), "only the attribute TYPE_TAG's flag is lost");
    }

    static Stream<String> modules() {
        return TestData.goldenModules().stream();
    }

    @ParameterizedTest
    @MethodSource("modules")
    void goldenModuleDumpParseDumpIsIdentity(String module) {
        Btf base = base();
        byte[] raw = TestData.bytes(TestData.golden("modules/" + module + ".btf"));
        Btf x = BtfReader.read(raw, base);
        String text = RawTextPrinter.toText(x);
        assertTrue(text.startsWith("[" + base.typeCount() + "] "), "split text starts after the base");
        Btf y = RawTextParser.parse(text, base);
        assertEquals(text, RawTextPrinter.toText(y));
        assertEquals(0, TypeWords.assertSameTypes(x, y).size(), "no kind_flag lost");
        TypeWords.assertFirstUseOrder(y);
    }

    private static Btf cachedBase;

    static synchronized Btf base() {
        if (cachedBase == null) {
            cachedBase = BtfReader.read(TestData.bytes(TestData.golden("vmlinux-6.1.0-56.btf")));
        }
        return cachedBase;
    }
}
