package io.btfkit.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.btfkit.core.Btf;
import io.btfkit.core.text.RawTextParser;
import io.btfkit.core.text.RawTextPrinter;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the output builder keeps alive: not the merged types, once it holds its copy. */
class OutputBuilderTest {

    @Test
    void theMergedTypesAreLetGoWhileTheCallerStillHoldsTheMerge() throws InterruptedException {
        Btf unit = RawTextParser.parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] STRUCT 'node' size=8 vlen=2
                \t'value' type_id=1 bits_offset=0
                \t'next' type_id=3 bits_offset=32
                [3] PTR '(anon)' type_id=2
                """, null);
        List<Btf> units = new ArrayList<>(List.of(unit, unit, unit));
        Merger.Merged m = Merger.merge(units, null);
        WeakReference<int[]> words = new WeakReference<>(m.words);
        int n = m.starts.length - 1;
        int[] cls = new int[n];
        for (int i = 0; i < n; i++) {
            cls[i] = 1 + i % 3; // the copies of each type in one class
        }
        DedupResult r = OutputBuilder.build(m.format, m, null, cls, new Aliases(n), 1, 0);

        assertEquals(RawTextPrinter.toText(unit), RawTextPrinter.toText(r.btf()), "one copy of each type");
        assertNull(m.words, "the merge no longer holds its types");
        assertNull(m.starts);
        for (int i = 0; i < 20 && words.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(words.get(), "nothing else holds them: a collection frees them");
        assertEquals(3, m.inputFirst.length - 1, "what the result still reads stays");
    }
}
