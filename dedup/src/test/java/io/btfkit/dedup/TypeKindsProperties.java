package io.btfkit.dedup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.Kind;
import io.btfkit.core.TestData;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The passes that pick declarations, full tags and enclosing definitions out of every merged
 * type test its {@link TypeKinds} byte instead of its words: each test on the byte answers as
 * the test on the words does, for every kind (those past the reader's too), name, vlen and
 * kind_flag, and the merge gives every type its byte.
 */
class TypeKindsProperties {
    @Property(tries = 2000)
    void eachTestOnTheByteAnswersAsTheTestOnTheWords(@ForAll @IntRange(min = 0, max = 127) int kind,
                                                     @ForAll boolean named, @ForAll @IntRange(min = 0, max = 3) int vlen,
                                                     @ForAll boolean kindFlag, @ForAll boolean shared) {
        int name = named ? 17 : 0;
        int[] w = {0, 0, name, Kind.info(kind, vlen == 3 ? 0xffffff : vlen, kindFlag), 0};
        int s = 2;
        byte k = TypeKinds.of(w, s);
        assertEquals(w[s] != 0 && Declarations.isDeclaration(w, s), TypeKinds.isNamedDeclaration(k), "declaration");
        assertEquals(Declarations.isDeclaration(w, s), TypeKinds.isDeclaration(k), "declaration, any name");
        assertEquals(Definitions.ByName.isFullTag(w, s), TypeKinds.isFullTag(k), "full tag");
        assertEquals(Definitions.tagOf(w, s) >= 0, TypeKinds.isNamedTag(k), "tag");
        assertEquals(Kind.kindOf(w[s + 1]) == Kind.FUNC, TypeKinds.kind(k) == Kind.FUNC, "function");
        assertEquals(Kind.kindOf(w[s + 1]) == Kind.FWD, TypeKinds.kind(k) == Kind.FWD, "forward");
        IntOpenHashSet functions = new IntOpenHashSet();
        if (shared) {
            functions.add(name);
        }
        ContextResolver.Enclosing enclosing = ContextResolver.Enclosing.withSharedFunctions(functions);
        int info = w[s + 1];
        boolean expected = name != 0 && (Kind.isComposite(Kind.kindOf(info)) && Kind.vlenOf(info) > 0
                || Kind.kindOf(info) == Kind.TYPEDEF || Kind.kindOf(info) == Kind.FUNC && shared);
        assertEquals(expected, enclosing.is(k, w, s), "enclosing definition");
        assertEquals(expected, enclosing.is(w, s), "enclosing definition, from the words");
    }

    /** Every merged type's byte is the one its words give, in any rounds (the merge shifts a round's units in parallel). */
    @Test
    void theMergeGivesEveryTypeItsByte() {
        Btf base = BtfReader.read(TestData.bytes(TestData.golden("vmlinux-6.1.0-56.btf")));
        List<Btf> modules = new java.util.ArrayList<>();
        for (String m : List.of("ocfs2", "mlx4_core", "gameport")) {
            modules.add(BtfReader.read(TestData.bytes(TestData.golden("modules/" + m + ".btf")), base));
        }
        for (int round : new int[] {1, 2, modules.size()}) {
            Merger.Merged m = Merger.merge(modules, null, base, false, round);
            assertEquals(m.starts.length - 1, m.kinds.length);
            assertArrayEquals(TypeKinds.of(m.words, m.starts), m.kinds, "rounds of " + round);
        }
        Merger.Merged vmlinux = Merger.merge(List.of(base), null);
        assertArrayEquals(TypeKinds.of(vmlinux.words, vmlinux.starts), vmlinux.kinds, "a standalone merge");
    }
}
