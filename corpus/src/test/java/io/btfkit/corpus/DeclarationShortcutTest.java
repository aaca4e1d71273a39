package io.btfkit.corpus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.dedup.Deduplicator;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * The dedup of a standalone program resolves declarations without the definitions pass when
 * each declared name has at most one full tag: the bytes are those of the full resolution, on
 * programs with declarations of defined, undefined, doubly defined and kind-mismatched names.
 */
class DeclarationShortcutTest {
    @Property(tries = 300)
    void theShortcutGivesTheBytesOfTheDefinitionsPass(@ForAll long seed, @ForAll @IntRange(min = 1, max = 12) int names,
                                                      @ForAll boolean allowDoubles) {
        Btf x = program(new SplittableRandom(seed), names, allowDoubles);
        byte[] shortcut = BtfWriter.write(Deduplicator.dedup(x).btf());
        String before = System.getProperty("btfkit.dedup.definitions");
        System.setProperty("btfkit.dedup.definitions", "always");
        try {
            byte[] full = BtfWriter.write(Deduplicator.dedup(x).btf());
            assertArrayEquals(full, shortcut);
        } finally {
            if (before == null) {
                System.clearProperty("btfkit.dedup.definitions");
            } else {
                System.setProperty("btfkit.dedup.definitions", before);
            }
        }
        Statistics.label("output smaller than input").collect(BtfWriter.write(x).length > shortcut.length);
    }

    /**
     * Tag names each defined zero, one or (with {@code allowDoubles}) two times as a struct or a
     * union, declared by FWDs of either kind, enums defined or declared likewise, pointers to all
     * of them, and structs whose members point around (cycles through the pointers).
     */
    static Btf program(SplittableRandom r, int names, boolean allowDoubles) {
        record Def(String name, int kind, int size) {
        }
        List<Def> tags = new ArrayList<>();
        List<Def> fwds = new ArrayList<>();
        List<Def> enums = new ArrayList<>();
        List<String> enumFwds = new ArrayList<>();
        for (int i = 0; i < names; i++) {
            String n = "t" + i;
            int defs = r.nextInt(allowDoubles ? 3 : 2);
            for (int d = 0; d < defs; d++) {
                tags.add(new Def(n, r.nextInt(4) == 0 ? Kind.UNION : Kind.STRUCT, 8 * (1 + r.nextInt(3))));
            }
            for (int f = r.nextInt(3); f > 0; f--) {
                fwds.add(new Def(n, r.nextInt(4) == 0 ? Kind.UNION : Kind.STRUCT, 0));
            }
            String e = "e" + i;
            int edefs = r.nextInt(allowDoubles ? 3 : 2);
            for (int d = 0; d < edefs; d++) {
                enums.add(new Def(e, r.nextBoolean() ? Kind.ENUM : Kind.ENUM64, 4 + 4 * r.nextInt(2)));
            }
            if (r.nextBoolean()) {
                enumFwds.add(e);
            }
        }
        // ids: int, tags, fwds, enums, enum declarations, then a pointer to each tag and fwd
        int firstTag = 2;
        int firstFwd = firstTag + tags.size();
        int firstPtr = firstFwd + fwds.size() + enums.size() + enumFwds.size();
        int pointers = tags.size() + fwds.size();
        BtfBuilder b = new BtfBuilder();
        int intId = b.addInt("int", 4, Kind.INT_SIGNED);
        for (Def t : tags) {
            if (t.kind() == Kind.UNION) {
                b.addUnion(t.name(), t.size());
            } else {
                b.addStruct(t.name(), t.size());
            }
            for (int m = 0, count = 1 + r.nextInt(3); m < count; m++) {
                int type = pointers > 0 && r.nextBoolean() ? firstPtr + r.nextInt(pointers) : intId;
                b.addMember("m" + m, type, t.kind() == Kind.UNION ? 0 : 64 * m, 0);
            }
        }
        for (Def f : fwds) {
            b.addFwd(f.name(), f.kind() == Kind.UNION);
        }
        for (Def e : enums) {
            if (e.kind() == Kind.ENUM) {
                b.addEnum(e.name(), e.size(), false);
            } else {
                b.addEnum64(e.name(), 8, false);
            }
            b.addEnumValue(e.name() + "_a", r.nextInt(3));
        }
        for (String e : enumFwds) {
            b.addEnum(e, 4, false);
        }
        for (int p = 0; p < pointers; p++) {
            b.addPtr(firstTag + p);
        }
        for (int i = 0; i < enums.size() + enumFwds.size(); i++) {
            b.addTypedef("td" + i, firstFwd + fwds.size() + i);
        }
        return b.build();
    }
}
