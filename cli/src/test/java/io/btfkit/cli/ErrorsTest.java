package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.btfkit.core.TestData;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Errors reach the user as one line {@code btfkit: FILE: message} with exit status 2 (malformed
 * input, usage) or 1 (operation impossible), never a stack trace, and leave no output behind.
 */
class ErrorsTest {
    @TempDir
    Path tmp;

    private static void assertOneLine(Cli r, int exit, String file, String gist) {
        assertEquals(exit, r.exit, r.toString());
        String[] lines = r.err.strip().split("\n");
        assertEquals(1, lines.length, "one line: " + r.err);
        assertTrue(lines[0].startsWith("btfkit: " + file + ": "), r.err);
        assertTrue(lines[0].contains(gist), r.err);
        assertFalse(r.err.contains("at io.btfkit"), "no stack trace");
    }

    @Test
    void truncatedHeader() throws Exception {
        Path f = tmp.resolve("short.btf");
        Files.write(f, new byte[] {(byte) 0x9f, (byte) 0xeb, 1, 0, 24, 0});
        assertOneLine(Cli.run("dump", f.toString()), 2, f.toString(), "truncated BTF header");
    }

    @Test
    void missingFile() {
        Path f = tmp.resolve("nope.btf");
        assertOneLine(Cli.run("stats", f.toString()), 2, f.toString(), "no such file");
    }

    @Test
    void outDirNamingAFileIsNotADirectory() throws Exception {
        Path file = tmp.resolve("afile");
        Files.writeString(file, "x");
        for (String cmd : List.of("dedup", "convert", "distill")) {
            List<String> args = new ArrayList<>(List.of(cmd, "--out-dir", file.toString(), TestData.sample("gcc/job.o").toString()));
            if (cmd.equals("distill")) {
                args.addAll(List.of("--base", TestData.sample("gcc/main.o").toString()));
            }
            assertOneLine(Cli.run(args.toArray(String[]::new)), 2, file.toString(), "not a directory");
        }
        assertEquals("x", Files.readString(file), "the file is left alone");
    }

    @Test
    void splitWithoutBaseSaysSo() {
        Path f = TestData.golden("modules/roles.btf");
        assertOneLine(Cli.run("dump", f.toString()), 2, f.toString(), "give its base with --base");
    }

    @Test
    void badBaseIsNamed() throws Exception {
        Path base = tmp.resolve("base.btf");
        Files.write(base, "not btf at all".getBytes());
        Path f = TestData.golden("modules/roles.btf");
        assertOneLine(Cli.run("dump", f.toString(), "--base", base.toString()), 2, base.toString(), "not BTF");
    }

    @Test
    void garbageTextLineNamesTheLine() throws Exception {
        Path f = tmp.resolve("bad.txt");
        Files.writeString(f, "[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n[2] PTR '(anon)' tipe_id=1\n");
        assertOneLine(Cli.run("asm", f.toString(), "-o", tmp.resolve("o.btf").toString()), 2, f.toString(), "line 2");
        assertFalse(Files.exists(tmp.resolve("o.btf")), "no output written");
    }

    @Test
    void usageErrorIsExit2WithHint() {
        Cli r = Cli.run("dedup");
        assertEquals(2, r.exit);
        assertTrue(r.err.contains("Try 'btfkit help dedup'"), r.err);
    }

    @Test
    void neverWritesOverTheInput() throws Exception {
        Path in = tmp.resolve("v.btf");
        Files.copy(TestData.golden("vmlinux-6.1.0-47.btf"), in);
        Files.setPosixFilePermissions(in, PosixFilePermissions.fromString("rw-r--r--")); // (the golden file is 0444)
        byte[] before = Files.readAllBytes(in);
        Cli r = Cli.run("convert", in.toString(), "--endian", "big", "-o", in.toString());
        assertOneLine(r, 2, in.toString(), "overwrite an input");
        assertArrayEquals(before, Files.readAllBytes(in));
        assertEquals(0, Cli.run("convert", in.toString(), "--endian", "big", "--in-place", "-o", in.toString()).exit);
        assertEquals((byte) 0xeb, Files.readAllBytes(in)[0]);
    }

    @Test
    void failedRelocationWritesNothingAndListsEveryProblem() throws Exception {
        Path out = tmp.resolve("r.btf");
        Cli r = Cli.run("relocate", TestData.golden("distill/roles.split").toString(),
                "--dist-base", TestData.golden("distill/roles.base").toString(),
                "--base", TestData.golden("vmlinux-6.1.0-47.btf").toString(), "-o", out.toString());
        assertEquals(1, r.exit, r.toString());
        assertTrue(r.err.contains("STRUCT 'device'"), r.err);
        assertFalse(Files.exists(out));
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(0, s.count(), "no temporary file left behind");
        }
    }

    @Test
    void severalBlobsAreNamedWithTheirFile() throws Exception {
        Path one = tmp.resolve("one.btf");
        assertEquals(0, Cli.run("link", "-q", TestData.sample("gcc/job.o").toString(), "-o", one.toString()).exit);
        byte[] b = Files.readAllBytes(one);
        Path two = tmp.resolve("two.btf");
        Files.write(two, java.nio.ByteBuffer.allocate(2 * b.length).put(b).put(b).array());
        assertOneLine(Cli.run("dump", two.toString()), 1, two.toString(), "holds 2 BTF blobs back to back");
        assertOneLine(Cli.run("stats", two.toString()), 1, two.toString(), "holds 2 BTF blobs back to back");
    }

    @Test
    void aBrokenSymbolTableIsNamedWithItsFile() throws Exception {
        Path f = tmp.resolve("job.o");
        byte[] elf = Files.readAllBytes(TestData.sample("gcc/job.o"));
        java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(elf).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        long shoff = bb.getLong(0x28);
        int shentsize = bb.getShort(0x3a) & 0xffff;
        int shnum = bb.getShort(0x3c) & 0xffff;
        boolean found = false;
        for (int i = 0; i < shnum; i++) {
            int at = (int) shoff + i * shentsize;
            if (bb.getInt(at + 4) == 2) { // SHT_SYMTAB: point its sh_link nowhere
                bb.putInt(at + 0x28, 9999);
                found = true;
            }
        }
        assertTrue(found);
        Files.write(f, elf);
        assertOneLine(Cli.run("validate", f.toString()), 2, f.toString(), "(.symtab): sh_link 9999");
    }

    @Test
    void fileNamesWithControlCharactersAreQuoted() throws Exception {
        Path f = tmp.resolve("evil\n\033[31mred\033[0m.btf");
        Cli r = Cli.run("stats", f.toString());
        assertEquals(2, r.exit, r.toString());
        assertEquals("btfkit: $'" + tmp + "/evil\\n\\e[31mred\\e[0m.btf': no such file\n", r.err);
        assertFalse(r.err.contains("\033"), "no raw escape reaches the terminal");
        assertEquals("plain name.btf", Names.quote("plain name.btf"));
        assertEquals("$'it\\'s\\x01\\u0085'", Names.quote("it's\u0001\u0085"));
    }

    @Test
    void aMissingOutputDirectorySaysWhy() throws Exception {
        Path out = tmp.resolve("nope").resolve("x.btf");
        Cli r = Cli.run("convert", TestData.golden("vmlinux-6.1.0-47.btf").toString(), "-o", out.toString());
        assertOneLine(r, 2, out.toString(), "cannot write: No such file or directory");
        assertFalse(r.err.contains(Outputs.TMP_MARK), "never a temporary name");
    }

    /** Every command fails with the OS's reason when stdout cannot be written (here: /dev/full). */
    @Test
    void aStdoutWriteErrorFailsEveryCommand() throws Exception {
        File full = new File("/dev/full");
        assumeTrue(full.exists(), "skipped: no /dev/full");
        String v = TestData.golden("vmlinux-6.1.0-47.btf").toString();
        String w = TestData.golden("vmlinux-6.1.0-56.btf").toString();
        String[][] commands = {
            {"dump", v}, {"dump", v, "--format", "c"}, {"dump", v, "--format", "json"}, {"dump", v, "-o", "-"},
            {"stats", v}, {"stats", v, "--json"}, {"validate", TestData.sample("gcc/job.o").toString()},
            {"diff", v, w}, {"diff", v, w, "--json"},
            {"convert", v, "-o", "-"},
            {"validate", "-q", "--summary-json", v, w}, {"help", "dump"}, {"dump", "--help"}, {"--version"},
        };
        for (String[] c : commands) {
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "io.btfkit.cli.Main"));
            cmd.addAll(List.of(c));
            Process p = new ProcessBuilder(cmd).redirectOutput(full).start();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            assertEquals(2, p.exitValue(), String.join(" ", c) + ": " + err);
            assertTrue(err.endsWith("btfkit: stdout: No space left on device\n"), String.join(" ", c) + ": " + err);
        }
    }

    /**
     * As an unprivileged user (a child JVM run as nobody, when this test runs as root and
     * setpriv is there): refusals say "Permission denied" and name the user's file.
     */
    @Test
    void refusalsSayPermissionDenied() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "skipped: needs root to run a child as nobody");
        List<String> setpriv = List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--");
        assumeTrue(run(List.of("setpriv", "--version")) == 0, "skipped: setpriv not available");
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        String cp = worldReadableClassPath(tmp.resolve("cp"));
        Path in = tmp.resolve("in.btf");
        Files.copy(TestData.golden("vmlinux-6.1.0-47.btf"), in);
        Files.setPosixFilePermissions(in, PosixFilePermissions.fromString("rw-r--r--"));
        Path ro = Files.createDirectory(tmp.resolve("ro"));
        Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path secret = tmp.resolve("secret.btf");
        Files.copy(in, secret);
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();

        List<String> write = new ArrayList<>(setpriv);
        write.addAll(List.of(java, "-cp", cp, "io.btfkit.cli.Main", "convert", in.toString(), "-o", ro.resolve("x.btf").toString()));
        String err = stderrOf(write, 2);
        assertEquals("btfkit: " + ro.resolve("x.btf") + ": cannot write: Permission denied\n", err);

        List<String> read = new ArrayList<>(setpriv);
        read.addAll(List.of(java, "-cp", cp, "io.btfkit.cli.Main", "stats", secret.toString()));
        assertEquals("btfkit: " + secret + ": cannot read: Permission denied\n", stderrOf(read, 2));
    }

    private static String stderrOf(List<String> cmd, int exit) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(exit, p.exitValue(), err);
        return err;
    }

    private static int run(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(60, TimeUnit.SECONDS) ? p.exitValue() : -1;
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** The test's class path copied where any user can read it (~/.m2 is root's alone). */
    private static String worldReadableClassPath(Path dir) throws IOException {
        List<String> entries = new ArrayList<>(List.of(System.getProperty("java.class.path").split(File.pathSeparator)));
        if (entries.size() == 1 && entries.get(0).endsWith(".jar")) {
            try (JarFile jar = new JarFile(entries.get(0))) { // surefire's manifest-only jar
                String more = jar.getManifest() == null ? null : jar.getManifest().getMainAttributes().getValue("Class-Path");
                if (more != null) {
                    entries.clear();
                    for (String u : more.trim().split("\\s+")) {
                        entries.add(Path.of(java.net.URI.create(u)).toString());
                    }
                }
            }
        }
        Files.createDirectories(dir);
        List<String> copied = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            Path from = Path.of(entries.get(i));
            if (!Files.exists(from) || from.toString().matches(".*(junit|jqwik|opentest4j|apiguardian|surefire).*")) {
                continue;
            }
            Path to = dir.resolve(i + (Files.isDirectory(from) ? "" : ".jar"));
            try (Stream<Path> s = Files.walk(from)) {
                for (Path f : (Iterable<Path>) s::iterator) {
                    Path t = to.resolve(from.relativize(f).toString());
                    if (Files.isDirectory(f)) {
                        Files.createDirectories(t);
                    } else {
                        Files.copy(f, t.toString().isEmpty() ? to : t);
                    }
                }
            }
            copied.add(to.toString());
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) s::iterator) {
                Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(Files.isDirectory(f) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        return String.join(File.pathSeparator, copied);
    }
}
