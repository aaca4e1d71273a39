package io.btfkit.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.RequiresTools;
import io.btfkit.core.TestData;
import io.btfkit.validate.HeaderLayouts.Layout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The header and section-layout rules against the kernel's: issue 25's one-defect files, each
 * with the kernel's message (and, where this machine lets the test load BTF, the running
 * kernel's own verdict), and generated layouts, whose kernel-profile verdict must be the one
 * {@link HeaderLayouts#kernelVerdict} (the kernel's rules, written from its source) gives.
 */
class HeaderRulesTest {
    private static final byte[] NONE = {};
    /** Header bytes 24..31: layout_off 8, layout_len 0. */
    private static final byte[] LAYOUT_OFF_8 = {8, 0, 0, 0, 0, 0, 0, 0};

    /** The errno numbers of the oracle's names (x86 and arm64). */
    private static final Map<String, Integer> ERRNO = Map.of("EINVAL", 22, "E2BIG", 7, "ENOTSUPP", 524);

    private static Layout layout(int hdrLen, byte[] tail, int gapBefore, int gapBetween, int trailing) {
        return new Layout(hdrLen, tail, 0, gapBefore, gapBetween, false, trailing, (byte) 0);
    }

    /** btfkit's verdict on a blob: "ok", the first kernel-profile finding's kernel message, or the reader's refusal. */
    private static String btfkitVerdict(byte[] blob) {
        Btf btf;
        try {
            btf = BtfReader.read(blob);
        } catch (BtfFormatException e) {
            return "reader: " + e.getMessage();
        }
        List<Finding> f = Validator.validate(btf, Validator.Options.FIRST);
        return f.isEmpty() ? "ok" : f.get(0).ruleConstant().kernelMessage();
    }

    private static List<Finding> findings(Layout l, Validator.Profile p) {
        return Validator.validate(BtfReader.read(HeaderLayouts.bytes(l)), new Validator.Options(false, p));
    }

    /** "errno N: message" as the loader helper prints it, from the oracle's "ENAME: message". */
    private static String asErrno(String oracle) {
        int colon = oracle.indexOf(':');
        return "errno " + ERRNO.get(oracle.substring(0, colon)) + oracle.substring(colon);
    }

    // --- issue 25's cases ---

    @Test
    void aGapBetweenTheTypeAndStringSectionsIsAnUnsupportedSection() {
        for (int gap = 1; gap <= 4; gap++) {
            Layout l = layout(24, NONE, 0, gap, 0);
            List<Finding> f = findings(l, Validator.Profile.KERNEL);
            assertEquals(1, f.size(), f::toString);
            assertEquals(Rule.SECTION_LAYOUT, f.get(0).ruleConstant());
            assertEquals("btf: section-layout broken (" + gap + " byte" + (gap == 1 ? "" : "s")
                    + " between the type section and the string section (offsets 40.." + (40 + gap - 1) + "))",
                    f.get(0).toString());
            assertEquals("EINVAL: Unsupported section found", HeaderLayouts.kernelVerdict(HeaderLayouts.bytes(l)));
            assertEquals(List.of(), findings(l, Validator.Profile.STRUCTURAL), "libbpf reads it");
        }
    }

    @Test
    void aGapBetweenTheHeaderAndTheTypeSectionIsAnUnsupportedSection() {
        for (int gap = 1; gap <= 4; gap++) {
            List<Finding> f = findings(layout(24, NONE, gap * 4, 0, 0), Validator.Profile.KERNEL);
            assertEquals(List.of("btf: section-layout broken (" + gap * 4 + " bytes between the header and the type section"
                    + " (offsets 24.." + (24 + gap * 4 - 1) + "))"), f.stream().map(Finding::toString).toList());
        }
    }

    @Test
    void bytesAfterTheStringSectionAreAnUnsupportedSection() {
        for (int n : new int[] {1, 4}) {
            List<Finding> f = findings(layout(24, NONE, 0, 0, n), Validator.Profile.KERNEL);
            assertEquals(List.of("btf: section-layout broken (" + n + " byte" + (n == 1 ? "" : "s")
                    + " after the string section (offsets 45.." + (45 + n - 1) + "; the blob is " + (45 + n) + " bytes))"),
                    f.stream().map(Finding::toString).toList());
        }
    }

    @Test
    void layoutFieldsAKernelWithoutLayoutSupportDoesNotKnowAreAnUnsupportedHeader() {
        // layout_off 8, layout_len 0: nothing to read, but Linux 6.18 wants zeros past 24 bytes
        Layout l = layout(32, LAYOUT_OFF_8, 0, 0, 0);
        List<Finding> f = findings(l, Validator.Profile.KERNEL);
        assertEquals(List.of("btf: header-layout broken (header bytes 24..31 are not zero (layout_off 8, layout_len 0): a kernel"
                + " without layout support refuses header fields it does not know)"), f.stream().map(Finding::toString).toList());
        assertEquals("Unsupported btf_header", f.get(0).ruleConstant().kernelMessage());
        assertEquals("E2BIG: Unsupported btf_header", HeaderLayouts.kernelVerdict(HeaderLayouts.bytes(l)));
    }

    @Test
    void aHeaderOf25To31BytesWithAZeroTailIsRead() {
        for (int hdr = 25; hdr <= 31; hdr++) {
            Layout l = layout(hdr, NONE, 0, 0, 0);
            byte[] blob = HeaderLayouts.bytes(l);
            Btf btf = BtfReader.read(blob);
            assertEquals(List.of(), Validator.validate(btf), l::toString);
            assertEquals("ok", HeaderLayouts.kernelVerdict(blob));
            assertEquals(1, btf.ownTypeCount());
            assertTrue(java.util.Arrays.equals(blob, BtfWriter.write(btf)), "written back as read");
        }
        // half a layout field is refused: the kernel says E2BIG, and the bytes would be dropped
        String refused = btfkitVerdict(HeaderLayouts.bytes(layout(28, new byte[] {0, 1}, 0, 0, 0)));
        assertTrue(refused.startsWith("reader: header length 28 (header offset 4) cuts the layout fields, and header offset 25"
                + " is not zero"), refused);
    }

    @Test
    void btfMadeByAnOperationHasNoLayoutToJudge() {
        Btf read = BtfReader.read(HeaderLayouts.bytes(layout(24, NONE, 4, 2, 3)));
        assertNotEquals(List.of(), Validator.validate(read));
        Btf rewritten = read.withFormat(read.format());
        assertEquals(List.of(), Validator.validate(rewritten), "written out, its sections are contiguous");
    }

    @Test
    @RequiresTools(TestData.KERNEL)
    void theRunningKernelSaysTheSame() {
        Layout[] issue = {layout(24, NONE, 0, 1, 0), layout(24, NONE, 0, 4, 0), layout(24, NONE, 4, 0, 0),
            layout(24, NONE, 0, 0, 1), layout(24, NONE, 0, 0, 4), layout(32, LAYOUT_OFF_8, 0, 0, 0),
            layout(28, NONE, 0, 0, 0), layout(24, NONE, 0, 0, 0)};
        for (Layout l : issue) {
            byte[] blob = HeaderLayouts.bytes(l);
            String oracle = HeaderLayouts.kernelVerdict(blob);
            assertEquals(oracle.equals("ok") ? "ok" : asErrno(oracle), TestData.kernelVerdict(blob), l::toString);
            String btfkit = btfkitVerdict(blob);
            assertEquals(oracle.equals("ok") ? "ok" : oracle.substring(oracle.indexOf(": ") + 2), btfkit, l::toString);
        }
    }

    @Test
    @RequiresTools("btfref")
    void libbpfReadsWhatTheReaderReads() throws IOException {
        // libbpf (btf__parse): gaps and trailing bytes are fine, a 28-byte header too
        Layout[] layouts = {layout(24, NONE, 0, 3, 0), layout(24, NONE, 8, 0, 5), layout(28, NONE, 0, 0, 0),
            layout(31, NONE, 4, 4, 4)};
        for (Layout l : layouts) {
            Path f = Files.createTempFile("btfkit-hdr-", ".btf");
            try {
                Files.write(f, HeaderLayouts.bytes(l));
                String dump = new String(TestData.run(List.of(TestData.btfref().toString(), "dump", f.toString())),
                        java.nio.charset.StandardCharsets.UTF_8);
                assertEquals("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n", dump, l::toString);
                assertEquals(List.of(), findings(l, Validator.Profile.STRUCTURAL), l::toString);
            } finally {
                Files.delete(f);
            }
        }
    }

    // --- generated layouts ---

    @Provide
    Arbitrary<Layout> layouts() {
        Arbitrary<Integer> hdrLen = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, Arbitraries.just(24)),
                net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(25, 31)),
                net.jqwik.api.Tuple.of(2, Arbitraries.just(32)),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(33, 40)));
        Arbitrary<byte[]> tail = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.just(NONE)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(LAYOUT_OFF_8)),
                net.jqwik.api.Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(16)));
        Arbitrary<Integer> gap = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.just(0)),
                net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(1, 8)));
        return Combinators.combine(hdrLen, tail, Arbitraries.frequency(net.jqwik.api.Tuple.of(9, 0), net.jqwik.api.Tuple.of(1, 1)),
                gap, gap, Arbitraries.frequency(net.jqwik.api.Tuple.of(9, false), net.jqwik.api.Tuple.of(1, true)), gap,
                Arbitraries.frequency(net.jqwik.api.Tuple.of(9, (byte) 0), net.jqwik.api.Tuple.of(1, (byte) 0x5a)))
                .as(Layout::new);
    }

    /**
     * The kernel profile agrees with the kernel's rules: what the kernel accepts is read and
     * valid; what it refuses is refused by the reader (which refuses only what no reader can
     * read, and half a layout field) or gives, as the first finding, the kernel's message.
     */
    @Property(tries = 600)
    void theKernelProfileSaysWhatTheKernelSays(@ForAll("layouts") Layout l) {
        byte[] blob = HeaderLayouts.bytes(l);
        String oracle = HeaderLayouts.kernelVerdict(blob);
        String btfkit = btfkitVerdict(blob);
        if (oracle.equals("ok")) {
            assertEquals("ok", btfkit, l::toString);
        } else if (!btfkit.startsWith("reader: ")) {
            assertEquals(oracle.substring(oracle.indexOf(": ") + 2), btfkit, l::toString);
        }
        // the reader reads every blob libbpf reads (types first, at an aligned offset), but for
        // header bytes past 24 that are neither zero nor a 32-byte header's layout fields, and
        // bytes other than zero after the sections (both would be dropped unseen)
        boolean zeroTail = java.util.stream.IntStream.range(24, l.hdrLen()).allMatch(i -> blob[i] == 0);
        if (!l.stringsFirst() && l.gapBefore() % 4 == 0
                && (zeroTail || l.hdrLen() == 32 && java.util.Arrays.equals(l.tail(), LAYOUT_OFF_8))
                && (l.trailing() == 0 || l.fill() == 0)) {
            assertTrue(!btfkit.startsWith("reader: "), () -> l + ": " + btfkit);
        }
    }

    /** The same layouts given to the running kernel: the rules written from its source are its rules. */
    @Property(tries = 150)
    @RequiresTools(TestData.KERNEL)
    void theKernelsRulesAreTheRunningKernels(@ForAll("layouts") Layout l) {
        byte[] blob = HeaderLayouts.bytes(l);
        String oracle = HeaderLayouts.kernelVerdict(blob);
        assertEquals(oracle.equals("ok") ? "ok" : asErrno(oracle), TestData.kernelVerdict(blob), l::toString);
    }
}
