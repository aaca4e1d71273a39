package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A split BTF given with the wrong base stops every command with exit 2 and
 * {@code btfkit: FILE: does not seem to be split BTF of BASE (evidence)}, writing nothing:
 * real modules of 6.1.0-56 on the 6.1.0-47 kernel (whose strings and types are fewer), and a
 * module relocated onto 6.1.0-47 on 6.1.0-56 (more: before, this printed garbage and exit 0).
 */
class WrongBaseTest {
    @TempDir
    Path tmp;

    /** Each command, with {@code M} for the module, {@code B} for the base, {@code O} for an output. */
    static Stream<String> commands() {
        return Stream.of("dump M --base B", "dump M --base B --format c", "stats M --base B", "validate M --base B",
                "dedup M --base B -o O", "link M --base B -o O", "distill M --base B -o O --base-out O2",
                "convert M --base B -o O", "permute M --base B --sort name -o O", "diff M M --base-a B --base-b B",
                "asm M --base B -o O");
    }

    private Cli run(String command, Path module, Path base) {
        List<String> args = new ArrayList<>();
        for (String w : command.split(" ")) {
            args.add(switch (w) {
                case "M" -> module.toString();
                case "B" -> base.toString();
                case "O" -> tmp.resolve("out").toString();
                case "O2" -> tmp.resolve("out2").toString();
                default -> w;
            });
        }
        return Cli.run(args.toArray(String[]::new));
    }

    private void assertWrongBase(Cli r, Path module, Path base) {
        assertEquals(2, r.exit, r.toString());
        String[] lines = r.err.strip().split("\n");
        assertEquals(1, lines.length, r.err);
        assertTrue(lines[0].startsWith("btfkit: " + module + ": does not seem to be split BTF of " + base + " ("), r.err);
        assertEquals(0, r.out.length, "nothing on stdout");
        assertFalse(Files.exists(tmp.resolve("out")) || Files.exists(tmp.resolve("out2")), "nothing written");
    }

    @ParameterizedTest
    @MethodSource("commands")
    void everyCommandNamesTheWrongBase(String command) {
        Path module = TestData.golden("modules/roles.btf");
        Path wrong = TestData.golden("vmlinux-6.1.0-47.btf");
        if (command.startsWith("asm")) {
            // text names its strings, but its first id still tells its base's size
            Path text = tmp.resolve("roles.txt");
            assertEquals(0, Cli.run("dump", module.toString(), "--base", TestData.golden("vmlinux-6.1.0-56.btf").toString(),
                    "-o", text.toString()).exit);
            module = text;
        }
        assertWrongBase(run(command, module, wrong), module, wrong);
    }

    @Test
    void aModuleOfASmallerKernelOnALargerOne() {
        Path module = TestData.golden("relocate/onto-6.1.0-47/dax_hmem.btf");
        Path own = TestData.golden("vmlinux-6.1.0-47.btf");
        Path wrong = TestData.golden("vmlinux-6.1.0-56.btf");
        Cli r = run("dump M --base B", module, wrong);
        assertWrongBase(r, module, wrong);
        assertTrue(r.err.contains("5 of 5 names do not start a string, e.g. type [100752] FUNC name offset 1789996, inside the base"), r.err);
        assertTrue(r.err.contains("its names imply a base string section of 1789996 bytes, this base's has 1794309"), r.err);
        assertEquals(0, run("dump M --base B", module, own).exit);
    }

    @Test
    void theRightBaseChangesNothing() {
        Path module = TestData.golden("modules/roles.btf");
        Path base = TestData.golden("vmlinux-6.1.0-56.btf");
        Cli r = run("validate M --base B", module, base);
        assertEquals(0, r.exit, r.toString());
        assertEquals("", r.err);
    }

    @Test
    void relocateNamesTheWrongDistilledBase() {
        Path split = TestData.golden("distill/roles.split");
        Path dist = TestData.golden("distill/dax_hmem.base");
        Cli r = Cli.run("relocate", split.toString(), "--dist-base", dist.toString(), "--base",
                TestData.golden("vmlinux-6.1.0-47.btf").toString(), "-o", tmp.resolve("out").toString());
        assertWrongBase(r, split, dist);
    }

    private void assertStandalone(Cli r, Path input, Path base, String more) {
        assertEquals(2, r.exit, r.toString());
        assertEquals("btfkit: " + input + ": is standalone BTF, not split BTF of " + base
                + " (its strings start with the empty string and it reads without a base): drop the base" + more + "\n", r.err);
        assertFalse(Files.exists(tmp.resolve("out")) || Files.exists(tmp.resolve("out2")), "nothing written");
    }

    /**
     * Standalone BTF given a base: its names may all happen to fall on string starts of the base
     * (here 'int' at offset 1) and its ids below the base's count, but its strings start with the
     * empty string, which no producer of split BTF writes, and it reads on its own.
     */
    @Test
    void standaloneBtfWhoseNamesFitTheBaseIsNotReadAsSplit() throws Exception {
        Path small = tmp.resolve("small.btf");
        Files.write(small, io.btfkit.core.BtfWriter.write(io.btfkit.core.text.RawTextParser.parse("""
                [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
                [2] PTR '(anon)' type_id=1
                [3] CONST '(anon)' type_id=2
                """, null)));
        Path vmlinux = TestData.golden("vmlinux-6.1.0-56.btf");
        for (String command : List.of("dump M --base B", "stats M --base B", "dedup M --base B -o O", "link M --base B -o O")) {
            assertStandalone(run(command, small, vmlinux), small, vmlinux, "");
        }
        assertStandalone(run("distill M --base B -o O --base-out O2", vmlinux, vmlinux), vmlinux, vmlinux, "");
    }

    /** gcc -gbtf output is standalone too: only link takes it with a base (docs/GCC.md); the others say so. */
    @Test
    void gccOutputWithABaseIsRefusedButByLink() {
        Path gcc = TestData.sample("gcc/job.o");
        Path vmlinux = TestData.golden("vmlinux-6.1.0-56.btf");
        assertStandalone(run("dump M --base B", gcc, vmlinux), gcc, vmlinux, " (gcc -gbtf output: 'btfkit link --base' links it onto a base)");
        assertEquals(0, run("link M --base B -o O", gcc, vmlinux).exit);
    }

    @Test
    void batchModeReportsEachInput() {
        Path a = TestData.golden("modules/roles.btf");
        Path b = TestData.golden("modules/dax_hmem.btf");
        Path wrong = TestData.golden("vmlinux-6.1.0-56-cloud.btf");
        Cli r = Cli.run("validate", a.toString(), b.toString(), "--base", wrong.toString());
        assertEquals(1, r.exit, r.toString()); // batch: 1 when any input failed
        assertTrue(r.err.contains("btfkit: " + a + ": does not seem to be split BTF of " + wrong + " ("), r.err);
        assertTrue(r.err.contains("btfkit: " + b + ": does not seem to be split BTF of " + wrong + " ("), r.err);
    }
}
