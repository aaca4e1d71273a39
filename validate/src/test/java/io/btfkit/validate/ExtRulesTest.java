package io.btfkit.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.TestData;
import io.btfkit.core.ext.BtfExt;
import io.btfkit.core.ext.BtfExtInfo;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The .BTF.ext record rules, on the clang sample and on damaged copies of its records. */
class ExtRulesTest {
    private static final Validator.Options ALL = Validator.Options.STRUCTURAL;

    private static LoadedInput sample() {
        return InputLoader.load(TestData.sample("bpf/task_trace.bpf.o"), null);
    }

    private static List<String> rules(List<Finding> f) {
        return f.stream().map(Finding::rule).distinct().toList();
    }

    @Test
    void theSampleObjectPasses() {
        LoadedInput li = sample();
        assertEquals(List.of(), Validator.validate(li.btf(), li.ext(), ALL));
    }

    @Test
    void funcInfoMustNameAFunc() {
        LoadedInput li = sample();
        Btf btf = li.btf();
        int notAFunc = 1;
        while (btf.kind(notAFunc) == Kind.FUNC) {
            notAFunc++;
        }
        int bad = notAFunc;
        BtfExt ext = li.ext().remap(id -> btf.kind(id) == Kind.FUNC ? bad : id, off -> off);
        List<Finding> f = Validator.validate(btf, ext, ALL);
        assertTrue(rules(f).contains("ext-func-type"), f.toString());
        assertTrue(f.get(0).toString().startsWith("btf: ext-func-type broken (func_info section '"), f.get(0).toString());
    }

    @Test
    void stringsMustBeStrings() {
        LoadedInput li = sample();
        int end = li.btf().strings().end();
        BtfExt ext = li.ext().remap(id -> id, off -> off == 0 ? 0 : end + 5);
        assertEquals(List.of("ext-string"), rules(Validator.validate(li.btf(), ext, ALL)));
    }

    @Test
    void coreRelocationsMustNameTypes() {
        LoadedInput li = sample();
        int count = li.btf().typeCount();
        BtfExt ext = li.ext().remap(id -> li.btf().kind(id) == Kind.FUNC ? id : count + 100, off -> off);
        assertTrue(rules(Validator.validate(li.btf(), ext, ALL)).contains("ext-core-type"));
    }

    @Test
    void lineInfoMustNotGoBackwards() {
        LoadedInput li = sample();
        BtfExtInfo lines = li.ext().lineInfo();
        BtfExtInfo.Builder b = new BtfExtInfo.Builder(BtfExtInfo.Kind.LINE_INFO, lines.recordSize())
                .section(lines.sectionNameOff(0));
        BtfExtInfo.LineInfo first = lines.lineInfo(0);
        b.record(first.insnOff() + 16, first.fileNameOff(), first.lineOff(), first.lineCol());
        b.record(first.insnOff() + 8, first.fileNameOff(), first.lineOff(), first.lineCol());
        BtfExt ext = BtfExt.of(li.ext().funcInfo(), b.build(), li.ext().coreRelo());
        List<Finding> f = Validator.validate(li.btf(), ext, ALL);
        assertEquals(List.of("ext-insn-order"), rules(f));
        assertTrue(f.get(0).toString().contains("insn_off " + (first.insnOff() + 8) + " before " + (first.insnOff() + 16)),
                f.get(0).toString());
    }

    @Test
    void everyExtRuleHasATest() {
        // the type rules are covered case by case in InvalidBtfCases; these four need a .BTF.ext
        assertEquals(List.of("ext-string", "ext-func-type", "ext-insn-order", "ext-core-type"),
                java.util.Arrays.stream(Rule.values()).filter(Rule::isExtRule).map(Rule::id).toList());
    }

    @Test
    void stopAtFirstGivesOne() {
        LoadedInput li = sample();
        int end = li.btf().strings().end();
        BtfExt ext = li.ext().remap(id -> id, off -> off == 0 ? 0 : end + 5);
        assertEquals(1, Validator.validate(li.btf(), ext, Validator.Options.STRUCTURAL.withStopAtFirst(true)).size());
    }
}
