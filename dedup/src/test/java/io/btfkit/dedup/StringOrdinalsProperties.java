package io.btfkit.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;

/** The output's string numbering counts the strings of a pool in order, across 64-byte words. */
class StringOrdinalsProperties {
    @Property(tries = 300)
    void eachStringStartGetsItsIndex(@ForAll @Size(max = 200) List<@StringLength(max = 150) String> strings) {
        ByteArrayOutputStream pool = new ByteArrayOutputStream();
        int[] at = new int[strings.size()];
        for (int i = 0; i < strings.size(); i++) {
            at[i] = pool.size();
            // (NUL-free, as BTF strings are)
            pool.writeBytes(strings.get(i).replace('\0', 'x').getBytes(java.nio.charset.StandardCharsets.UTF_8));
            pool.write(0);
        }
        StringOrdinals o = new StringOrdinals(pool.toByteArray());
        assertEquals(strings.size(), o.count());
        for (int i = 0; i < at.length; i++) {
            assertEquals(i, o.of(at[i]));
        }
    }

    /**
     * Any bytes, NULs anywhere (runs of them, at word edges, at the end or not): a string starts
     * at 0 and after each NUL but the last byte, as counted a byte at a time.
     */
    @Property(tries = 500)
    void countsAsAByteAtATime(@ForAll @Size(max = 300) List<@net.jqwik.api.constraints.IntRange(max = 3) Integer> bytes) {
        byte[] pool = new byte[bytes.size()];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = (byte) (bytes.get(i) == 0 ? 0 : 'a' + bytes.get(i));
        }
        StringOrdinals o = new StringOrdinals(pool);
        int count = 0;
        for (int p = 0; p < pool.length; p++) {
            if (p == 0 || pool[p - 1] == 0) {
                assertEquals(count, o.of(p), "string starting at " + p);
                count++;
            }
        }
        assertEquals(count, o.count());
    }
}
