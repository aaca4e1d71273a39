package io.btfkit.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.StringTable;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The interning pool on a base gives a string of the base the offset {@link StringTable#find}
 * gives (the first of equal copies, the base's base first), and a new string one offset after
 * the base, whether the base's strings were put in first ({@link ConcurrentStrings#seeded}) or
 * are looked up beside the pool ({@link ConcurrentStrings#onBase}); the same after the pool grows.
 */
class ConcurrentStringsProperties {

    /** A section of {@code n} strings over a small alphabet (many equal copies), empty first, maybe an unterminated tail. */
    private static byte[] section(Random r, int n, boolean tail) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(0);
        for (int i = 0; i < n; i++) {
            b.writeBytes(word(r).getBytes(StandardCharsets.UTF_8));
            b.write(0);
        }
        if (tail) {
            b.writeBytes("tail".getBytes(StandardCharsets.UTF_8));
        }
        return b.toByteArray();
    }

    private static String word(Random r) {
        StringBuilder s = new StringBuilder();
        for (int k = r.nextInt(4); k > 0; k--) {
            s.append((char) ('a' + r.nextInt(3)));
        }
        return s.toString();
    }

    @Property(tries = 300)
    void aPoolOnABaseGivesTheBaseOffsetsAndOneOffsetPerNewString(@ForAll long seed,
                                                                  @ForAll @IntRange(min = 0, max = 60) int baseStrings,
                                                                  @ForAll @IntRange(min = 0, max = 30) int splitStrings,
                                                                  @ForAll boolean chained, @ForAll boolean tail) {
        Random r = new Random(seed);
        StringTable root = new StringTable(null, section(r, baseStrings, tail && !chained));
        StringTable base = chained ? new StringTable(root, section(r, splitStrings, tail)) : root;
        List<String> lookups = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            lookups.add(word(r) + (r.nextInt(3) == 0 ? "x" : ""));
        }
        ConcurrentStrings seeded = ConcurrentStrings.seeded(4, 2, base);
        ConcurrentStrings beside = ConcurrentStrings.onBase(4, 2, base);
        assertTrue(seeded.isSeeded());
        Map<String, Integer> given = new HashMap<>();
        for (String s : lookups) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            int inBase = base.find(b);
            int a = add(seeded, b);
            int c = add(beside, b);
            seeded = grownWhenFull(seeded, a, b);
            beside = grownWhenFull(beside, c, b);
            a = a < 0 ? add(seeded, b) : a;
            c = c < 0 ? add(beside, b) : c;
            assertEquals(c, a, "'" + s + "': the same offset seeded or not");
            if (inBase >= 0) {
                assertEquals(inBase, a, "'" + s + "' is the base's");
            } else {
                assertTrue(a >= base.end(), "'" + s + "' after the base");
                int p = a - base.end();
                byte[] arena = seeded.bytes();
                assertEquals(s, new String(arena, p, b.length, StandardCharsets.UTF_8));
                assertEquals(0, arena[p + b.length]);
            }
            Integer old = given.putIfAbsent(s, a);
            assertEquals(old == null ? a : old, a, "'" + s + "' keeps its offset");
        }
        assertEquals(given.values().stream().filter(o -> o >= base.end()).count(), seeded.count(),
                "the pool counts only its own strings");
    }

    /**
     * A full pool grown for the rest of the inputs ({@link ConcurrentStrings#grownFor}) keeps
     * every string at its offset, and has room for as many more bytes and strings as the inputs
     * merged so far promise for the rest (total over merged), but at least twice and at most four
     * times its room: no more (the table and the bytes are a merge's largest arrays).
     */
    @Property(tries = 300)
    void aPoolGrownForTheRestKeepsItsStringsAndGrowsTwoToFourFold(@ForAll long seed,
                                                                  @ForAll @IntRange(min = 0, max = 1000) int merged,
                                                                  @ForAll @IntRange(min = 0, max = 5000) int rest) {
        Random r = new Random(seed);
        ConcurrentStrings p = new ConcurrentStrings(64, 16);
        Map<String, Integer> given = new HashMap<>();
        while (true) {
            String s = word(r) + given.size();
            int off = add(p, s.getBytes(StandardCharsets.UTF_8));
            if (off < 0) {
                break;
            }
            given.put(s, off);
        }
        long total = merged + (long) rest;
        double f = merged == 0 ? 4 : Math.min(4, Math.max(2, (double) total / merged));
        ConcurrentStrings g = p.grownFor(merged, total);
        for (Map.Entry<String, Integer> e : given.entrySet()) {
            assertEquals(e.getValue(), add(g, e.getKey().getBytes(StandardCharsets.UTF_8)), e.getKey());
        }
        assertEquals(p.count(), g.count());
        long bytes = (long) (f * 64) - g.size();
        long strings = (long) (f * 64) - g.count(); // (64 strings: the constructor's least)
        assertTrue(g.hasRoom(bytes, strings), "room for " + f + " times the bytes and strings");
        assertTrue(!g.hasRoom(bytes + 1, 0) && !g.hasRoom(0, strings + 1), "no more");
    }

    private static int add(ConcurrentStrings p, byte[] b) {
        return p.add(b, 0, b.length);
    }

    private static ConcurrentStrings grownWhenFull(ConcurrentStrings p, int added, byte[] b) {
        return added < 0 ? p.grown(b.length + 1, 1) : p;
    }
}
