package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.btfkit.core.Btf;
import io.btfkit.core.text.RawTextParser;
import org.junit.jupiter.api.Test;

/** The comparison {@link CyclicShapesProperties} makes of btfkit's and libbpf's dedup outputs. */
class EquivalentTypesTest {
    private static Btf btf(String text) {
        return RawTextParser.parse(text, null);
    }

    private static final String INT = "[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n";

    @Test
    void theSameTypesInAnotherOrderAreEquivalent() {
        Btf a = btf(INT + "[2] CONST '(anon)' type_id=3\n[3] TYPEDEF 'Foo' type_id=2\n[4] PTR '(anon)' type_id=3\n");
        Btf b = btf(INT + "[2] TYPEDEF 'Foo' type_id=3\n[3] CONST '(anon)' type_id=2\n[4] PTR '(anon)' type_id=2\n");
        assertNull(EquivalentTypes.difference(a, b));
    }

    @Test
    void ringsOfOtherLengthsAreEquivalentButNotTheSameCount() {
        // one CONST referring to itself and a ring of two CONSTs describe the same infinite type:
        // one class, one member on one side and two on the other
        Btf one = btf(INT + "[2] CONST '(anon)' type_id=2\n[3] PTR '(anon)' type_id=1\n");
        Btf two = btf(INT + "[2] CONST '(anon)' type_id=3\n[3] CONST '(anon)' type_id=2\n");
        assertNotNull(EquivalentTypes.difference(one, two));
    }

    @Test
    void aReferenceToAnotherTypeIsADifference() {
        Btf a = btf(INT + "[2] STRUCT 'node' size=8 vlen=1\n\t'next' type_id=3 bits_offset=0\n[3] PTR '(anon)' type_id=2\n");
        Btf b = btf(INT + "[2] STRUCT 'node' size=8 vlen=1\n\t'next' type_id=3 bits_offset=0\n[3] PTR '(anon)' type_id=1\n");
        assertNotNull(EquivalentTypes.difference(a, b));
        assertNull(EquivalentTypes.difference(a, a));
    }
}
