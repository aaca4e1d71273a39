package io.btfkit.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every fuzz target has seeds (regression mode runs only them, plus the empty input), and every
 * seed is small, so regression runs stay fast and fuzzing mutates inputs of a useful size.
 */
class SeedCorpusTest {
    static final List<Class<?>> TARGET_CLASSES = List.of(RawBtfFuzzTest.class, ElfFuzzTest.class, BtfExtFuzzTest.class,
            RawTextFuzzTest.class, CompressedInputFuzzTest.class, ValidatorFuzzTest.class, DedupFuzzTest.class,
            CyclicShapesFuzzTest.class, CHeaderFuzzTest.class, DiffFuzzTest.class);
    /** The largest seed (the clang BPF objects are about 13 KB). */
    private static final long MAX_SEED = 16 * 1024;

    @Test
    void everyTargetHasSmallSeeds() throws IOException, URISyntaxException {
        List<String> targets = new ArrayList<>();
        for (Class<?> c : TARGET_CLASSES) {
            for (Method m : c.getDeclaredMethods()) {
                if (!m.isAnnotationPresent(FuzzTest.class)) {
                    continue;
                }
                targets.add(c.getSimpleName() + "#" + m.getName());
                URL url = c.getResource(c.getSimpleName() + "Inputs/" + m.getName());
                assertTrue(url != null, "no seed directory for " + c.getSimpleName() + "#" + m.getName());
                Path dir = Paths.get(url.toURI());
                List<Path> seeds;
                try (Stream<Path> s = Files.list(dir)) {
                    seeds = s.filter(Files::isRegularFile).collect(Collectors.toList());
                }
                assertTrue(seeds.size() >= 3, dir + " has " + seeds.size() + " seeds");
                for (Path p : seeds) {
                    assertTrue(Files.size(p) <= MAX_SEED, p + " is " + Files.size(p) + " bytes, over " + MAX_SEED);
                }
            }
        }
        assertTrue(targets.size() >= 9, "fuzz targets found: " + targets);
    }
}
