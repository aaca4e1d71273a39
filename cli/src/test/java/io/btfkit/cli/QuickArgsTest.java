package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import picocli.CommandLine;

/**
 * QuickArgs parses exactly like picocli where it parses at all: every command line it accepts
 * gives the command the field values picocli gives it, and the table it reads is the one the
 * current annotations describe.
 */
class QuickArgsTest {
    /** Option rows (names, field, kind, ...) of each command of the table, in table order. */
    private static final Map<String, List<String[]>> OPTIONS = new LinkedHashMap<>();

    static {
        String command = null;
        for (String line : QuickArgsTable.lines()) {
            String[] f = line.split("\t", -1);
            if (f[0].equals("command")) {
                command = f[1];
                OPTIONS.put(command, new ArrayList<>());
            } else if (f[0].equals("option")) {
                OPTIONS.get(command).add(f);
            }
        }
    }

    @Example
    void theBuildsTableIsTheCurrentAnnotations() throws Exception {
        try (InputStream in = QuickArgs.class.getResourceAsStream(QuickArgsTable.RESOURCE)) {
            assertNotNull(in, "the build generates " + QuickArgsTable.RESOURCE + " (mvn process-classes)");
            assertEquals(String.join("\n", QuickArgsTable.lines()) + "\n", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Example
    void everyCommandButPermuteIsInTheTable() {
        List<String> expected = new ArrayList<>(List.of(Main.NAMES));
        expected.removeAll(List.of("permute", "help", "generate-completion"));
        assertEquals(expected, List.copyOf(OPTIONS.keySet()));
    }

    @Example
    void plainCommandLinesAreParsedWithoutPicocli() throws Exception {
        for (String[] args : new String[][] {
            {"dedup", "vmlinux.btf", "-o", "out.btf"},
            {"dedup", "a", "--out-format", "Text", "-o", "b"},
            {"link", "a.btf", "b.o", "c.ko.xz", "--base", "vmlinux", "-q", "-o", "x.btf", "--map", "m.tsv"},
            {"validate", "--profile", "STRUCTURAL", "a.btf", "b.btf", "--first"},
            {"diff", "a.btf", "b.btf", "--json"},
            {"dump", "a.btf", "--format", "json", "--with-base", "--base", "v.btf"},
            {"dump", "a.btf", "-p", "-B", "v.btf"}, {"stats", "m.ko", "--base-btf", "v.btf", "--pretty"},
            {"link", "a.o", "b.o", "-v", "-o", "p.btf"},
            {"distill", "m.ko", "--base", "v", "--out-format", "elf", "-o", "m2.ko"},
            {"relocate", "--base", "v", "x.split.btf", "--out-dir", "d", "--summary-json"},
        }) {
            assertNotNull(QuickArgs.parse(args), String.join(" ", args));
            assertSameAsPicocli(args);
        }
    }

    @Example
    void anythingElseIsLeftToPicocli() {
        for (String[] args : new String[][] {
            {}, {"--version"}, {"frobnicate", "x"}, {"dedup", "--help"}, {"dedup", "-h"}, {"dedup", "-V", "x"},
            {"dedup", "a", "-o", "b", "-o", "c"}, {"dedup", "a", "--output=b"}, {"dedup", "@args"},
            {"dedup", "a", "--", "b"}, {"dedup", "a", "-o", "-b"}, {"dedup", "a", "-o"}, {"dedup", "-o", "b"},
            {"dedup", "a", "-qo", "b"}, {"dedup", "a", "-o", "b", "--out-format", "bogus"}, {"dedup", "-", "-o", "b"},
            {"dump", "a", "--root", "1,2"}, {"dump", "a", "-Bv.btf"}, {"dump", "a", "-pB", "v"}, {"diff", "a"}, {"diff", "a", "b", "c"}, {"asm", "a.txt"},
            {"permute", "a", "--sort", "name", "-o", "b"}, {"help", "dedup"}, {"distill", "a", "-o", "b"},
        }) {
            assertNull(QuickArgs.parse(args), String.join(" ", args));
        }
    }

    @Property(tries = 2000)
    void whatQuickArgsAcceptsPicocliParsesTheSame(@ForAll("commandLines") String[] args) throws Exception {
        Callable<Integer> quick = QuickArgs.parse(args);
        Statistics.label("parsed without picocli").collect(quick != null);
        if (quick != null) {
            assertSameAsPicocli(args);
        }
        Statistics.label("parsed without picocli").coverage(c -> c.check(true).percentage(p -> p > 5));
    }

    /**
     * Command lines of a command of the table: its options, each with a value of its kind
     * (enum constants in any case), and positional paths — and now and then what QuickArgs must
     * leave to picocli: a repeated, unknown or help option, a bad or missing value, an
     * {@code --opt=value}, an argument file, {@code --}.
     */
    @Provide
    Arbitrary<String[]> commandLines() {
        Arbitrary<String> path = Arbitraries.of("a.btf", "dir/b.ko", "c d.o", "x=y", "", "vmlinux");
        Arbitrary<String> odd = Arbitraries.of("bogus", "-z", "@f", "--", "-", "-o", "--base");
        return Arbitraries.of(List.copyOf(OPTIONS.keySet())).flatMap(c -> {
            Arbitrary<List<String>> option = Arbitraries.of(OPTIONS.get(c)).flatMap(o -> Arbitraries.of(o[1].split(",")).flatMap(name -> {
                // (any of its names: -o and --output, -B, --base and --base-btf)
                Arbitrary<String> v = switch (o[3]) {
                    case "enum" -> Arbitraries.of(enumNames(c, o[2]));
                    case "path" -> path;
                    default -> Arbitraries.just(null);
                };
                Arbitrary<String> anyValue = Arbitraries.frequencyOf(Tuple.of(12, v), Tuple.of(1, odd));
                return Combinators.combine(anyValue, Arbitraries.integers().between(0, 29)).as((x, how) -> {
                    if (o[3].equals("stop") && how > 2) {
                        return List.<String>of(); // help and the like, seldom
                    }
                    if (how == 0) {
                        return List.of(name + "=" + x); // picocli's form, left to it
                    }
                    return x == null || how == 1 ? List.of(name) : List.of(name, x);
                });
            }));
            Arbitrary<List<String>> positional = Arbitraries.frequencyOf(Tuple.of(12, path), Tuple.of(1, odd)).map(List::of);
            Arbitrary<List<String>> piece = Arbitraries.frequencyOf(Tuple.of(3, option), Tuple.of(2, positional));
            return piece.list().ofMaxSize(8).map(pieces -> {
                List<String> out = new ArrayList<>(List.of(c));
                pieces.forEach(out::addAll);
                return out.toArray(new String[0]);
            });
        });
    }

    /** The constants of the enum field {@code path} of command {@code c}, in random case. */
    private static List<String> enumNames(String c, String path) {
        try {
            Object cmd = Main.commandLine(c).getSubcommands().get(c).getCommandSpec().userObject();
            Class<?> type = cmd.getClass().getDeclaredField(path.contains(".") ? path.substring(0, path.indexOf('.')) : path).getType();
            if (path.contains(".")) {
                String field = path.substring(path.indexOf('.') + 1);
                Class<?> k = type;
                while (java.util.Arrays.stream(k.getDeclaredFields()).noneMatch(f -> f.getName().equals(field))) {
                    k = k.getSuperclass(); // (a mixin's option may be inherited)
                }
                type = k.getDeclaredField(field).getType();
            }
            List<String> out = new ArrayList<>();
            for (Object e : type.getEnumConstants()) {
                String n = ((Enum<?>) e).name();
                out.add(n);
                out.add(n.toUpperCase(java.util.Locale.ROOT));
            }
            out.add("bogus");
            return out;
        } catch (NoSuchFieldException e) {
            throw new AssertionError(e);
        }
    }

    /** picocli parses {@code args} without an error, into the field values QuickArgs gives. */
    private static void assertSameAsPicocli(String[] args) throws Exception {
        Object quick = QuickArgs.parse(args);
        CommandLine cl = Main.commandLine(args[0]);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        CommandLine.ParseResult r = cl.parseArgs(args); // throws if picocli rejects what QuickArgs accepted
        Object viaPicocli = r.subcommand().commandSpec().userObject();
        assertEquals(fields(viaPicocli), fields(quick), String.join(" ", args));
    }

    /** Every field of a command and of its mixins, by name, with comparable values. */
    private static Map<String, Object> fields(Object o) throws IllegalAccessException {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Field f : o.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) {
                continue;
            }
            f.setAccessible(true);
            Object v = f.get(o);
            if (v != null && v.getClass().getPackageName().equals(QuickArgs.class.getPackageName()) && !v.getClass().isEnum()) {
                fields(v).forEach((k, x) -> out.put(f.getName() + "." + k, x));
            } else {
                out.put(f.getName(), v instanceof int[] a ? Arrays.toString(a) : Objects.toString(v, null));
            }
        }
        return out;
    }
}
