package io.btfkit.core.permute;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.text.RawTextPrinter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * On random BTF (standalone and split on a random base): permuting then applying the inverse map
 * gives back identical bytes, and the permuted BTF dumps to the same types as the input once the
 * input's text is renumbered by the map (every {@code [ID]} and {@code ..type_id=ID} rewritten,
 * types put in new-id order) — a check that does not share code with the permuter. Sorting by
 * name yields libbpf's sorted order and is idempotent.
 */
class PermuteProperties {
    private static final Pattern ID = Pattern.compile("(\\[|type_id=)(\\d+)");

    @Property(tries = 300)
    void inverseRestoresBytesAndTextIsRenumbered(@ForAll long seed) {
        Random r = new Random(seed);
        Btf x = RandomBtf.of(r, null, r.nextInt(30));
        check(x, RandomBtf.permutation(r, x));
    }

    @Property(tries = 150)
    void splitInverseRestoresBytesAndTextIsRenumbered(@ForAll long seed) {
        Random r = new Random(seed);
        Btf base = RandomBtf.of(r, null, 1 + r.nextInt(10));
        Btf x = RandomBtf.of(r, base, r.nextInt(25));
        check(x, RandomBtf.permutation(r, x));
    }

    @Property(tries = 200)
    void sortByNameSortsAndIsIdempotent(@ForAll long seed) {
        Random r = new Random(seed);
        Btf base = r.nextBoolean() ? null : RandomBtf.of(r, null, 1 + r.nextInt(10));
        Btf x = RandomBtf.of(r, base, r.nextInt(40));
        int[] map = Permuter.sortByName(x);
        Btf sorted = Permuter.permute(x, map);
        assertTrue(NameOrder.isSortedByName(sorted));
        IdMap m = IdMap.of(x, map);
        for (int id = x.firstId() + 1; id < x.typeCount(); id++) {
            // equal names keep their original relative order
            if (x.name(id - 1).equals(x.name(id))) {
                assertTrue(m.newId(id - 1) < m.newId(id));
            }
        }
        assertTrue(IdMap.of(sorted, Permuter.sortByName(sorted)).isIdentity());
        check(x, map);
    }

    @Property(tries = 100)
    void sortByKindAndNameGroupsKinds(@ForAll long seed) {
        Random r = new Random(seed);
        Btf x = RandomBtf.of(r, null, r.nextInt(40));
        Btf sorted = Permuter.permute(x, Permuter.sortByKindAndName(x));
        for (int id = 2; id < sorted.typeCount(); id++) {
            int c = Integer.compare(sorted.kind(id - 1), sorted.kind(id));
            assertTrue(c <= 0);
            if (c == 0 && !sorted.name(id - 1).isEmpty() && !sorted.name(id).isEmpty()) {
                assertTrue(compareBytes(sorted.name(id - 1), sorted.name(id)) <= 0);
            }
            if (c == 0) {
                assertTrue(!sorted.name(id - 1).isEmpty() || sorted.name(id).isEmpty(), "anonymous after named");
            }
        }
        check(x, Permuter.sortByKindAndName(x));
    }

    private static int compareBytes(String a, String b) {
        return java.util.Arrays.compareUnsigned(a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static void check(Btf x, int[] map) {
        Btf y = Permuter.permute(x, map);
        IdMap m = IdMap.of(x, map);
        assertEquals(x.typeCount(), y.typeCount());
        assertArrayEquals(x.strings().bytes(), y.strings().bytes());
        Btf back = Permuter.permute(y, m.inverse().toArray());
        assertArrayEquals(BtfWriter.write(x), BtfWriter.write(back));
        assertEquals(renumbered(RawTextPrinter.toText(x), m), RawTextPrinter.toText(y));
    }

    /** The input's dump with ids rewritten by the map and types put in new-id order. */
    private static String renumbered(String text, IdMap m) {
        List<String> blocks = new ArrayList<>();
        StringBuilder cur = null;
        for (String line : text.split("\n", -1)) {
            if (line.startsWith("[")) {
                if (cur != null) {
                    blocks.add(cur.toString());
                }
                cur = new StringBuilder();
            }
            if (cur != null && !line.isEmpty()) {
                cur.append(line).append('\n');
            }
        }
        if (cur != null) {
            blocks.add(cur.toString());
        }
        String[] out = new String[blocks.size()];
        for (String block : blocks) {
            Matcher mt = ID.matcher(block);
            StringBuilder sb = new StringBuilder();
            int newId = -1;
            while (mt.find()) {
                int id = Integer.parseInt(mt.group(2));
                int to = id < m.typeCount() ? m.newId(id) : id;
                if (newId < 0) {
                    newId = to;
                }
                mt.appendReplacement(sb, Matcher.quoteReplacement(mt.group(1) + to));
            }
            mt.appendTail(sb);
            out[newId - m.firstId()] = sb.toString();
        }
        return String.join("", out);
    }
}
