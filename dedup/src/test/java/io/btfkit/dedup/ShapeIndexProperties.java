package io.btfkit.dedup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The shape index against a plain model: the lock holder sees every class added, newest first;
 * a reader without the lock sees exactly those of published (finished) components, and is told
 * it cannot tell (-1) when the newest class of a shape is not published yet — never a class
 * whose component is still being made. Few distinct hashes make long chains and shared slots;
 * hundreds of adds make the arrays and the heads' table grow.
 */
class ShapeIndexProperties {
    /** An add of class (index) of shape {@code hash}, or a publish when hash is null. */
    record Step(Long hash) {
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Step> add = Arbitraries.longs().between(0, 40).map(h -> new Step(h * 0x100000001L - 7));
        Arbitrary<Step> publish = Arbitraries.just(new Step(null));
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(6, add), net.jqwik.api.Tuple.of(1, publish))
                .list().ofMinSize(1).ofMaxSize(600);
    }

    @Property(tries = 200)
    void readersSeeFinishedComponentsOnly(@ForAll("steps") List<Step> steps) {
        ShapeIndex index = new ShapeIndex();
        Map<Long, List<Integer>> all = new HashMap<>(); // hash -> classes, newest first
        int added = 0;
        int published = 0;
        for (Step s : steps) {
            if (s.hash() == null) {
                index.publish();
                published = added;
            } else {
                int c = 1000 + added++;
                index.add(c, s.hash());
                all.computeIfAbsent(s.hash(), h -> new ArrayList<>()).add(0, c);
            }
            for (Map.Entry<Long, List<Integer>> e : all.entrySet()) {
                List<Integer> cls = e.getValue();
                long h = e.getKey();
                assertEquals(cls.size(), index.count(h, true));
                int[] out = new int[cls.size()];
                assertEquals(cls.size(), index.candidates(h, true, out, 0));
                assertArrayEquals(cls.stream().mapToInt(Integer::intValue).toArray(), out);
                boolean newestFinished = cls.get(0) - 1000 < published;
                assertEquals(newestFinished ? cls.size() : -1, index.count(h, false), "shape " + h);
                assertEquals(newestFinished ? cls.size() : -1, index.candidates(h, false, new int[cls.size()], 0));
            }
            assertEquals(0, index.count(12345L, true));
            assertEquals(0, index.count(12345L, false));
        }
    }
}
