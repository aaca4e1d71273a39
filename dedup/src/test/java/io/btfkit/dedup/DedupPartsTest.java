package io.btfkit.dedup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.TestData;
import io.btfkit.core.text.RawTextParser;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A link partitioned in parallel parts gives the same bytes as one part: the parts' classes are
 * unified exactly, also where a part references another (a standalone link of a vmlinux and its
 * modules: every module refers to the first part's vmlinux types), and where the definitions pass
 * classifies only the tags a rule asks about.
 */
class DedupPartsTest {
    /**
     * The final partition runs as one range when more than one merged type in 500 has a
     * reference redirected across parts (362 gcc objects: 5,225 of 746,119), in its parts when
     * fewer do (300 units of one kernel: 1,304 of 1.5 M); one part stays one.
     */
    @Test
    void theFinalPartitionIsOneRangeWhenManyReferencesCrossParts() {
        int[] parts = {0, 373_000, 746_119};
        assertArrayEquals(new int[] {0, 746_119}, Deduplicator.finalRanges(parts, 5_225));
        assertArrayEquals(new int[] {0, 746_119}, Deduplicator.finalRanges(parts, 1_493));
        assertArrayEquals(parts, Deduplicator.finalRanges(parts, 1_492));
        int[] units = {0, 750_000, 1_499_542};
        assertArrayEquals(units, Deduplicator.finalRanges(units, 1_304));
        assertArrayEquals(new int[] {0, 100}, Deduplicator.finalRanges(new int[] {0, 100}, 100));
    }

    private static byte[] standaloneLink(int parts) {
        Btf vmlinux = BtfReader.read(TestData.bytes(TestData.golden("vmlinux-6.1.0-56.btf")));
        List<Btf> modules = new ArrayList<>();
        for (String m : TestData.goldenModules()) {
            modules.add(BtfReader.read(TestData.bytes(TestData.golden("modules/" + m + ".btf")), vmlinux));
        }
        System.setProperty("btfkit.dedup.parts", Integer.toString(parts));
        try {
            return BtfWriter.write(Deduplicator.linkStandalone(vmlinux, modules).btf());
        } finally {
            System.clearProperty("btfkit.dedup.parts");
        }
    }

    private static byte[] standaloneLink(Btf base, List<Btf> split, int parts) {
        System.setProperty("btfkit.dedup.parts", Integer.toString(parts));
        try {
            return BtfWriter.write(Deduplicator.linkStandalone(base, split).btf());
        } finally {
            System.clearProperty("btfkit.dedup.parts");
        }
    }

    /**
     * The definitions pass classifies only tags a rule asks about ({@code foo}, declared); the
     * typedefs {@code myint} and {@code yourint} of the first part are reached only from the
     * other parts' {@code foo}s, so the first part must classify them although none of its tags
     * is asked about — else the two {@code foo}s, different definitions, would look like one and
     * their declarations would be resolved.
     */
    @Test
    void aTypeOfAnotherPartReachedOnlyFromThereIsClassifiedInItsOwnPart() {
        Btf base = RawTextParser.parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] TYPEDEF 'myint' type_id=1
                [3] TYPEDEF 'yourint' type_id=1
                """, null);
        List<Btf> split = new ArrayList<>();
        for (int k = 0; k < 2; k++) {
            split.add(RawTextParser.parse("""
                    [4] STRUCT 'foo' size=4 vlen=1
                    	'a' type_id=%d bits_offset=0
                    [5] FWD 'foo' fwd_kind=struct
                    [6] PTR '(anon)' type_id=5
                    [7] STRUCT 'holder' size=8 vlen=1
                    	'p' type_id=6 bits_offset=0
                    """.formatted(2 + k), base));
        }
        byte[] one = standaloneLink(base, split, 1);
        assertArrayEquals(one, standaloneLink(base, split, 2), "two parts");
        assertArrayEquals(one, standaloneLink(base, split, 3), "three parts");
    }

    private static byte[] unitLink(List<String> units, int parts) {
        List<Btf> inputs = new ArrayList<>();
        for (String u : units) {
            inputs.add(RawTextParser.parse(u, null));
        }
        System.setProperty("btfkit.dedup.parts", Integer.toString(parts));
        try {
            return BtfWriter.write(Deduplicator.link(inputs, null, Deduplicator.Options.LINK).btf());
        } finally {
            System.clearProperty("btfkit.dedup.parts");
        }
    }

    /**
     * Each of {@code a} and {@code b} is defined in one unit only and declared in the other, so
     * each declaration resolves to a definition in another part: the cycle a -> b -> a crosses the
     * parts, and so does what reaches it (the typedefs, the struct holding a pointer to a). The
     * parts' searches block on it; the blockers' search, then the parts again, classify it.
     */
    @Test
    void aCycleAcrossPartsIsClassifiedAsInOnePart() {
        String first = """
                [1] STRUCT 'a' size=8 vlen=1
                	'b' type_id=3 bits_offset=0
                [2] FWD 'b' fwd_kind=struct
                [3] PTR '(anon)' type_id=2
                [4] PTR '(anon)' type_id=1
                [5] TYPEDEF 'a_t' type_id=1
                [6] STRUCT 'user' size=8 vlen=1
                	'p' type_id=4 bits_offset=0
                [7] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                """;
        String second = """
                [1] STRUCT 'b' size=8 vlen=1
                	'a' type_id=3 bits_offset=0
                [2] FWD 'a' fwd_kind=struct
                [3] PTR '(anon)' type_id=2
                [4] PTR '(anon)' type_id=1
                [5] TYPEDEF 'b_t' type_id=1
                [6] STRUCT 'user' size=8 vlen=1
                	'p' type_id=3 bits_offset=0
                [7] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                """;
        List<String> two = List.of(first, second);
        assertArrayEquals(unitLink(two, 1), unitLink(two, 2), "two units in two parts");
        List<String> four = List.of(first, second, first, second);
        assertArrayEquals(unitLink(four, 1), unitLink(four, 4), "four units in four parts");
    }

    @Test
    void standaloneLinkOfVmlinuxAndModulesIsTheSameInOneTwoAndThreeParts() {
        byte[] one = standaloneLink(1);
        assertArrayEquals(one, standaloneLink(2), "two parts");
        assertArrayEquals(one, standaloneLink(3), "three parts");
    }
}
