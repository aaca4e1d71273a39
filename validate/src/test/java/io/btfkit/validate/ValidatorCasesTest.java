package io.btfkit.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Each hand-made invalid BTF of {@link InvalidBtfCases} breaks exactly its rule, at its type. */
class ValidatorCasesTest {

    static Stream<InvalidBtfCases.Case> cases() {
        return InvalidBtfCases.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void reportsExactlyTheRuleAtTheType(InvalidBtfCases.Case c) {
        List<Finding> found = Validator.validate(c.btf().get(), new Validator.Options(false, c.profile()));
        assertEquals(1, found.size(), () -> "expected one " + c.rule().id() + " finding, got " + found);
        Finding f = found.get(0);
        assertEquals(c.rule().id(), f.rule(), f::toString);
        assertEquals(c.typeId(), f.typeId(), f::toString);
        assertEquals(c.rule(), f.ruleConstant());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void stopAtFirstReportsTheSameFinding(InvalidBtfCases.Case c) {
        List<Finding> found = Validator.validate(c.btf().get(), new Validator.Options(true, c.profile()));
        assertEquals(1, found.size(), found::toString);
        assertEquals(c.rule().id(), found.get(0).rule());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void structuralProfileReportsOnlyStructuralRules(InvalidBtfCases.Case c) {
        List<Finding> found = Validator.validate(c.btf().get(), Validator.Options.STRUCTURAL);
        assertTrue(found.stream().noneMatch(f -> f.ruleConstant().kernelOnly()), found::toString);
        if (!c.structuralToo()) {
            assertEquals(List.of(), found.stream().filter(f -> f.rule().equals(c.rule().id())).collect(Collectors.toList()));
        } else {
            assertTrue(found.stream().anyMatch(f -> f.rule().equals(c.rule().id())), () -> "structural profile missed it: " + found);
        }
    }

    @Test
    void tableCoversEveryRule() {
        Set<Rule> covered = EnumSet.noneOf(Rule.class);
        InvalidBtfCases.all().forEach(c -> covered.add(c.rule()));
        Set<Rule> typeRules = EnumSet.allOf(Rule.class);
        typeRules.removeIf(Rule::isExtRule); // need a .BTF.ext: ExtRulesTest
        assertEquals(typeRules, covered, "rules without a case");
        assertTrue(InvalidBtfCases.all().size() >= 40);
    }
}
