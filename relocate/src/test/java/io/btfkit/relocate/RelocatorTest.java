package io.btfkit.relocate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import io.btfkit.core.text.RawTextParser;
import io.btfkit.core.text.RawTextPrinter;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * One case per matching rule and per error, written in raw text: a distilled base, a split on
 * it (often just a pointer to each distilled type) and a new base; then the relocated split's
 * text or the problems reported.
 */
class RelocatorTest {

    private static Btf parse(String text) {
        return RawTextParser.parse(text, null);
    }

    private static Btf parse(String text, Btf base) {
        return RawTextParser.parse(text, base);
    }

    /** A split on {@code dist} with one PTR to each distilled type. */
    private static Btf pointersTo(Btf dist) {
        StringBuilder t = new StringBuilder();
        for (int id = 1; id < dist.typeCount(); id++) {
            t.append('[').append(dist.typeCount() + id - 1).append("] PTR '(anon)' type_id=").append(id).append('\n');
        }
        return parse(t.toString(), dist);
    }

    private static String relocated(Btf split, Btf base) {
        return RawTextPrinter.toText(Relocator.relocate(split, base));
    }

    private static List<Problem> problems(Btf split, Btf newBase) {
        RelocationException e = assertThrows(RelocationException.class, () -> Relocator.relocate(split, newBase));
        assertEquals(e.problems(), Relocator.problems(split, NewBaseIndex.of(newBase)));
        assertFalse(e.getMessage().contains("\n"), "one-line message");
        for (Problem p : e.problems().subList(0, Math.min(RelocationException.MAX_LISTED, e.problems().size()))) {
            assertTrue(e.getMessage().contains(p.message()), "message lists " + p);
        }
        return e.problems();
    }

    private static Problem onlyProblem(Btf split, Btf newBase) {
        List<Problem> p = problems(split, newBase);
        assertEquals(1, p.size(), p.toString());
        return p.get(0);
    }

    private static List<String> summary(List<Problem> problems) {
        return problems.stream().map(p -> p.name() + " " + p.reason()).collect(Collectors.toList());
    }

    @Test
    void idsShiftAndStringsMoveToTheNewBase() {
        Btf dist = parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 's' size=8 vlen=0
                """);
        Btf split = parse("""
                [3] STRUCT 'holder' size=16 vlen=2
                \t's' type_id=4 bits_offset=0
                \t'i' type_id=1 bits_offset=64
                [4] PTR '(anon)' type_id=2
                """, dist);
        Btf base = parse("""
                [1] INT 'long' size=8 bits_offset=0 nr_bits=64 encoding=SIGNED
                [2] STRUCT 's' size=32 vlen=1
                \t'x' type_id=1 bits_offset=0
                [3] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                """);
        Btf out = Relocator.relocate(split, base);
        assertEquals("""
                [4] STRUCT 'holder' size=16 vlen=2
                \t's' type_id=5 bits_offset=0
                \t'i' type_id=3 bits_offset=64
                [5] PTR '(anon)' type_id=2
                """, RawTextPrinter.toText(out));
        assertArrayEquals(split.strings().bytes(), out.strings().bytes(), "the split's own strings are unchanged");
        assertEquals(base.strings().find("s"), out.extra(4, 0), "member 's' (a distilled name) now names the new base's string");
        assertEquals(base.strings().end(), out.nameOff(4), "own strings follow the new base's");
        assertArrayEquals(BtfWriter.write(out), BtfWriter.write(Relocator.relocate(split, NewBaseIndex.of(base))));
    }

    @Test
    void intMatchesByNameSizeAndEncoding() {
        Btf dist = parse("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n");
        Btf base = parse("""
                [1] INT 'int' size=8 bits_offset=0 nr_bits=64 encoding=SIGNED
                [2] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=(none)
                # bit offset and width are not compared
                [3] INT 'int' size=4 bits_offset=0 nr_bits=31 encoding=SIGNED
                """);
        assertEquals("[4] PTR '(anon)' type_id=3\n", relocated(pointersTo(dist), base));
    }

    @Test
    void intWithAnotherEncodingIsReported() {
        Btf dist = parse("[1] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=SIGNED\n");
        Btf base = parse("[1] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=(none)\n");
        Problem p = onlyProblem(pointersTo(dist), base);
        assertEquals(Problem.Reason.ENCODING_DIFFERS, p.reason());
        assertEquals("INT 'char' [1] size=1: encoding differs: distilled encoding SIGNED, new base has [1] INT 'char' size=1"
                + " encoding (none)", p.message());
    }

    @Test
    void intWithAnotherSizeIsReported() {
        Btf dist = parse("[1] INT 'long' size=8 bits_offset=0 nr_bits=64 encoding=SIGNED\n");
        Btf base = parse("[1] INT 'long' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n");
        Problem p = onlyProblem(pointersTo(dist), base);
        assertEquals(Problem.Reason.SIZE_DIFFERS, p.reason());
        assertEquals("INT 'long' [1] size=8: size differs: new base has [1] INT 'long' size=4", p.message());
    }

    @Test
    void floatMatchesByNameAndSize() {
        Btf dist = parse("[1] FLOAT 'double' size=8\n");
        assertEquals("[3] PTR '(anon)' type_id=2\n", relocated(pointersTo(dist), parse("""
                [1] FLOAT 'double' size=4
                [2] FLOAT 'double' size=8
                """)));
        assertEquals(Problem.Reason.SIZE_DIFFERS, onlyProblem(pointersTo(dist), parse("[1] FLOAT 'double' size=16\n")).reason());
    }

    @Test
    void enumMatchesEnumOrEnum64OfTheSameSize() {
        Btf dist = parse("""
                [1] ENUM 'e4' encoding=UNSIGNED size=4 vlen=0
                [2] ENUM 'e8' encoding=UNSIGNED size=8 vlen=0
                """);
        Btf base = parse("""
                [1] ENUM64 'e8' encoding=SIGNED size=8 vlen=1
                \t'v' val=-1
                # signedness is not compared
                [2] ENUM 'e4' encoding=SIGNED size=4 vlen=0
                """);
        assertEquals("[3] PTR '(anon)' type_id=2\n[4] PTR '(anon)' type_id=1\n", relocated(pointersTo(dist), base));
        Btf smaller = parse("""
                [1] ENUM64 'e8' encoding=UNSIGNED size=4 vlen=0
                [2] ENUM 'e4' encoding=UNSIGNED size=4 vlen=0
                """);
        Problem p = onlyProblem(pointersTo(dist), smaller);
        assertEquals(Problem.Reason.SIZE_DIFFERS, p.reason());
        assertEquals("e8", p.name());
    }

    @Test
    void fwdMatchesAFwdOfTheSameFlavour() {
        Btf dist = parse("[1] FWD 'f' fwd_kind=struct\n");
        assertEquals("[3] PTR '(anon)' type_id=2\n", relocated(pointersTo(dist), parse("""
                [1] FWD 'f' fwd_kind=union
                [2] FWD 'f' fwd_kind=struct
                """)));
        Problem p = onlyProblem(pointersTo(dist), parse("[1] FWD 'f' fwd_kind=union\n"));
        assertEquals(Problem.Reason.KIND_DIFFERS, p.reason());
        assertEquals("FWD 'f' [1]: kind differs: new base has [1] FWD 'f' fwd_kind=union", p.message());
    }

    @Test
    void fwdMatchesAStructOrUnionByTheirOwnKindFlagAsLibbpfDoes() {
        Btf dist = parse("[1] FWD 'f' fwd_kind=union\n");
        // a STRUCT with kind_flag clear matches any FWD; a UNION only with kind_flag set (a bitfield member)
        assertEquals("[2] PTR '(anon)' type_id=1\n", relocated(pointersTo(dist), parse("""
                [1] STRUCT 'f' size=4 vlen=1
                \t'x' type_id=0 bits_offset=0
                """)));
        Btf unionWithoutBitfields = parse("""
                [1] UNION 'f' size=4 vlen=1
                \t'x' type_id=0 bits_offset=0
                """);
        assertEquals(Problem.Reason.KIND_DIFFERS, onlyProblem(pointersTo(dist), unionWithoutBitfields).reason());
        Btf unionWithBitfields = parse("""
                [1] UNION 'f' size=4 vlen=1
                \t'x' type_id=0 bits_offset=0 bitfield_size=1
                """);
        assertEquals("[2] PTR '(anon)' type_id=1\n", relocated(pointersTo(dist), unionWithBitfields));
    }

    @Test
    void structReferencedByPointerMatchesByNameWhateverItsSize() {
        Btf dist = parse("[1] STRUCT 's' size=8 vlen=0\n");
        assertEquals("[2] PTR '(anon)' type_id=1\n", relocated(pointersTo(dist), parse("[1] STRUCT 's' size=800 vlen=0\n")));
    }

    @Test
    void structMatchesAnyKindOfTheSameNameAsLibbpfDoes() {
        Btf dist = parse("[1] STRUCT 's' size=8 vlen=0\n");
        assertEquals("[2] PTR '(anon)' type_id=1\n", relocated(pointersTo(dist), parse("[1] UNION 's' size=8 vlen=0\n")));
    }

    @Test
    void severalStructsOfOneNameAreToldApartBySize() {
        Btf dist = parse("[1] STRUCT 's' size=8 vlen=0\n");
        assertEquals("[3] PTR '(anon)' type_id=2\n", relocated(pointersTo(dist), parse("""
                [1] STRUCT 's' size=16 vlen=0
                [2] STRUCT 's' size=8 vlen=0
                """)));
        Problem p = onlyProblem(pointersTo(dist), parse("""
                [1] STRUCT 's' size=16 vlen=0
                [2] UNION 's' size=24 vlen=0
                """));
        assertEquals(Problem.Reason.SIZE_DIFFERS, p.reason());
        assertEquals("STRUCT 's' [1] size=8: size differs: new base has [1] STRUCT 's' size=16 and [2] UNION 's' size=24",
                p.message());
    }

    @Test
    void aStructEmbeddedByValueMustKeepItsSize() {
        Btf dist = parse("""
                [1] STRUCT 'device' size=752 vlen=0
                [2] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                """);
        // embedded through a typedef, a const and an array
        Btf split = parse("""
                [3] TYPEDEF 'dev_t' type_id=1
                [4] CONST '(anon)' type_id=3
                [5] ARRAY '(anon)' type_id=4 index_type_id=2 nr_elems=2
                [6] STRUCT 'holder' size=2000 vlen=1
                \t'devs' type_id=5 bits_offset=0
                """, dist);
        Btf base = parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 'device' size=744 vlen=0
                """);
        Problem p = onlyProblem(split, base);
        assertEquals(Problem.Reason.SIZE_CHANGED_EMBEDDED, p.reason());
        assertEquals("STRUCT 'device' [1] size=752: size changed while embedded: embedded by value in split type [6] STRUCT"
                + " 'holder' size=2000, new base has [2] STRUCT 'device' size=744", p.message());

        Btf byPointer = parse("""
                [3] PTR '(anon)' type_id=1
                [4] STRUCT 'holder' size=8 vlen=1
                \t'dev' type_id=3 bits_offset=0
                """, dist);
        assertEquals(base.typeCount(), Relocator.relocate(byPointer, base).firstId(), "a pointer does not embed");
    }

    /** Distilled base of the mfd_cell modules (cros_ec_dev, lpc_ich, rtsx_pci), in small. */
    private static final String MFD_DIST = """
            [1] STRUCT 'mfd_cell' size=144 vlen=0
            [2] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            """;

    /** A new base that only declares it, as 6.1.0-56-cloud's [6485] FWD 'mfd_cell'. */
    private static final String ONLY_DECLARED = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] FWD 'mfd_cell' fwd_kind=struct
            """;

    @Test
    void anArrayElementCannotBecomeAFwd() {
        Btf dist = parse(MFD_DIST);
        // static const struct mfd_cell cells[4]: a CONST, and an ARRAY of it that no struct holds
        Btf split = parse("""
                [3] CONST '(anon)' type_id=1
                [4] ARRAY '(anon)' type_id=3 index_type_id=2 nr_elems=4
                """, dist);
        Problem p = onlyProblem(split, parse(ONLY_DECLARED));
        assertEquals(Problem.Reason.NEEDED_BY_SIZE, p.reason());
        assertEquals("STRUCT 'mfd_cell' [1] size=144: needed by size (array element in split type [4] ARRAY '(anon)'), new base"
                + " has only [2] FWD 'mfd_cell' fwd_kind=struct", p.message());
        // libbpf maps it: its map model agrees that [1] -> FWD [2] and nothing else is wrong
        assertTrue(LibbpfMapModel.run(split, parse(ONLY_DECLARED)).ok());
        // a pointer to it is fine: a pointer needs no size
        Btf byPointer = parse("""
                [3] CONST '(anon)' type_id=1
                [4] PTR '(anon)' type_id=3
                """, dist);
        assertEquals("[3] CONST '(anon)' type_id=2\n[4] PTR '(anon)' type_id=3\n", relocated(byPointer, parse(ONLY_DECLARED)));
        // and with a definition in the new base the array relocates as libbpf does
        assertEquals("[3] CONST '(anon)' type_id=1\n[4] ARRAY '(anon)' type_id=3 index_type_id=2 nr_elems=4\n",
                relocated(split, parse("[1] STRUCT 'mfd_cell' size=152 vlen=0\n[2] INT 'int' size=4 bits_offset=0 nr_bits=32"
                        + " encoding=SIGNED\n")));
    }

    @Test
    void aMemberThroughATypedefAndAConstCannotBecomeAFwd() {
        Btf dist = parse(MFD_DIST);
        Btf split = parse("""
                [3] TYPEDEF 'cell_t' type_id=1
                [4] CONST '(anon)' type_id=3
                [5] STRUCT 'holder' size=144 vlen=1
                	'cell' type_id=4 bits_offset=0
                """, dist);
        Problem p = onlyProblem(split, parse(ONLY_DECLARED));
        assertEquals(Problem.Reason.NEEDED_BY_SIZE, p.reason());
        assertEquals("STRUCT 'mfd_cell' [1] size=144: needed by size (embedded by value in split type [5] STRUCT 'holder'"
                + " size=144), new base has only [2] FWD 'mfd_cell' fwd_kind=struct", p.message());
        // libbpf fails here too (an embedded type must keep its size), on the same type
        assertEquals(1, LibbpfMapModel.run(split, parse(ONLY_DECLARED)).complaintId());
    }

    @Test
    void aVariableOrParameterByValueCannotBecomeAFwd() {
        Btf dist = parse(MFD_DIST);
        Btf var = parse("""
                [3] VOLATILE '(anon)' type_id=1
                [4] VAR 'cell' type_id=3, linkage=static
                """, dist);
        assertEquals("STRUCT 'mfd_cell' [1] size=144: needed by size (type of split variable [4] VAR 'cell'), new base has"
                + " only [2] FWD 'mfd_cell' fwd_kind=struct", onlyProblem(var, parse(ONLY_DECLARED)).message());
        Btf param = parse("""
                [3] FUNC_PROTO '(anon)' ret_type_id=2 vlen=1
                	'c' type_id=1
                """, dist);
        assertEquals(Problem.Reason.NEEDED_BY_SIZE, onlyProblem(param, parse(ONLY_DECLARED)).reason());
    }

    @Test
    void libbpfsComplaintStaysFirstBeforeANeededBySizeProblem() {
        // [1] is needed by size (libbpf maps it to the FWD), [3] is missing (libbpf's complaint)
        Btf dist = parse(MFD_DIST + "[3] STRUCT 'gone' size=8 vlen=0\n");
        Btf split = parse("""
                [4] ARRAY '(anon)' type_id=1 index_type_id=2 nr_elems=4
                [5] PTR '(anon)' type_id=3
                """, dist);
        assertEquals(List.of("gone MISSING", "mfd_cell NEEDED_BY_SIZE"), summary(problems(split, parse(ONLY_DECLARED))));
    }

    @Test
    void anEmbeddedStructPicksTheCandidateOfItsSize() {
        Btf dist = parse("[1] STRUCT 's' size=8 vlen=0\n");
        Btf split = parse("""
                [2] STRUCT 'holder' size=8 vlen=1
                \t's' type_id=1 bits_offset=0
                """, dist);
        Btf base = parse("""
                [1] FWD 's' fwd_kind=struct
                [2] STRUCT 's' size=8 vlen=0
                """);
        assertEquals("""
                [3] STRUCT 'holder' size=8 vlen=1
                \t's' type_id=2 bits_offset=0
                """, relocated(split, base));
    }

    @Test
    void twoEqualCandidatesAreAmbiguous() {
        Btf dist = parse("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n");
        Btf base = parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                """);
        Problem p = onlyProblem(pointersTo(dist), base);
        assertEquals(Problem.Reason.AMBIGUOUS, p.reason());
        assertEquals("INT 'int' [1] size=4: several candidates: new base has [1] INT 'int' size=4 and [2] INT 'int' size=4",
                p.message());
    }

    @Test
    void aStructAndAFwdOfOneNameAreAmbiguousForAPointedToStruct() {
        Btf dist = parse("[1] STRUCT 's' size=8 vlen=0\n");
        Btf base = parse("""
                [1] STRUCT 's' size=8 vlen=0
                [2] FWD 's' fwd_kind=struct
                """);
        assertEquals(Problem.Reason.AMBIGUOUS, onlyProblem(pointersTo(dist), base).reason());
    }

    @Test
    void aMissingTypeIsReported() {
        Btf dist = parse("[1] STRUCT 'gone' size=8 vlen=0\n");
        Problem p = onlyProblem(pointersTo(dist), parse("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=(none)\n"));
        assertEquals(Problem.Reason.MISSING, p.reason());
        assertEquals("STRUCT 'gone' [1] size=8: missing: the new base has no type of that name", p.message());
    }

    @Test
    void everyProblemIsReportedLibbpfsComplaintFirst() {
        Btf dist = parse("""
                # 'a' and 'd' are missing, 'b' is ambiguous, 'c' maps
                [1] STRUCT 'a' size=8 vlen=0
                [2] INT 'b' size=4 bits_offset=0 nr_bits=32 encoding=(none)
                [3] STRUCT 'c' size=8 vlen=0
                [4] FLOAT 'd' size=8
                """);
        Btf base = parse("""
                [1] STRUCT 'c' size=8 vlen=0
                [2] INT 'b' size=4 bits_offset=0 nr_bits=32 encoding=(none)
                [3] INT 'b' size=4 bits_offset=0 nr_bits=32 encoding=(none)
                """);
        assertEquals(List.of("b AMBIGUOUS", "a MISSING", "d MISSING"), summary(problems(pointersTo(dist), base)),
                "libbpf stops at the ambiguity while walking the base");
        Btf unambiguous = parse("""
                [1] STRUCT 'c' size=8 vlen=0
                [2] INT 'b' size=4 bits_offset=0 nr_bits=32 encoding=(none)
                """);
        assertEquals(List.of("a MISSING", "d MISSING"), summary(problems(pointersTo(dist), unambiguous)),
                "without ambiguity: lowest id first");
    }

    @Test
    void atOneStopTheLargerDistilledTypeIsNamedFirst() {
        Btf dist = parse("""
                [1] STRUCT 's' size=8 vlen=0
                [2] STRUCT 's' size=16 vlen=0
                """);
        // the FWD (no size, name-only key) is each one's second candidate, at base id 3
        Btf base = parse("""
                [1] STRUCT 's' size=8 vlen=0
                [2] INT 'x' size=4 bits_offset=0 nr_bits=32 encoding=(none)
                [3] FWD 's' fwd_kind=struct
                """);
        assertEquals(List.of("s AMBIGUOUS", "s AMBIGUOUS"), summary(problems(pointersTo(dist), base)));
        assertEquals(2, problems(pointersTo(dist), base).get(0).typeId(), "libbpf's sort puts size 16 first");
    }

    @Test
    void aBaseThatIsNotDistilledIsRejected() {
        Btf full = parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] PTR '(anon)' type_id=1
                [3] STRUCT '(anon)' size=4 vlen=0
                """);
        List<Problem> p = problems(pointersTo(full), parse("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n"));
        assertEquals(List.of("(anon) INVALID_DISTILLED_TYPE", "(anon) INVALID_DISTILLED_TYPE"),
                p.stream().map(x -> (x.name().isEmpty() ? "(anon)" : x.name()) + " " + x.reason()).collect(Collectors.toList()));
        assertEquals("PTR '(anon)' [2]: not a distilled base type: a distilled base holds only named INT, FLOAT, ENUM,"
                + " STRUCT, UNION and FWD types", p.get(0).message());
        assertEquals("STRUCT '(anon)' [3] size=4: not a distilled base type: it is anonymous", p.get(1).message());
    }

    @Test
    void inputsThatCannotBeRelocatedAtAll() {
        Btf dist = parse("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n");
        Btf split = pointersTo(dist);
        assertTrue(assertThrows(OperationException.class, () -> Relocator.relocate(dist, dist)).getMessage()
                .contains("standalone"));
        assertTrue(assertThrows(OperationException.class, () -> Relocator.relocate(split, dist)).getMessage()
                .contains("own base"));
        Btf splitOfSplit = parse("[3] PTR '(anon)' type_id=2\n", split);
        assertTrue(assertThrows(OperationException.class, () -> Relocator.relocate(splitOfSplit, dist)).getMessage()
                .contains("itself split"));
    }

    @Test
    void aNamedNewBaseTypeWithAnEmptyNameIsLibbpfsVoidClash() {
        // raw text cannot say "a name offset that holds the empty string": built by hand
        Btf dist = parse("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n");
        BtfBuilder nb = new BtfBuilder(null, "\0\0".getBytes());
        nb.addRaw(new int[] {1, Kind.info(Kind.FWD, 0, false), 0}, 0, 3);
        nb.addInt("int", 4, Kind.INT_SIGNED);
        Problem p = onlyProblem(pointersTo(dist), nb.build());
        assertEquals(Problem.Reason.INVALID_NAME, p.reason());
        assertEquals("new base: empty name: new base type [1] FWD '(anon)' fwd_kind=struct has a name offset that holds the"
                + " empty string", p.message());
    }

    @Test
    void aSplitStringInTheDistilledBaseThatNoTypeNamesIsReported() {
        // raw text cannot hold an unused string: built by hand
        BtfBuilder db = new BtfBuilder(null, "\0int\0extra\0".getBytes());
        db.addInt("int", 4, Kind.INT_SIGNED);
        Btf dist = db.build();
        Btf split = parse("""
                [2] STRUCT 'holder' size=4 vlen=1
                \t'extra' type_id=1 bits_offset=0
                """, dist);
        assertEquals(5, split.extra(2, 0), "the member name resolves to the distilled base's unused 'extra'");
        Problem p = onlyProblem(split, parse("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n"));
        assertEquals(Problem.Reason.STRING_UNMAPPED, p.reason());
        assertEquals("string 'extra' of split type [2]: string not mapped: offset 5 is in the distilled base's strings, but no"
                + " distilled type with that name was mapped", p.message());
    }

    @Test
    void aSharedIndexServesManyThreads() {
        Btf dist = parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 's' size=8 vlen=0
                """);
        Btf split = pointersTo(dist);
        StringBuilder t = new StringBuilder();
        for (int i = 1; i <= 1000; i++) {
            t.append('[').append(i).append("] STRUCT 'other").append(i).append("' size=").append(i).append(" vlen=0\n");
        }
        t.append("[1001] STRUCT 's' size=8 vlen=0\n[1002] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n");
        NewBaseIndex index = NewBaseIndex.of(parse(t.toString()));
        assertEquals(1002, index.nameCount());
        byte[] expected = BtfWriter.write(Relocator.relocate(split, index));
        List<byte[]> all = IntStream.range(0, 64).parallel().mapToObj(i -> BtfWriter.write(Relocator.relocate(split, index)))
                .collect(Collectors.toList());
        for (byte[] b : all) {
            assertArrayEquals(expected, b);
        }
        assertEquals("[1003] PTR '(anon)' type_id=1002\n[1004] PTR '(anon)' type_id=1001\n",
                RawTextPrinter.toText(Relocator.relocate(split, index)));
    }

    /**
     * Issue 23: a distilled base of 60,000 {@code STRUCT 's' size=4} against a new base of
     * 60,000 others: every type is ambiguous, and each used to rescan the whole group to list its
     * candidates (over a minute). The group is scanned once per shape; the message lists ten
     * problems and counts the rest.
     */
    @Test
    void sixtyThousandAmbiguousTypesListTheirCandidatesOnce() {
        RelocationException e = sixtyThousand(4);
        assertEquals("STRUCT 's' [60000] size=4: several candidates: new base has [1] STRUCT 's' size=4, [2] STRUCT 's'"
                + " size=4, [3] STRUCT 's' size=4, [4] STRUCT 's' size=4 and 59996 more", e.problems().get(59_999).message());
        assertTrue(e.getMessage().endsWith("; and 59990 more"), e.getMessage().substring(e.getMessage().length() - 40));
        assertTrue(e.getMessage().length() < 4096, e.getMessage().length() + " characters");
    }

    /** Unmatched, the same way: 60,000 structs of size 4 against 60,000 of size 8, searched and listed once. */
    @Test
    void sixtyThousandUnmatchedTypesListTheirCandidatesOnce() {
        RelocationException e = sixtyThousand(8);
        assertEquals(Problem.Reason.SIZE_DIFFERS, e.problems().get(0).reason());
        assertTrue(e.problems().get(0).message().endsWith("and 59996 more"), e.problems().get(0).message());
    }

    /** A distilled base of 60,000 {@code STRUCT 's' size=4}, a split pointing at the first, a new base of 60,000 {@code s} of {@code newSize}. */
    private static RelocationException sixtyThousand(int newSize) {
        BtfBuilder d = new BtfBuilder();
        BtfBuilder n = new BtfBuilder();
        for (int k = 0; k < 60_000; k++) {
            d.addStruct("s", 4);
            n.addStruct("s", newSize);
        }
        BtfBuilder s = new BtfBuilder(d.build());
        s.addPtr(1);
        RelocationException e = assertThrows(RelocationException.class, () -> Relocator.relocate(s.build(), n.build()));
        assertEquals(60_000, e.problems().size());
        return e;
    }
}
