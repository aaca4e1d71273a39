package io.btfkit.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.RequiresTools;
import io.btfkit.core.TestData;
import io.btfkit.core.text.RawTextPrinter;
import io.btfkit.dedup.Deduplicator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Differential check against libbpf (Debian's libbpf-dev through shared/tools/btfref): on random
 * BTF without ambiguous names, btfkit's dedup is byte-identical to btf__dedup. Skipped with a
 * message when the helper cannot be built (decided before the property runs, see
 * {@link RequiresTools}).
 */
@RequiresTools("btfref")
class LibbpfDifferentialTest {

    private static java.util.List<String> sortedStrings(Btf b) {
        java.util.List<String> out = new java.util.ArrayList<>(
                java.util.Arrays.asList(new String(b.strings().bytes(), java.nio.charset.StandardCharsets.ISO_8859_1).split("\0")));
        java.util.Collections.sort(out);
        return out;
    }

    /** Whether a FWD or value-less enum precedes a definition of its name. */
    static boolean declarationBeforeDefinition(Btf x) {
        java.util.Set<String> declared = new java.util.HashSet<>();
        for (int id = 1; id < x.typeCount(); id++) {
            int k = x.kind(id);
            boolean decl = k == io.btfkit.core.Kind.FWD || (io.btfkit.core.Kind.isEnum(k) && x.vlen(id) == 0);
            if (decl) {
                declared.add(x.name(id));
            } else if ((io.btfkit.core.Kind.isComposite(k) || io.btfkit.core.Kind.isEnum(k)) && declared.contains(x.name(id))) {
                return true;
            }
        }
        return false;
    }

    @Property(tries = 60)
    void sameBytesAsLibbpfWithoutAmbiguousNames(@ForAll long seed, @ForAll @IntRange(min = 3, max = 40) int structs,
                                                @ForAll @IntRange(min = 1, max = 4) int units) throws IOException {
        Path btfref = TestData.btfref();
        Btf x = RandomBtf.concatenatedUnits(seed, structs, units, false);
        Path in = Files.createTempFile("btfkit-diff-", ".btf");
        Path out = Files.createTempFile("btfkit-diff-", ".out.btf");
        try {
            Files.write(in, BtfWriter.write(x));
            TestData.run(List.of(btfref.toString(), "dedup", "-o", out.toString(), in.toString()));
            Btf libbpf = BtfReader.read(Files.readAllBytes(out));
            Btf ours = Deduplicator.dedup(x).btf();
            assertEquals(RawTextPrinter.toText(libbpf), RawTextPrinter.toText(ours), "types, seed " + seed);
            byte[] want = Files.readAllBytes(out);
            byte[] got = BtfWriter.write(ours);
            if (!java.util.Arrays.equals(want, got)) {
                // the one known difference: libbpf lays out a resolved declaration's name where
                // the declaration was; btfkit where the kept definition is (idempotent dedup)
                assertTrue(declarationBeforeDefinition(x), "bytes differ without a declaration before its definition");
                assertEquals(sortedStrings(libbpf), sortedStrings(ours), "the same strings, laid out differently");
            }
        } finally {
            Files.deleteIfExists(in);
            Files.deleteIfExists(out);
        }
    }
}
