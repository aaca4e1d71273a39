package io.btfkit.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.text.RawTextParser;
import io.btfkit.core.text.RawTextPrinter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The context rule (DEDUP.md rule 2) on whole inputs: modules linked on their vmlinux, each
 * many units already deduplicated, where one declaration node stands for every unit of its
 * module that declared the name. A declaration is resolved only when every type of its module
 * that reaches it is proven; one case per shape, the first being the shape of the 12 names the
 * Debian modules link resolves ({@code l2t_data} under {@code cxgb4_lld_info}, ...).
 */
class WholeInputContextTest {
    /** The vmlinux of the cases. */
    private static final String BASE = """
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] INT 'long' size=8 bits_offset=0 nr_bits=64 encoding=SIGNED
            """;
    /** A module whose 'holder' only declares 'foo' (ath.ko's 'ath_common' and 'ath_bus_ops'). */
    private static final String DECLARES = """
            [3] FWD 'foo' fwd_kind=struct
            [4] PTR '(anon)' type_id=3
            [5] STRUCT 'holder' size=8 vlen=1
            \t'p' type_id=4 bits_offset=0
            """;
    /** A module whose 'holder' holds the 4-byte 'foo'. */
    private static final String HOLDS_FOUR = """
            [3] STRUCT 'foo' size=4 vlen=1
            \t'x' type_id=1 bits_offset=0
            [4] PTR '(anon)' type_id=3
            [5] STRUCT 'holder' size=8 vlen=1
            \t'p' type_id=4 bits_offset=0
            """;
    /** A module defining the other, 8-byte 'foo' (the name is ambiguous: rule 3 cannot decide). */
    private static final String EIGHT = """
            [3] STRUCT 'foo' size=8 vlen=1
            \t'y' type_id=2 bits_offset=0
            """;
    /** A module whose 'holder' holds the 8-byte 'foo' (ath5k's 'ath_common' beside ath9k's). */
    private static final String HOLDS_EIGHT = """
            [3] STRUCT 'foo' size=8 vlen=1
            \t'y' type_id=2 bits_offset=0
            [4] PTR '(anon)' type_id=3
            [5] STRUCT 'holder' size=8 vlen=1
            \t'p' type_id=4 bits_offset=0
            """;

    private static String link(String... modules) {
        Btf base = RawTextParser.parse(BASE.stripIndent(), null);
        List<Btf> in = new ArrayList<>();
        for (String m : modules) {
            in.add(RawTextParser.parse(m.stripIndent(), base));
        }
        return RawTextPrinter.toText(Deduplicator.link(in, BaseIndex.of(base), Deduplicator.Options.LINK).btf());
    }

    @Test
    void aDeclarationEveryUseOfWhichIsProvenResolves() {
        // the first module's 'holder' is the second's: its 'foo' is the 4-byte one, and with it
        // the pointer and 'holder' merge (the first module's, the lowest ids, are kept)
        assertEquals("""
                [3] PTR '(anon)' type_id=5
                [4] STRUCT 'holder' size=8 vlen=1
                \t'p' type_id=3 bits_offset=0
                [5] STRUCT 'foo' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0
                [6] STRUCT 'foo' size=8 vlen=1
                \t'y' type_id=2 bits_offset=0
                """, link(DECLARES, HOLDS_FOUR, EIGHT));
    }

    @Test
    void aDeclarationUnderATypedefAndAStructBothProvenResolves() {
        // 'foo_fn' (a pointer to a function of a 'struct foo *') is one definition as 'holder' is
        String declares = """
                [3] FWD 'foo' fwd_kind=struct
                [4] PTR '(anon)' type_id=3
                [5] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1
                \t'(anon)' type_id=4
                [6] PTR '(anon)' type_id=5
                [7] TYPEDEF 'foo_fn' type_id=6
                [8] STRUCT 'holder' size=16 vlen=2
                \t'p' type_id=4 bits_offset=0
                \t'fn' type_id=7 bits_offset=64
                """;
        String holds = """
                [3] STRUCT 'foo' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0
                [4] PTR '(anon)' type_id=3
                [5] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1
                \t'(anon)' type_id=4
                [6] PTR '(anon)' type_id=5
                [7] TYPEDEF 'foo_fn' type_id=6
                [8] STRUCT 'holder' size=16 vlen=2
                \t'p' type_id=4 bits_offset=0
                \t'fn' type_id=7 bits_offset=64
                """;
        String out = link(declares, holds, EIGHT);
        assertTrue(!out.contains("FWD"), out);
        assertEquals(7, RawTextParser.parse(out, RawTextParser.parse(BASE.stripIndent(), null)).ownTypeCount(), out);
    }

    @Test
    void aVariableOfTheModuleHoldingTheDeclarationIsAUseNothingProves() {
        // 'v' may be another unit's, meaning the 8-byte 'foo': the module's bytes are the same
        String out = link(DECLARES + "[6] VAR 'v' type_id=4, linkage=global\n", HOLDS_FOUR, EIGHT);
        assertTrue(out.contains("[3] FWD 'foo'"), out);
    }

    @Test
    void aFunctionOnlyThisModuleHasIsAUseNothingProves() {
        String out = link(DECLARES + """
                [6] FUNC_PROTO '(anon)' ret_type_id=0 vlen=1
                \t'f' type_id=4
                [7] FUNC 'g' type_id=6 linkage=static
                """, HOLDS_FOUR, EIGHT);
        assertTrue(out.contains("[3] FWD 'foo'"), out);
    }

    @Test
    void anUnnamedTypeNothingRefersToIsAUseNothingProves() {
        // a pointer to the pointer, referred to by nothing (a unit's local variable type)
        String out = link(DECLARES + "[6] CONST '(anon)' type_id=4\n", HOLDS_FOUR, EIGHT);
        assertTrue(out.contains("[3] FWD 'foo'"), out);
    }

    @Test
    void aStructOnlyThisModuleHasIsAUseNothingProves() {
        // 'other' is in no other module: nothing says which 'foo' its unit meant
        String out = link(DECLARES + """
                [6] STRUCT 'other' size=8 vlen=1
                \t'q' type_id=4 bits_offset=0
                """, HOLDS_FOUR, EIGHT);
        assertTrue(out.contains("[3] FWD 'foo'"), out);
    }

    @Test
    void modulesDisagreeingAboutTheEnclosingDefinitionResolveNothing() {
        // ath.ko's 'ath_common' declares 'ath_bus_ops'; ath5k's holds a 32-byte one, ath9k's a
        // 40-byte one: both are right for their module, so ath.ko's means neither alone
        String out = link(DECLARES, HOLDS_FOUR, HOLDS_EIGHT);
        assertTrue(out.contains("[3] FWD 'foo'"), out);
    }

    @Test
    void aDedupOfOneModuleOnItsBaseIsNotALinkOfWholeInputs() {
        // the rule needs two or more inputs: a split dedup of one module is what it was (the
        // base's 'holder' holds the 4-byte 'foo', and the module's declaration stays)
        Btf base = RawTextParser.parse(BASE.stripIndent() + """
                [3] STRUCT 'foo' size=4 vlen=1
                \t'x' type_id=1 bits_offset=0
                [4] PTR '(anon)' type_id=3
                [5] STRUCT 'holder' size=8 vlen=1
                \t'p' type_id=4 bits_offset=0
                [6] STRUCT 'foo' size=8 vlen=1
                \t'y' type_id=2 bits_offset=0
                """, null);
        Btf module = RawTextParser.parse("""
                [7] FWD 'foo' fwd_kind=struct
                [8] PTR '(anon)' type_id=7
                [9] STRUCT 'holder' size=8 vlen=1
                \t'p' type_id=8 bits_offset=0
                """, base);
        String out = RawTextPrinter.toText(Deduplicator.dedup(module, BaseIndex.of(base)).btf());
        assertTrue(out.contains("[7] FWD 'foo'"), out);
    }
}
