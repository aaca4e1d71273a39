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
import io.btfkit.core.text.RawTextPrinter;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * One case per matching rule and per error. Each builds a distilled base, a split on it and a
 * new base, then checks the relocated split's text or the problems reported.
 */
class RelocatorTest {

    private static Btf btf(Consumer<BtfBuilder> types) {
        BtfBuilder b = new BtfBuilder();
        types.accept(b);
        return b.build();
    }

    private static Btf split(Btf base, Consumer<BtfBuilder> types) {
        BtfBuilder b = new BtfBuilder(base);
        types.accept(b);
        return b.build();
    }

    /** Distilled base: the given types; split: one PTR to each of them. */
    private static Btf pointersTo(Btf dist) {
        return split(dist, s -> {
            for (int id = 1; id < dist.typeCount(); id++) {
                s.addPtr(id);
            }
        });
    }

    private static List<Problem> problems(Btf split, Btf newBase) {
        RelocationException e = assertThrows(RelocationException.class, () -> Relocator.relocate(split, newBase));
        assertEquals(e.problems(), Relocator.problems(split, BaseIndex.of(newBase)));
        assertFalse(e.getMessage().contains("\n"), "one-line message");
        for (Problem p : e.problems()) {
            assertTrue(e.getMessage().contains(p.message()), "message lists " + p);
        }
        return e.problems();
    }

    private static Problem onlyProblem(Btf split, Btf newBase) {
        List<Problem> p = problems(split, newBase);
        assertEquals(1, p.size(), p.toString());
        return p.get(0);
    }

    @Test
    void idsShiftAndStringsMoveToTheNewBase() {
        Btf dist = btf(b -> {
            b.addInt("int", 4, Kind.INT_SIGNED); // 1
            b.addStruct("s", 8); // 2
        });
        Btf split = split(dist, s -> {
            s.addStruct("holder", 16); // 3
            s.addMember("s", 4, 0, 0); // a member named like a distilled type
            s.addMember("i", 1, 64, 0);
            s.addPtr(2); // 4
        });
        Btf base = btf(b -> {
            b.addInt("long", 8, Kind.INT_SIGNED); // 1
            b.addStruct("s", 32); // 2
            b.addMember("x", 1, 0, 0);
            b.addInt("int", 4, Kind.INT_SIGNED); // 3
        });
        Btf out = Relocator.relocate(split, base);
        assertEquals("[4] STRUCT 'holder' size=16 vlen=2\n"
                + "\t's' type_id=5 bits_offset=0\n"
                + "\t'i' type_id=3 bits_offset=64\n"
                + "[5] PTR '(anon)' type_id=2\n", RawTextPrinter.toText(out));
        assertArrayEquals(split.strings().bytes(), out.strings().bytes(), "the split's own strings are unchanged");
        assertEquals(base.strings().find("s"), out.extra(4, 0), "member 's' now names the new base's string");
        assertEquals(base.strings().end(), out.nameOff(4), "own strings follow the new base's");
        assertArrayEquals(BtfWriter.write(out), BtfWriter.write(Relocator.relocate(split, BaseIndex.of(base))));
    }

    @Test
    void intMatchesByNameSizeAndEncoding() {
        Btf dist = btf(b -> b.addInt("int", 4, Kind.INT_SIGNED));
        Btf base = btf(b -> {
            b.addInt("int", 8, Kind.INT_SIGNED); // other size
            b.addInt("int", 4, 0); // other encoding
            b.addInt("int", 4, Kind.INT_SIGNED, 0, 31); // bits are not compared
        });
        assertEquals("[4] PTR '(anon)' type_id=3\n", RawTextPrinter.toText(Relocator.relocate(pointersTo(dist), base)));
    }

    @Test
    void intWithAnotherEncodingIsReported() {
        Btf dist = btf(b -> b.addInt("char", 1, Kind.INT_SIGNED));
        Btf base = btf(b -> b.addInt("char", 1, 0));
        Problem p = onlyProblem(pointersTo(dist), base);
        assertEquals(Problem.Reason.ENCODING_DIFFERS, p.reason());
        assertEquals("INT 'char' [1] size=1: encoding differs: distilled encoding SIGNED, new base has [1] INT 'char' size=1"
                + " encoding (none)", p.message());
    }

    @Test
    void intWithAnotherSizeIsReported() {
        Btf dist = btf(b -> b.addInt("long", 8, Kind.INT_SIGNED));
        Btf base = btf(b -> b.addInt("long", 4, Kind.INT_SIGNED));
        Problem p = onlyProblem(pointersTo(dist), base);
        assertEquals(Problem.Reason.SIZE_DIFFERS, p.reason());
        assertEquals("long", p.name());
        assertEquals(8, p.size());
    }

    @Test
    void floatMatchesByNameAndSize() {
        Btf dist = btf(b -> b.addFloat("double", 8));
        assertEquals("[3] PTR '(anon)' type_id=2\n",
                RawTextPrinter.toText(Relocator.relocate(pointersTo(dist), btf(b -> {
                    b.addFloat("double", 4);
                    b.addFloat("double", 8);
                }))));
        assertEquals(Problem.Reason.SIZE_DIFFERS, onlyProblem(pointersTo(dist), btf(b -> b.addFloat("double", 16))).reason());
    }

    @Test
    void enumMatchesEnumOrEnum64OfTheSameSize() {
        Btf dist = btf(b -> {
            b.addEnum("e4", 4, false);
            b.addEnum("e8", 8, false);
        });
        Btf base = btf(b -> {
            b.addEnum64("e8", 8, true); // 1
            b.addEnum("e4", 4, true); // 2: signedness is not compared
        });
        assertEquals("[3] PTR '(anon)' type_id=2\n[4] PTR '(anon)' type_id=1\n",
                RawTextPrinter.toText(Relocator.relocate(pointersTo(dist), base)));
        Btf smaller = btf(b -> {
            b.addEnum64("e8", 4, false);
            b.addEnum("e4", 4, false);
        });
        Problem p = onlyProblem(pointersTo(dist), smaller);
        assertEquals(Problem.Reason.SIZE_DIFFERS, p.reason());
        assertEquals("e8", p.name());
    }

    @Test
    void fwdMatchesAFwdOfTheSameFlavour() {
        Btf dist = btf(b -> b.addFwd("f", false));
        assertEquals("[3] PTR '(anon)' type_id=2\n", RawTextPrinter.toText(Relocator.relocate(pointersTo(dist), btf(b -> {
            b.addFwd("f", true);
            b.addFwd("f", false);
        }))));
        Problem p = onlyProblem(pointersTo(dist), btf(b -> b.addFwd("f", true)));
        assertEquals(Problem.Reason.KIND_DIFFERS, p.reason());
        assertEquals("FWD 'f' [1]: kind differs: new base has [1] FWD 'f' fwd_kind=union", p.message());
    }

    @Test
    void fwdMatchesAStructOrUnionByTheirOwnKindFlagAsLibbpfDoes() {
        Btf dist = btf(b -> b.addFwd("f", true)); // a union forward declaration
        Btf base = btf(b -> {
            b.addStruct("f", 4); // kind_flag clear: libbpf accepts it for any FWD
            b.addMember("x", 0, 0, 0);
        });
        assertEquals("[2] PTR '(anon)' type_id=1\n", RawTextPrinter.toText(Relocator.relocate(pointersTo(dist), base)));
        Btf unionWithoutBitfields = btf(b -> {
            b.addUnion("f", 4);
            b.addMember("x", 0, 0, 0);
        });
        assertEquals(Problem.Reason.KIND_DIFFERS, onlyProblem(pointersTo(dist), unionWithoutBitfields).reason());
    }

    @Test
    void structReferencedByPointerMatchesByNameWhateverItsSize() {
        Btf dist = btf(b -> b.addStruct("s", 8));
        Btf base = btf(b -> b.addStruct("s", 800));
        assertEquals("[2] PTR '(anon)' type_id=1\n", RawTextPrinter.toText(Relocator.relocate(pointersTo(dist), base)));
    }

    @Test
    void structMatchesAnyKindOfTheSameNameAsLibbpfDoes() {
        Btf dist = btf(b -> b.addStruct("s", 8));
        Btf base = btf(b -> b.addUnion("s", 8));
        assertEquals("[2] PTR '(anon)' type_id=1\n", RawTextPrinter.toText(Relocator.relocate(pointersTo(dist), base)));
    }

    @Test
    void severalStructsOfOneNameAreToldApartBySize() {
        Btf dist = btf(b -> b.addStruct("s", 8));
        Btf base = btf(b -> {
            b.addStruct("s", 16);
            b.addStruct("s", 8);
        });
        assertEquals("[3] PTR '(anon)' type_id=2\n", RawTextPrinter.toText(Relocator.relocate(pointersTo(dist), base)));
        Btf noneOfThatSize = btf(b -> {
            b.addStruct("s", 16);
            b.addUnion("s", 24);
        });
        Problem p = onlyProblem(pointersTo(dist), noneOfThatSize);
        assertEquals(Problem.Reason.SIZE_DIFFERS, p.reason());
        assertEquals("STRUCT 's' [1] size=8: size differs: new base has [1] STRUCT 's' size=16 and [2] UNION 's' size=24",
                p.message());
    }

    @Test
    void aStructEmbeddedByValueMustKeepItsSize() {
        Btf dist = btf(b -> {
            b.addStruct("device", 752);
            b.addInt("int", 4, Kind.INT_SIGNED);
        });
        // embedded through a typedef, a const and an array; a pointer member would not count
        Btf split = split(dist, s -> {
            int td = s.addTypedef("dev_t", 1); // 3
            int c = s.addConst(td); // 4
            int arr = s.addArray(c, 2, 2); // 5
            s.addStruct("holder", 2000); // 6
            s.addMember("devs", arr, 0, 0);
        });
        Btf base = btf(b -> {
            b.addInt("int", 4, Kind.INT_SIGNED);
            b.addStruct("device", 744);
        });
        Problem p = onlyProblem(split, base);
        assertEquals(Problem.Reason.SIZE_CHANGED_EMBEDDED, p.reason());
        assertEquals("STRUCT 'device' [1] size=752: size changed while embedded: embedded by value in split type [6] STRUCT"
                + " 'holder' size=2000, new base has [2] STRUCT 'device' size=744", p.message());

        Btf byPointer = split(dist, s -> {
            int ptr = s.addPtr(1);
            s.addStruct("holder", 8);
            s.addMember("dev", ptr, 0, 0);
        });
        assertEquals(base.typeCount(), Relocator.relocate(byPointer, base).firstId());
    }

    @Test
    void anEmbeddedStructPicksTheCandidateOfItsSize() {
        Btf dist = btf(b -> b.addStruct("s", 8));
        Btf split = split(dist, s -> {
            s.addStruct("holder", 8);
            s.addMember("s", 1, 0, 0);
        });
        Btf base = btf(b -> {
            b.addFwd("s", false); // FWD: no size, never embedded-compatible first
            b.addStruct("s", 8);
        });
        assertEquals("[3] STRUCT 'holder' size=8 vlen=1\n\t's' type_id=2 bits_offset=0\n",
                RawTextPrinter.toText(Relocator.relocate(split, base)));
    }

    @Test
    void twoEqualCandidatesAreAmbiguous() {
        Btf dist = btf(b -> b.addInt("int", 4, Kind.INT_SIGNED));
        Btf base = btf(b -> {
            b.addInt("int", 4, Kind.INT_SIGNED);
            b.addInt("int", 4, Kind.INT_SIGNED);
        });
        Problem p = onlyProblem(pointersTo(dist), base);
        assertEquals(Problem.Reason.AMBIGUOUS, p.reason());
        assertEquals("INT 'int' [1] size=4: several candidates: new base has [1] INT 'int' size=4 and [2] INT 'int' size=4",
                p.message());
    }

    @Test
    void aStructAndAFwdOfOneNameAreAmbiguousForAPointedToStruct() {
        Btf dist = btf(b -> b.addStruct("s", 8));
        Btf base = btf(b -> {
            b.addStruct("s", 8);
            b.addFwd("s", false);
        });
        assertEquals(Problem.Reason.AMBIGUOUS, onlyProblem(pointersTo(dist), base).reason());
    }

    @Test
    void aMissingTypeIsReported() {
        Btf dist = btf(b -> b.addStruct("gone", 8));
        Problem p = onlyProblem(pointersTo(dist), btf(b -> b.addInt("int", 4, 0)));
        assertEquals(Problem.Reason.MISSING, p.reason());
        assertEquals("STRUCT 'gone' [1] size=8: missing: the new base has no type of that name", p.message());
    }

    @Test
    void everyProblemIsReportedLibbpfsComplaintFirst() {
        Btf dist = btf(b -> {
            b.addStruct("a", 8); // 1: missing
            b.addInt("b", 4, 0); // 2: ambiguous (libbpf stops here, while walking the base)
            b.addStruct("c", 8); // 3: fine
            b.addFloat("d", 8); // 4: missing
        });
        Btf base = btf(b -> {
            b.addStruct("c", 8);
            b.addInt("b", 4, 0);
            b.addInt("b", 4, 0);
        });
        List<Problem> p = problems(pointersTo(dist), base);
        assertEquals(List.of("b AMBIGUOUS", "a MISSING", "d MISSING"),
                p.stream().map(x -> x.name() + " " + x.reason()).collect(Collectors.toList()));

        Btf unambiguous = btf(b -> {
            b.addStruct("c", 8);
            b.addInt("b", 4, 0);
        });
        assertEquals(List.of("a MISSING", "d MISSING"), problems(pointersTo(dist), unambiguous).stream()
                .map(x -> x.name() + " " + x.reason()).collect(Collectors.toList()), "without ambiguity: lowest id first");
    }

    @Test
    void aBaseThatIsNotDistilledIsRejected() {
        Btf full = btf(b -> {
            b.addInt("int", 4, Kind.INT_SIGNED);
            b.addPtr(1);
            b.addStruct("", 4);
        });
        List<Problem> p = problems(pointersTo(full), btf(b -> b.addInt("int", 4, Kind.INT_SIGNED)));
        assertEquals(List.of(Problem.Reason.INVALID_DISTILLED_TYPE, Problem.Reason.INVALID_DISTILLED_TYPE),
                p.stream().map(Problem::reason).collect(Collectors.toList()));
        assertEquals("PTR '(anon)' [2]: not a distilled base type: a distilled base holds only named INT, FLOAT, ENUM,"
                + " STRUCT, UNION and FWD types", p.get(0).message());
        assertTrue(p.get(1).message().endsWith("it is anonymous"));
    }

    @Test
    void inputsThatCannotBeRelocatedAtAll() {
        Btf dist = btf(b -> b.addInt("int", 4, Kind.INT_SIGNED));
        Btf split = pointersTo(dist);
        assertTrue(assertThrows(OperationException.class, () -> Relocator.relocate(dist, dist)).getMessage()
                .contains("standalone"));
        assertTrue(assertThrows(OperationException.class, () -> Relocator.relocate(split, dist)).getMessage()
                .contains("own base"));
        Btf splitOfSplit = pointersTo(split);
        assertTrue(assertThrows(OperationException.class, () -> Relocator.relocate(splitOfSplit, dist)).getMessage()
                .contains("itself split"));
    }

    @Test
    void aSharedIndexServesManyThreads() {
        Btf dist = btf(b -> {
            b.addInt("int", 4, Kind.INT_SIGNED);
            b.addStruct("s", 8);
        });
        Btf split = pointersTo(dist);
        BaseIndex index = BaseIndex.of(btf(b -> {
            for (int i = 0; i < 1000; i++) {
                b.addStruct("other" + i, i);
            }
            b.addStruct("s", 8);
            b.addInt("int", 4, Kind.INT_SIGNED);
        }));
        byte[] expected = BtfWriter.write(Relocator.relocate(split, index));
        List<byte[]> all = IntStream.range(0, 64).parallel().mapToObj(i -> BtfWriter.write(Relocator.relocate(split, index)))
                .collect(Collectors.toList());
        for (byte[] b : all) {
            assertArrayEquals(expected, b);
        }
        assertEquals(1002, index.nameCount());
    }

    @Test
    void aNamedNewBaseTypeWithAnEmptyNameIsLibbpfsVoidClash() {
        Btf dist = btf(b -> b.addInt("int", 4, Kind.INT_SIGNED));
        BtfBuilder nb = new BtfBuilder(null, "\0\0".getBytes());
        nb.addRaw(new int[] {1, Kind.info(Kind.FWD, 0, false), 0}, 0, 3); // FWD whose name offset holds ""
        nb.addInt("int", 4, Kind.INT_SIGNED);
        Problem p = onlyProblem(pointersTo(dist), nb.build());
        assertEquals(Problem.Reason.INVALID_NAME, p.reason());
        assertEquals("new base: empty name: new base type [1] FWD '(anon)' fwd_kind=struct has a name offset that holds the"
                + " empty string", p.message());
    }

    @Test
    void aSplitStringInTheDistilledBaseThatNoTypeNamesIsReported() {
        BtfBuilder db = new BtfBuilder(null, "\0int\0extra\0".getBytes());
        db.addInt("int", 4, Kind.INT_SIGNED);
        Btf dist = db.build();
        Btf split = split(dist, s -> {
            s.addStruct("holder", 4);
            s.addMember("extra", 1, 0, 0); // resolves to the distilled base's unused "extra"
        });
        assertEquals(5, split.extra(2, 0));
        Problem p = onlyProblem(split, btf(b -> b.addInt("int", 4, Kind.INT_SIGNED)));
        assertEquals(Problem.Reason.STRING_UNMAPPED, p.reason());
        assertEquals("string 'extra' of split type [2]: string not mapped: offset 5 is in the distilled base's strings, but no"
                + " distilled type with that name was mapped", p.message());
    }
}
