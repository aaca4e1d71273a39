package io.btfkit.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * Every fuzz target has seeds (regression mode runs only them, plus the empty input), and every
 * seed is small, so regression runs stay fast and fuzzing mutates inputs of a useful size. The
 * targets are found, not listed: every {@code @FuzzTest} method of this package, so a new target
 * without seeds fails here.
 */
class SeedCorpusTest {
    /** The largest seed (the clang BPF objects are about 13 KB). */
    private static final long MAX_SEED = 16 * 1024;
    /** What "has seeds" means: enough inputs that mutations start from more than one shape. */
    private static final int MIN_SEEDS = 3;

    /**
     * The seeds as committed (the source tree, not the class path: test-classes keeps copies of
     * seeds deleted since, which would hide a loss here); surefire runs in the module directory.
     */
    private static final Path SEEDS = Paths.get("src/test/resources", SeedCorpusTest.class.getPackageName().replace('.', '/'));

    /** Every {@code Class#method} annotated {@code @FuzzTest} in this package, sorted. */
    static List<String> fuzzTargets() {
        List<String> targets = new ArrayList<>();
        for (Class<?> c : ReflectionSupport.findAllClassesInPackage(SeedCorpusTest.class.getPackageName(), t -> true, n -> true)) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.isAnnotationPresent(FuzzTest.class)) {
                    targets.add(c.getSimpleName() + "#" + m.getName());
                }
            }
        }
        targets.sort(null);
        return targets;
    }

    @Test
    void everyTargetHasSmallSeeds() throws IOException {
        List<String> targets = fuzzTargets();
        assertFalse(targets.isEmpty(), "no @FuzzTest method found in " + SeedCorpusTest.class.getPackageName());
        List<String> problems = new ArrayList<>();
        for (String t : targets) {
            String cls = t.substring(0, t.indexOf('#'));
            String method = t.substring(t.indexOf('#') + 1);
            // Jazzer's layout: resources under <package>/<Class>Inputs/<method>/
            Path dir = SEEDS.resolve(cls + "Inputs").resolve(method);
            if (!Files.isDirectory(dir)) {
                problems.add(t + ": no seed directory " + dir);
                continue;
            }
            if (method.equals("target")) {
                problems.add(t + ": .gitignore hides directories named target/: its seeds would not be committed");
            }
            List<Path> seeds;
            try (Stream<Path> s = Files.list(dir)) {
                seeds = s.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
            }
            if (seeds.size() < MIN_SEEDS) {
                problems.add(t + ": " + seeds.size() + " seeds, fewer than " + MIN_SEEDS);
            }
            for (Path p : seeds) {
                if (Files.size(p) > MAX_SEED) {
                    problems.add(t + ": " + p.getFileName() + " is " + Files.size(p) + " bytes, over " + MAX_SEED);
                }
            }
        }
        assertEquals(List.of(), problems, "fuzz targets found: " + targets);
    }

    /**
     * CI fuzzes what {@code run-fuzz.sh} lists: it names every target found here, and only those.
     * (Also proves the discovery above finds the targets a person listed.)
     */
    @Test
    void runFuzzListsEveryTarget() throws IOException {
        Path script = Paths.get("run-fuzz.sh");
        assertTrue(Files.isRegularFile(script), "no " + script.toAbsolutePath());
        String text = Files.readString(script);
        Matcher block = Pattern.compile("(?s)all_targets=\\((.*?)\\)").matcher(text);
        assertTrue(block.find(), "no all_targets=( ... ) in " + script);
        TreeSet<String> listed = new TreeSet<>(List.of(block.group(1).trim().split("\\s+")));
        assertEquals(new TreeSet<>(fuzzTargets()), listed, "run-fuzz.sh's all_targets against the @FuzzTest methods");
    }
}
