package io.btfkit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpellingTest {
    @Test
    void typosFindTheirWord() {
        List<String> commands = List.of("dump", "convert", "asm", "stats", "validate", "dedup", "link", "distill", "relocate", "diff");
        assertEquals(List.of("dump"), Spelling.nearest("dumb", commands));
        assertEquals(List.of("stats"), Spelling.nearest("stast", commands), "two neighbours swapped count once");
        assertEquals(List.of("--format"), Spelling.nearest("--fromat", List.of("--format", "--root", "--with-base")));
        assertEquals(List.of("task_struct"), Spelling.nearest("task_strct", List.of("task_struct", "task_group", "tasklet_struct")));
        assertEquals(List.of(), Spelling.nearest("frobnicate", commands), "an unknown word is not a typo");
        assertEquals(List.of(), Spelling.nearest("dump", commands), "the word itself is no suggestion");
    }

    @Test
    void theMessage() {
        assertEquals(" (did you mean 'dump'?)", Spelling.didYouMean("dumb", List.of("dump", "link")));
        assertEquals(" (did you mean 'ab' or 'ba'?)", Spelling.didYouMean("aa", List.of("ab", "ba", "zz")));
        assertEquals("", Spelling.didYouMean("zzzz", List.of("dump")));
    }

    @Test
    void distanceIsOptimalStringAlignment() {
        assertEquals(0, Spelling.distance("abc", "abc", 9));
        assertEquals(1, Spelling.distance("abc", "acb", 9));
        assertEquals(3, Spelling.distance("kitten", "sitting", 9));
        assertEquals(2, Spelling.distance("kitten", "sitting", 2), "capped");
    }
}
