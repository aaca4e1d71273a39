package io.btfkit.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.text.RawTextParser;
import java.util.List;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;

/** An output may carry what its input carried: {@link OutputCheck} tells carried findings from introduced ones. */
class OutputCheckTest {
    private static Btf parse(String text) {
        return RawTextParser.parse(text.stripIndent(), null);
    }

    private static OutputCheck.Source source(String label, Btf in, IntUnaryOperator map) {
        return new OutputCheck.Source(label, () -> in, map);
    }

    private static final String INT = "[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n";

    @Test
    void aValidOutputCarriesNothingAndDoesNotReadItsInputs() {
        Btf out = parse(INT);
        assertEquals(List.of(), OutputCheck.check(out, List.of(new OutputCheck.Source("in", () -> {
            throw new AssertionError("inputs are read only when the output has findings");
        }, IntUnaryOperator.identity()))));
    }

    @Test
    void aFindingTheOperationIntroducedIsAnError() {
        Btf in = parse(INT + "[2] PTR '(anon)' type_id=1\n");
        Btf out = parse(INT + "[2] PTR '(anon)' type_id=2\n");
        ValidationException e = assertThrows(ValidationException.class,
                () -> OutputCheck.check(out, List.of(source("in", in, IntUnaryOperator.identity()))));
        assertEquals("output BTF is invalid, not written: type [2] PTR '(anon)': loop broken (reference cycle [2] PTR -> [2])",
                e.getMessage());
    }

    @Test
    void aModifierCycleTheInputHadIsCarriedWithItsInputIds() {
        String c3 = """
                [1] CONST '(anon)' type_id=0
                [2] CONST '(anon)' type_id=3
                [3] CONST '(anon)' type_id=2
                """;
        Btf in = parse(c3);
        Btf out = parse("""
                [1] CONST '(anon)' type_id=0
                [2] CONST '(anon)' type_id=2
                """);
        List<OutputCheck.Carried> c = OutputCheck.check(out, List.of(source("c3.btf", in, id -> id == 3 ? 2 : id)));
        assertEquals(1, c.size());
        assertEquals("c3.btf", c.get(0).label());
        assertEquals("output carries the input's modifier cycle [2] CONST -> [3] CONST -> [2] (the kernel rejects it)",
                c.get(0).message());
    }

    @Test
    void aDependentsFindingNamesTheDefectItReachesNotTheInputsFirst() {
        // GCC 12 objects: a VAR of a struct the unit only declares, whose FWD the repair makes
        // valid, so that the VAR itself becomes what the kernel rejects; the input had other
        // broken types before it, and the warning named the first of them
        Btf in = parse("""
                [1] INT 'a' size=4 bits_offset=0 nr_bits=40 encoding=(none)
                [2] INT 'b' size=4 bits_offset=0 nr_bits=40 encoding=(none)
                [3] VAR 'v' type_id=2, linkage=global
                """);
        Btf out = parse("""
                [1] INT 'a' size=4 bits_offset=0 nr_bits=32 encoding=(none)
                [2] FWD 'b' fwd_kind=struct
                [3] VAR 'v' type_id=2, linkage=global
                """);
        List<OutputCheck.Carried> c = OutputCheck.check(out, List.of(source("o.o", in, IntUnaryOperator.identity())));
        assertEquals(1, c.size(), c.toString());
        assertTrue(c.get(0).message().startsWith("output carries the input's type [2] INT 'b': "), c.get(0).message());
    }

    @Test
    void aCycleReportedFromAnotherTypeAfterReorderingIsStillTheInputsCycle() {
        // the validator reports a cycle at the type its walk started from: [1] here, which the
        // reordering moves off the cycle's path
        Btf in = parse("""
                [1] CONST '(anon)' type_id=2
                [2] CONST '(anon)' type_id=3
                [3] CONST '(anon)' type_id=2
                """);
        Btf out = parse("""
                [1] CONST '(anon)' type_id=2
                [2] CONST '(anon)' type_id=1
                [3] CONST '(anon)' type_id=2
                """);
        List<OutputCheck.Carried> c = OutputCheck.check(out, List.of(source("in", in, id -> 4 - id)));
        assertEquals(1, c.size(), c.toString());
        assertTrue(c.get(0).message().contains("modifier cycle [2] CONST -> [3] CONST -> [2]"), c.get(0).message());
    }

    @Test
    void eachInputOfALinkAnswersForItsOwnTypes() {
        Btf a = parse(INT);
        Btf b = parse("[1] PTR '(anon)' type_id=1\n");
        Btf out = parse(INT + "[2] PTR '(anon)' type_id=2\n");
        List<OutputCheck.Carried> c = OutputCheck.check(out, List.of(source("a", a, id -> id), source("b", b, id -> id + 1)));
        assertEquals(1, c.size());
        assertEquals("b", c.get(0).label());
        assertEquals("output carries the input's reference cycle [1] PTR -> [1] (the kernel rejects it)", c.get(0).message());
        // the same output claimed to come from a's types: a had no cycle, so it is introduced
        assertThrows(ValidationException.class,
                () -> OutputCheck.check(out, List.of(source("a", a, id -> id + 1), source("b", b, id -> id))));
    }

    @Test
    void otherRulesMatchByRuleAndMappedType() {
        // Go's `type Foo func() Foo`: the prototype's return type has no size
        Btf in = parse("""
                [1] TYPEDEF 'Foo' type_id=2
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=0
                [3] TYPEDEF 'Foo' type_id=4
                [4] FUNC_PROTO '(anon)' ret_type_id=3 vlen=0
                """);
        Btf out = parse("""
                [1] TYPEDEF 'Foo' type_id=2
                [2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=0
                """);
        List<OutputCheck.Carried> c = OutputCheck.check(out, List.of(source("go.btf", in, id -> id > 2 ? id - 2 : id)));
        assertEquals(1, c.size());
        assertTrue(c.get(0).message().startsWith("output carries the input's type [2] FUNC_PROTO '(anon)': proto-return broken"),
                c.get(0).message());
        // from an input whose type there was sound (and depended on nothing broken), it is new
        Btf in2 = parse(INT);
        assertThrows(ValidationException.class,
                () -> OutputCheck.check(out, List.of(source("go.btf", in2, id -> 2))));
    }

    @Test
    void aTypeBrokenInTheInputMayBreakDifferentlyOnceADeclarationIsResolved() {
        // a struct whose member is a declaration of itself (no size) becomes, once dedup
        // resolves the declaration, a struct containing itself: another rule, the same defect
        Btf in = parse("""
                [1] STRUCT 'node' size=8 vlen=1
                \t'next' type_id=2 bits_offset=0
                [2] FWD 'node' fwd_kind=struct
                [3] PTR '(anon)' type_id=1
                """);
        Btf out = parse("""
                [1] STRUCT 'node' size=8 vlen=1
                \t'next' type_id=1 bits_offset=0
                [2] PTR '(anon)' type_id=1
                """);
        List<OutputCheck.Carried> c = OutputCheck.check(out, List.of(source("in", in, id -> id == 3 ? 2 : 1)));
        assertEquals(1, c.size(), c.toString());
        assertTrue(c.get(0).message().contains("member-type broken"), c.get(0).message());
        // a rule about a type's own words must match exactly: the pointer to the broken struct
        // depended on it, yet a FWD with a type word in its place is a new defect
        Btf local = parse("""
                [1] STRUCT 'node' size=8 vlen=1
                \t'next' type_id=1 bits_offset=0
                [2] FWD 'x' fwd_kind=struct type=6
                """);
        assertThrows(ValidationException.class, () -> OutputCheck.check(local, List.of(source("in", in, id -> id == 3 ? 2 : 1))));
    }

    @Test
    void aTypeTheValidatorSkippedForDependingOnACycleMayBeReportedLater() {
        // [1]'s parameter reaches the cycle [3] <-> [4] that the walk from [2] reported: the
        // validator says nothing about [1]; reordered, the walk may report [1] itself
        Btf in = parse("""
                [1] FUNC_PROTO '(anon)' ret_type_id=0 vlen=1
                \t'p' type_id=3
                [2] CONST '(anon)' type_id=3
                [3] VOLATILE '(anon)' type_id=4
                [4] CONST '(anon)' type_id=3
                """);
        List<Finding> f = Validator.validate(in, Validator.Options.STRUCTURAL);
        assertEquals(1, f.size(), f.toString());
        Btf out = parse("""
                [1] VOLATILE '(anon)' type_id=2
                [2] CONST '(anon)' type_id=1
                [3] FUNC_PROTO '(anon)' ret_type_id=0 vlen=1
                \t'p' type_id=1
                [4] CONST '(anon)' type_id=1
                """);
        int[] map = {0, 3, 4, 1, 2};
        List<OutputCheck.Carried> c = OutputCheck.check(out, List.of(source("in", in, id -> map[id])));
        assertTrue(!c.isEmpty(), "carried");
    }

    @Test
    void aByValueCycleTheInputsOrderHidFromTheWalkIsTheInputsCycle() {
        // the kernel resolves in id order: the PTR resolves RESTRICT -> UNION first (a struct
        // ends a pointer's walk), so the UNION's walk later finds its member resolved and no
        // loop; renumbered with the UNION first, the same cycle is reported
        Btf in = parse(INT + """
                [2] PTR '(anon)' type_id=3
                [3] RESTRICT '(anon)' type_id=4
                [4] UNION 'u' size=4 vlen=2
                \t'a' type_id=1 bits_offset=0
                \t'b' type_id=3 bits_offset=0
                """);
        assertEquals(List.of(), Validator.validate(in, Validator.Options.STRUCTURAL));
        Btf out = parse(INT + """
                [2] UNION 'u' size=4 vlen=2
                \t'a' type_id=1 bits_offset=0
                \t'b' type_id=3 bits_offset=0
                [3] RESTRICT '(anon)' type_id=2
                [4] PTR '(anon)' type_id=3
                """);
        int[] map = {0, 1, 4, 3, 2};
        List<OutputCheck.Carried> c = OutputCheck.check(out, List.of(source("in", in, id -> map[id])));
        assertEquals(1, c.size());
        assertEquals("output carries the input's reference cycle through [4] UNION (which the input's order of types hid"
                + " from the kernel's walk) (the kernel rejects it)", c.get(0).message());
        // the cycle must be the input's: a union of its own in the input does not do
        Btf other = parse(INT + """
                [2] PTR '(anon)' type_id=3
                [3] RESTRICT '(anon)' type_id=1
                [4] UNION 'u' size=4 vlen=2
                \t'a' type_id=1 bits_offset=0
                \t'b' type_id=3 bits_offset=0
                """);
        assertThrows(ValidationException.class, () -> OutputCheck.check(out, List.of(source("in", other, id -> map[id]))));
    }

    @Test
    void aSplitInputsBaseCycleReachedFromTheSplitIsAFindingNotACrash() {
        // a base carrying a modifier cycle (the base is trusted, but not blindly): the split
        // PTR into it gets a finding; the validator's walk of base chains ends on the loop
        Btf base = parse(INT + "[2] CONST '(anon)' type_id=3\n[3] VOLATILE '(anon)' type_id=2\n");
        Btf split = RawTextParser.parse("[4] CONST '(anon)' type_id=2\n", base);
        List<Finding> f = Validator.validate(split, Validator.Options.STRUCTURAL);
        assertEquals(1, f.size(), f.toString());
        assertEquals("ref-target", f.get(0).rule());
    }
}
