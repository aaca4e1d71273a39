package io.btfkit.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.Kind;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The validator is total: on any BTF the model can hold (arbitrary kinds, counts, ids, offsets,
 * cycles) it returns findings and never throws, and stopping at the first finding agrees with
 * listing all on whether the BTF is valid.
 */
class ValidatorPropertiesTest {
    /** One type as words: name offset, info, size/type, extras. */
    @Provide
    Arbitrary<List<int[]>> soups() {
        Arbitrary<Integer> word = Arbitraries.of(0, 1, 2, 3, 4, 5, 7, 8, 16, 32, 64, 128, -1, -2, 0x7fffffff, 0x01000020,
                0x80000000);
        Arbitrary<int[]> type = Combinators.combine(
                Arbitraries.integers().between(0, 22),
                Arbitraries.integers().between(0, 3),
                Arbitraries.of(true, false),
                Arbitraries.of(0, 1, 3, 5, 9, 1000),
                word.array(int[].class).ofSize(12))
                .as((kind, vlen, kflag, name, extra) -> {
                    int n = Kind.isKnown(kind) ? (int) Kind.typeWords(kind, vlen) : 3;
                    int[] w = new int[n];
                    w[0] = name;
                    w[1] = Kind.info(kind, vlen, kflag);
                    for (int i = 2; i < n; i++) {
                        w[i] = extra[i - 2];
                    }
                    return w;
                });
        return type.list().ofMinSize(0).ofMaxSize(12);
    }

    /**
     * A large BTF runs its field rules beside the other passes: the findings are those of the
     * passes in order, whatever defects the soup holds (types the field rules fail that the
     * resolution would trip over, cycles, kernel-only findings) and wherever it sits among
     * valid types.
     */
    @Property(tries = 40)
    void concurrentPassesFindWhatPassesInOrderFind(@ForAll("soups") List<int[]> types,
                                                    @ForAll @net.jqwik.api.constraints.IntRange(max = 3) int where) {
        BtfBuilder b = new BtfBuilder();
        b.addString("a");
        b.addString("b c");
        int filler = Validator.CONCURRENT_FROM;
        int before = filler * where / 3;
        int i = b.addInt("int", 4, 1);
        for (int k = 1; k < before; k++) {
            b.addPtr(i + k - 1);
        }
        int soupFirst = b.nextId();
        for (int[] w : types) {
            int[] c = w.clone();
            // the soup's small ids point into the soup, as in the plain property
            if (c.length > 2 && Kind.isKnown(Kind.kindOf(c[1])) && c[2] > 0 && c[2] < 16) {
                c[2] += soupFirst - 1;
            }
            b.addRaw(c, 0, c.length);
        }
        for (int k = before; k < filler; k++) {
            b.addConst(i);
        }
        Btf btf = b.build();
        for (Validator.Profile p : Validator.Profile.values()) {
            for (boolean stop : new boolean[] {false, true}) {
                Validator.Options o = new Validator.Options(stop, p);
                assertEquals(Validator.validateInOrder(btf, o).toString(), Validator.validate(btf, o).toString());
            }
        }
    }

    @Property(tries = 400)
    void neverThrowsAndAgreesOnValidity(@ForAll("soups") List<int[]> types) {
        BtfBuilder b = new BtfBuilder();
        b.addString("a");
        b.addString("b c");
        for (int[] w : types) {
            b.addRaw(w, 0, w.length);
        }
        Btf btf = b.build();
        for (Validator.Profile p : Validator.Profile.values()) {
            List<Finding> all = Validator.validate(btf, new Validator.Options(false, p));
            List<Finding> first = Validator.validate(btf, new Validator.Options(true, p));
            assertTrue(first.size() <= 1);
            assertEquals(all.isEmpty(), first.isEmpty(), () -> all + " vs " + first);
            for (Finding f : all) {
                assertTrue(f.typeId() >= -1 && f.typeId() < btf.typeCount(), f::toString);
                assertTrue(p == Validator.Profile.KERNEL || !f.ruleConstant().kernelOnly(), f::toString);
                assertTrue(!f.toString().isEmpty());
            }
        }
    }
}
