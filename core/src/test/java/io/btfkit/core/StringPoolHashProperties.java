package io.btfkit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link StringPool#lengthAndHash} finds a NUL-terminated string's length 8 bytes at a time and
 * hashes it as {@link StringPool#hash} hashes the same bytes given their length, wherever the
 * string lies (any alignment, NUL in any byte of a word, or the array's end instead of a NUL):
 * the merge hashes strings one way and the tables it probes were filled the other.
 */
class StringPoolHashProperties {
    @Property(tries = 3000)
    void theLengthAndHashOfAStringAreItsLengthAndItsHashWhereverItLies(@ForAll long seed,
                                                                        @ForAll @IntRange(min = 0, max = 40) int len,
                                                                        @ForAll @IntRange(min = 0, max = 15) int before,
                                                                        @ForAll @IntRange(min = 0, max = 12) int after,
                                                                        @ForAll boolean terminated) {
        Random r = new Random(seed);
        byte[] str = new byte[len];
        for (int i = 0; i < len; i++) {
            str[i] = (byte) (1 + r.nextInt(255)); // any byte but NUL, high bit set too
        }
        byte[] a = new byte[before + len + (terminated ? 1 + after : 0)];
        for (int i = 0; i < a.length; i++) {
            a[i] = (byte) (1 + r.nextInt(255)); // (no NUL around it but its own)
        }
        System.arraycopy(str, 0, a, before, len);
        if (terminated) {
            a[before + len] = 0;
        }
        long lh = StringPool.lengthAndHash(a, before);
        assertEquals(len, (int) (lh >>> 32), "length");
        int h = StringPool.hash(str, 0, len);
        assertEquals(h, (int) lh, "the hash of the same bytes");
        assertEquals(h, StringPool.hash(a, before, len), "at another offset");
    }

    /** Distinct strings rarely share a hash, nor the low bits a table of 2^16 slots starts probing at. */
    @Property(tries = 20)
    void distinctStringsSpreadOverTheTable(@ForAll long seed) {
        Random r = new Random(seed);
        Set<String> strings = new HashSet<>();
        while (strings.size() < 20_000) {
            StringBuilder b = new StringBuilder(r.nextBoolean() ? "struct_" : "");
            for (int k = r.nextInt(12); k >= 0; k--) {
                b.append((char) ('a' + r.nextInt(26)));
            }
            strings.add(b.toString());
        }
        Set<Integer> hashes = new HashSet<>();
        int[] slots = new int[1 << 16];
        int most = 0;
        for (String s : strings) {
            byte[] bytes = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            int h = StringPool.hash(bytes, 0, bytes.length);
            hashes.add(h);
            most = Math.max(most, ++slots[h & 0xffff]);
        }
        assertTrue(hashes.size() >= strings.size() - 2, "full-hash collisions: " + (strings.size() - hashes.size()));
        assertTrue(most <= 8, "a slot of 2^16 starts " + most + " of 20,000 probes");
    }
}
