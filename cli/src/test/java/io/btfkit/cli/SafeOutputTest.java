package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.btfkit.core.TestData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Outputs respect what is there and are all or nothing (docs/GUIDE.md, "Outputs"): a failure
 * while writing, or the process being killed, leaves neither a partial output nor a temporary
 * file a later run cannot clean; devices, FIFOs and stdout are written in place; symlinks are
 * followed; modes are kept; a command's outputs land together.
 */
class SafeOutputTest {
    @TempDir
    Path tmp;

    private long filesIn(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    private static List<String> tempFilesIn(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString()).filter(n -> n.contains(Outputs.TMP_MARK)).toList();
        }
    }

    /** A small standalone raw BTF (the gcc samples linked). */
    private Path prog() {
        Path p = tmp.resolve("prog.btf");
        if (!Files.exists(p)) {
            List<String> args = new ArrayList<>(List.of("link", "-q"));
            for (String o : List.of("job.o", "main.o", "queue.o", "worker.o")) {
                args.add(TestData.sample("gcc/" + o).toString());
            }
            args.addAll(List.of("-o", p.toString()));
            Cli r = Cli.run(args.toArray(String[]::new));
            assertEquals(0, r.exit, r.toString());
        }
        return p;
    }

    private static int sh(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(60, TimeUnit.SECONDS) ? p.exitValue() : -1;
        } catch (IOException e) {
            return -1; // the tool is missing
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    @Test
    void aWriteFailingHalfwayLeavesNothing() throws Exception {
        Path out = tmp.resolve("out.btf");
        FileException e = assertThrows(FileException.class, () -> Outputs.write(out, os -> {
            os.write(new byte[100_000]);
            throw new IOException("disk full (injected)");
        }, List.of(), false));
        assertTrue(e.getMessage().contains("disk full"), e.getMessage());
        assertFalse(Files.exists(out));
        assertEquals(0, filesIn(tmp), "no temporary file left");
    }

    @Test
    void anOutputGetsTheModeOfAPlainWrite() throws Exception {
        Path plain = tmp.resolve("plain");
        Files.write(plain, new byte[] {1});
        Path out = tmp.resolve("out.btf");
        Outputs.write(out, new byte[] {1, 2}, List.of(), false);
        assertArrayEquals(new byte[] {1, 2}, Files.readAllBytes(out));
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(out),
                "0666 less the umask, not a temp file's 0600");
    }

    @Test
    void aReplacedOutputKeepsItsMode() throws Exception {
        Path out = tmp.resolve("secret.btf");
        Files.write(out, new byte[] {1});
        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rw-------"));
        Object inode = Files.readAttributes(out, BasicFileAttributes.class).fileKey();
        Outputs.write(out, new byte[] {1, 2}, List.of(), false);
        assertArrayEquals(new byte[] {1, 2}, Files.readAllBytes(out));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(out)));
        assertFalse(inode.equals(Files.readAttributes(out, BasicFileAttributes.class).fileKey()), "replaced by rename");
    }

    @Test
    void aWriteProtectedOutputIsRefused() throws Exception {
        Path out = tmp.resolve("ro.btf");
        Files.write(out, new byte[] {7});
        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("r--r--r--"));
        Cli r = Cli.run("convert", prog().toString(), "-o", out.toString());
        assertEquals(2, r.exit, r.toString());
        assertEquals("btfkit: " + out + ": cannot write: Permission denied\n", r.err);
        assertArrayEquals(new byte[] {7}, Files.readAllBytes(out));
        assertEquals(List.of(), tempFilesIn(tmp));
    }

    /**
     * A link writes its output's temporary file on another thread while it verifies the output
     * (LinkCommand); a file it may not replace is still refused with the same message, the old
     * bytes kept, no temporary file left — and a link that may write leaves only its output.
     */
    @Test
    void aLinkWritingWhileItVerifiesStillRefusesAProtectedOutput() throws Exception {
        Path in = prog();
        Path out = tmp.resolve("ro-link.btf");
        Files.write(out, new byte[] {7});
        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("r--r--r--"));
        Cli r = Cli.run("link", "-q", in.toString(), in.toString(), "-o", out.toString());
        assertEquals(2, r.exit, r.toString());
        assertEquals("btfkit: " + out + ": cannot write: Permission denied\n", r.err);
        assertArrayEquals(new byte[] {7}, Files.readAllBytes(out));
        assertEquals(List.of(), tempFilesIn(tmp));
        Path ok = tmp.resolve("linked.btf");
        Path map = tmp.resolve("linked.map");
        Cli written = Cli.run("link", "-q", in.toString(), in.toString(), "-o", ok.toString(), "--map", map.toString());
        assertEquals(0, written.exit, written.toString());
        Cli streamed = Cli.run("link", "-q", in.toString(), in.toString(), "-o", "-");
        assertEquals(0, streamed.exit, streamed.toString());
        assertArrayEquals(streamed.out, Files.readAllBytes(ok), "the file staged while verifying holds what stdout gets");
        assertTrue(Files.size(map) > 0);
        assertEquals(List.of(), tempFilesIn(tmp));
    }

    @Test
    void aFailedWriteKeepsThePreviousOutput() throws Exception {
        Path out = tmp.resolve("out.btf");
        Files.write(out, new byte[] {1, 2, 3});
        assertThrows(FileException.class, () -> Outputs.write(out, os -> {
            os.write(new byte[10]);
            throw new IOException("injected");
        }, List.of(), false));
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(out));
        assertEquals(1, filesIn(tmp));
    }

    @Test
    void aCharacterDeviceStaysADevice() throws Exception {
        Path dn = Path.of("/dev/null");
        assumeTrue(Files.exists(dn), "skipped: no /dev/null");
        Cli r = Cli.run("convert", prog().toString(), "-o", "/dev/null");
        assertEquals(0, r.exit, r.toString());
        BasicFileAttributes a = Files.readAttributes(dn, BasicFileAttributes.class);
        assertTrue(a.isOther(), "/dev/null is still a device");
        assertEquals(0, Files.size(dn));
    }

    @Test
    void aFifoReceivesTheBytesAndStaysAFifo() throws Exception {
        Path fifo = tmp.resolve("pipe");
        assumeTrue(sh("mkfifo", fifo.toString()) == 0, "skipped: mkfifo not available");
        byte[] want = Files.readAllBytes(prog());
        CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> TestData.bytes(fifo));
        Cli r = Cli.run("convert", prog().toString(), "-o", fifo.toString());
        assertEquals(0, r.exit, r.toString());
        assertArrayEquals(want, read.get(60, TimeUnit.SECONDS));
        assertTrue(Files.readAttributes(fifo, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther(), "still a FIFO");
    }

    @Test
    void aSymlinkIsFollowedAndStaysALink() throws Exception {
        Path target = tmp.resolve("real.btf");
        Files.write(target, new byte[] {1});
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r-----"));
        Path link = Files.createSymbolicLink(tmp.resolve("link.btf"), Path.of("real.btf"));
        assertEquals(0, Cli.run("convert", prog().toString(), "-o", link.toString()).exit);
        assertTrue(Files.isSymbolicLink(link));
        assertEquals(Path.of("real.btf"), Files.readSymbolicLink(link));
        assertArrayEquals(Files.readAllBytes(prog()), Files.readAllBytes(target));
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(target)));
        // a dangling link: its target is created
        Path dangling = Files.createSymbolicLink(tmp.resolve("dangling.btf"), Path.of("new.btf"));
        assertEquals(0, Cli.run("convert", prog().toString(), "-o", dangling.toString()).exit);
        assertTrue(Files.isSymbolicLink(dangling));
        assertArrayEquals(Files.readAllBytes(prog()), Files.readAllBytes(tmp.resolve("new.btf")));
        assertEquals(List.of(), tempFilesIn(tmp));
    }

    @Test
    void dashIsStdoutForEveryOutput() throws Exception {
        byte[] want = Files.readAllBytes(prog());
        for (String dash : List.of("-", "/dev/stdout", "/dev/fd/1")) {
            Cli r = Cli.run("convert", prog().toString(), "-o", dash);
            assertEquals(0, r.exit, r.toString());
            assertArrayEquals(want, r.out, dash);
        }
        Cli dump = Cli.run("dump", prog().toString(), "-o", "-");
        assertArrayEquals(Cli.run("dump", prog().toString()).out, dump.out);
        Path map = tmp.resolve("m.tsv");
        Cli link = Cli.run("link", "-q", TestData.sample("gcc/job.o").toString(), "-o", "-", "--map", map.toString());
        assertEquals(0, link.exit, link.toString());
        assertEquals((byte) 0x9f, link.out[0]);
        assertTrue(Files.size(map) > 0);
        Cli twice = Cli.run("link", "-q", TestData.sample("gcc/job.o").toString(), "-o", "-", "--map", "/dev/stdout");
        assertEquals(2, twice.exit, twice.toString());
        assertEquals("btfkit: /dev/stdout: named as two outputs (stdout is the same file); give each output its own file\n", twice.err);
    }

    /** In a real process, whose stdout is a pipe: {@code /dev/stdout} writes the pipe and stays what it is. */
    @Test
    void devStdoutWritesThePipeOfAChild() throws Exception {
        byte[] want = Files.readAllBytes(prog());
        for (String dash : List.of("-", "/dev/stdout")) {
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "io.btfkit.cli.Main", "convert", prog().toString(), "-o", dash));
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] got = p.getInputStream().readAllBytes();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), dash);
            assertArrayEquals(want, got, dash);
        }
        assertFalse(Files.isRegularFile(Path.of("/dev/stdout")), "/dev/stdout is not a file now");
    }

    @Test
    void dashIsStdinForEveryInput() throws Exception {
        byte[] bytes = Files.readAllBytes(prog());
        Cli fromFile = Cli.run("dump", prog().toString());
        Cli fromStdin = Cli.runWithStdin(bytes, "dump", "-");
        assertEquals(0, fromStdin.exit, fromStdin.toString());
        assertArrayEquals(fromFile.out, fromStdin.out);
        Cli validate = Cli.runWithStdin(bytes, "validate", "-");
        assertEquals(Cli.run("validate", prog().toString()).outText(), validate.outText());
        assertTrue(Cli.runWithStdin(bytes, "stats", "-").outText().startsWith("file:            stdin (raw)"));
        byte[] job = Files.readAllBytes(TestData.sample("gcc/job.o"));
        Path a = tmp.resolve("a.btf");
        Path b = tmp.resolve("b.btf");
        assertEquals(0, Cli.run("link", "-q", TestData.sample("gcc/main.o").toString(), TestData.sample("gcc/job.o").toString(),
                "-o", a.toString()).exit);
        Cli link = Cli.runWithStdin(job, "link", "-q", TestData.sample("gcc/main.o").toString(), "-", "-o", b.toString());
        assertEquals(0, link.exit, link.toString());
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
        Cli garbage = Cli.runWithStdin("nonsense".getBytes(StandardCharsets.UTF_8), "dump", "-");
        assertEquals(2, garbage.exit);
        assertTrue(garbage.err.startsWith("btfkit: stdin: not BTF"), garbage.err);
        Cli twice = Cli.runWithStdin(bytes, "diff", "-", "-");
        assertEquals(2, twice.exit, twice.toString());
        assertTrue(twice.err.contains("standard input named 2 times"), twice.err);
    }

    @Test
    void standardInputIsBoundedWhileRead() {
        java.io.InputStream endless = new java.io.InputStream() {
            @Override
            public int read() {
                return 0;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                java.util.Arrays.fill(b, off, off + len, (byte) 0);
                return len;
            }
        };
        IOException e = assertThrows(IOException.class, () -> io.btfkit.core.io.FileBytes.read(endless, 1 << 20));
        assertTrue(e.getMessage().contains("larger than the 1048576-byte limit"), e.getMessage());
    }

    @Test
    void allOutputsLandTogetherOrNone() throws Exception {
        Path out = tmp.resolve("out.btf");
        Files.write(out, new byte[] {1, 2, 3});
        Path badMap = tmp.resolve("no-such-dir").resolve("map.tsv");
        Cli r = Cli.run("link", "-q", TestData.sample("gcc/job.o").toString(), "-o", out.toString(), "--map", badMap.toString());
        assertEquals(2, r.exit, r.toString());
        assertEquals("btfkit: " + badMap + ": cannot write: No such file or directory\n", r.err);
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(out), "-o not replaced when --map failed");
        assertEquals(List.of(), tempFilesIn(tmp));
        // and when both can be written, both land
        Path map = tmp.resolve("map.tsv");
        assertEquals(0, Cli.run("link", "-q", TestData.sample("gcc/job.o").toString(), "-o", out.toString(), "--map", map.toString()).exit);
        assertEquals((byte) 0x9f, Files.readAllBytes(out)[0]);
        assertTrue(Files.size(map) > 0);
    }

    @Test
    void distillsTwoOutputsLandTogether() throws Exception {
        Path base = TestData.golden("vmlinux-6.1.0-47.btf");
        Path mod = TestData.golden("modules/roles.btf");
        Path split = tmp.resolve("roles.split.btf");
        Files.write(split, new byte[] {9});
        Path baseOut = tmp.resolve("gone").resolve("roles.base.btf");
        Cli r = Cli.run("distill", mod.toString(), "--base", base.toString(), "-o", split.toString(), "--base-out", baseOut.toString());
        assertEquals(2, r.exit, r.toString());
        assertArrayEquals(new byte[] {9}, Files.readAllBytes(split));
        Cli same = Cli.run("distill", mod.toString(), "--base", base.toString(), "-o", split.toString(), "--base-out", split.toString());
        assertEquals(2, same.exit, same.toString());
        assertTrue(same.err.contains("named as two outputs"), same.err);
    }

    @Test
    void anOutputThatIsABaseOrAnotherOutputIsRefusedBeforeWork() throws Exception {
        Path base = tmp.resolve("base.btf");
        Files.copy(TestData.golden("vmlinux-6.1.0-47.btf"), base);
        byte[] before = Files.readAllBytes(base);
        String mod = TestData.golden("modules/roles.btf").toString();
        Path other = tmp.resolve("o.btf");
        Path map = tmp.resolve("m.tsv");
        Path sub = Files.createDirectory(tmp.resolve("d"));
        Path viaLink = Files.createSymbolicLink(tmp.resolve("d-link"), sub);
        Path hard = Files.createLink(tmp.resolve("base-hard.btf"), base);
        Path soft = Files.createSymbolicLink(tmp.resolve("base-soft.btf"), base);
        String[][] cases = {
            {"dedup", mod, "--base", base.toString(), "-o", base.toString()},
            {"dedup", mod, "--base", base.toString(), "-o", hard.toString()},
            {"dedup", mod, "--base", base.toString(), "-o", soft.toString()},
            {"dedup", mod, "--base", base.toString(), "-o", other.toString(), "--map", base.toString()},
            {"dedup", mod, "--base", base.toString(), "-o", map.toString(), "--map", map.toString()},
            {"dedup", mod, "--base", base.toString(), "-o", sub.resolve("x").toString(), "--map", viaLink.resolve("x").toString()},
            {"link", mod, "--base", base.toString(), "-o", other.toString(), "--map", tmp.resolve(".").resolve("o.btf").toString()},
            {"distill", mod, "--base", base.toString(), "-o", other.toString(), "--base-out", base.toString()},
            {"dump", mod, "--base", base.toString(), "-o", base.toString()},
        };
        for (String[] c : cases) {
            Cli r = Cli.run(c);
            assertEquals(2, r.exit, String.join(" ", c) + ": " + r);
            assertEquals(1, r.err.strip().split("\n").length, r.err);
            assertTrue(r.err.contains("overwrite the base") || r.err.contains("named as two outputs"), r.err);
        }
        assertArrayEquals(before, Files.readAllBytes(base));
        assertFalse(Files.exists(other));
        assertFalse(Files.exists(map));
        assertFalse(Files.exists(sub.resolve("x")));
    }

    @Test
    void batchStemsThatCollideAreRefusedBeforeWork() throws Exception {
        Path a = Files.createDirectories(tmp.resolve("a"));
        Path b = Files.createDirectories(tmp.resolve("b"));
        Files.copy(prog(), a.resolve("x.btf"));
        Files.copy(prog(), b.resolve("x.btf"));
        Files.copy(TestData.sample("gcc/job.o"), b.resolve("x.o"));
        Path out = tmp.resolve("out");
        Cli r = Cli.run("dedup", "-q", "--out-dir", out.toString(), a.resolve("x.btf").toString(), b.resolve("x.btf").toString(),
                b.resolve("x.o").toString());
        assertEquals(2, r.exit, r.toString());
        assertTrue(r.err.startsWith("btfkit: " + out.resolve("x.btf") + ": would be written for both " + a.resolve("x.btf")
                + " and " + b.resolve("x.btf")), r.err);
        assertFalse(Files.exists(out), "nothing done");
        // an input in the output directory would be its own output
        Cli self = Cli.run("convert", "-q", "--endian", "big", "--out-dir", a.toString(), a.resolve("x.btf").toString());
        assertEquals(2, self.exit, self.toString());
        assertTrue(self.err.contains("would overwrite the input"), self.err);
    }

    @Test
    void aBatchWriteFailureIsExit2AsInSingleMode() throws Exception {
        Path out = Files.createDirectories(tmp.resolve("out"));
        Files.createDirectory(out.resolve("prog.btf")); // where the output would go
        Cli r = Cli.run("convert", "-q", "--out-dir", out.toString(), prog().toString());
        assertEquals(2, r.exit, r.toString());
        assertTrue(r.err.contains("btfkit: " + out.resolve("prog.btf") + ": cannot write: Is a directory"), r.err);
        Cli single = Cli.run("convert", prog().toString(), "-o", out.resolve("prog.btf").toString());
        assertEquals(2, single.exit, single.toString());
    }

    @Test
    void aWritableFileInAReadOnlyDirectoryIsWrittenInPlace() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("ro"));
        Path out = dir.resolve("x.btf");
        Files.write(out, new byte[] {1});
        Object inode = Files.readAttributes(out, BasicFileAttributes.class).fileKey();
        // a directory nobody may add files to, whatever the user (root included)
        assumeTrue(sh("chattr", "+i", dir.toString()) == 0, "skipped: chattr +i not possible here (needs root and ext4)");
        try {
            Cli r = Cli.run("convert", prog().toString(), "-o", out.toString());
            assertEquals(0, r.exit, r.toString());
            assertArrayEquals(Files.readAllBytes(prog()), Files.readAllBytes(out));
            assertEquals(inode, Files.readAttributes(out, BasicFileAttributes.class).fileKey(), "same file, written in place");
            Path fresh = dir.resolve("new.btf");
            Cli refused = Cli.run("convert", prog().toString(), "-o", fresh.toString());
            assertEquals(2, refused.exit, refused.toString());
            // (an immutable directory refuses with EPERM; a read-only one with EACCES: ErrorsTest)
            assertEquals("btfkit: " + fresh + ": cannot write: Operation not permitted\n", refused.err);
        } finally {
            sh("chattr", "-i", dir.toString());
        }
        assertEquals(List.of(), tempFilesIn(dir));
        assertEquals(List.of(), tempFilesIn(Path.of(System.getProperty("java.io.tmpdir"))).stream()
                .filter(n -> n.startsWith(".x.btf" + Outputs.TMP_MARK + ProcessHandle.current().pid() + ".")).toList());
    }

    @Test
    void aFullFileSystemIsNamedWithTheUsersPath() throws Exception {
        Path mnt = Files.createDirectory(tmp.resolve("small"));
        assumeTrue(sh("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt.toString()) == 0,
                "skipped: cannot mount a 1 MB tmpfs (needs root)");
        try {
            Path out = mnt.resolve("v.json");
            Cli r = Cli.run("dump", TestData.golden("vmlinux-6.1.0-47.btf").toString(), "--format", "json", "-o", out.toString());
            assertEquals(2, r.exit, r.toString());
            assertEquals("btfkit: " + out + ": cannot write: No space left on device\n", r.err);
            assertEquals(0, filesIn(mnt), "neither output nor temporary file");
        } finally {
            sh("umount", mnt.toString());
        }
    }

    /**
     * SIGTERM (kill) and SIGINT (Ctrl-C) while the output is being written: the child is frozen
     * (SIGSTOP) once its temporary file holds bytes, so the signal meets it mid-write for certain
     * (checked on the frozen state), then signalled and let go. It dies of the signal, the output
     * is as before (absent, or the old file) and no temporary file is left.
     */
    @Test
    void killedMidRunLeavesNoPartialOutput() throws Exception {
        TestData.assumeSignalNotIgnored(2); // (the SIGINT round)
        Path in = TestData.vmlinux618(); // its JSON dump is 17 MB, written over about half a second
        Path dir = Files.createDirectory(tmp.resolve("runs"));
        byte[] old = "the previous output\n".getBytes(StandardCharsets.US_ASCII);
        record Round(String signal, int number, boolean existed) {
        }
        for (Round round : List.of(new Round("TERM", 15, false), new Round("INT", 2, true))) {
            Path out = dir.resolve("out-" + round.signal() + ".json");
            if (round.existed()) {
                Files.write(out, old);
            }
            String what = "SIG" + round.signal() + (round.existed() ? " over an existing output" : "");
            Process p = null;
            long partial = 0;
            for (int attempt = 0; attempt < 5 && partial == 0; attempt++) {
                p = child("dump", in.toString(), "--format", "json", "-o", out.toString());
                partial = freezeMidWrite(p, dir);
                if (partial == 0) { // it finished first: the output landed; try again
                    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
                    if (round.existed()) {
                        Files.write(out, old);
                    } else {
                        Files.deleteIfExists(out);
                    }
                }
            }
            assertTrue(partial > 0, what + ": the child was never caught writing its output (5 tries)");
            // frozen mid-write: a partial temporary file, the output not replaced yet
            assertOutputAsBefore(out, round.existed() ? old : null, what + ", frozen");
            signal(p, round.signal());
            signal(p, "CONT");
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), what + ": the child did not end");
            assertEquals(128 + round.number(), p.exitValue(), what + ": the child was not ended by the signal");
            assertOutputAsBefore(out, round.existed() ? old : null, what + " after " + partial + " bytes");
            assertEquals(List.of(), tempFilesIn(dir), what + ": temporary file left");
        }
    }

    /**
     * Waits until {@code p}'s temporary file in {@code dir} holds bytes, then stops {@code p}
     * (SIGSTOP) and returns how many bytes that file holds now; 0 when {@code p} ended first or
     * renamed the file before it stopped (nothing is pending then).
     */
    private static long freezeMidWrite(Process p, Path dir) throws Exception {
        while (p.isAlive()) {
            for (String name : tempFilesIn(dir)) {
                Path t = dir.resolve(name);
                if (sizeOrZero(t) > 0) {
                    signal(p, "STOP");
                    long now = sizeOrZero(t); // the state the signal will meet
                    if (now == 0) {
                        signal(p, "CONT");
                    }
                    return now;
                }
            }
            Thread.sleep(1);
        }
        return 0;
    }

    private static long sizeOrZero(Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            return 0; // renamed or removed meanwhile
        }
    }

    /** Sends {@code SIG<name>} to {@code p}, through the shell's kill (Java sends only TERM and KILL). */
    private static void signal(Process p, String name) {
        assertEquals(0, sh("sh", "-c", "kill -" + name + " " + p.pid()), "kill -" + name + " " + p.pid());
    }

    /** {@code out} is absent ({@code before} null) or holds exactly {@code before}. */
    private static void assertOutputAsBefore(Path out, byte[] before, String what) throws IOException {
        if (before == null) {
            assertFalse(Files.exists(out), what + ": " + out + " exists (" + sizeOrZero(out) + " bytes)");
        } else {
            assertArrayEquals(before, Files.readAllBytes(out), what + ": " + out + " changed");
        }
    }

    @Test
    void aTemporaryFileLeftBySigkillIsRemovedByTheNextRun() throws Exception {
        Path in = TestData.golden("vmlinux-6.1.0-47.btf");
        Path dir = Files.createDirectory(tmp.resolve("killed"));
        Path out = dir.resolve("v.json");
        List<String> left = List.of();
        for (int attempt = 0; attempt < 5 && left.isEmpty(); attempt++) {
            Process p = child("dump", in.toString(), "--format", "json", "-o", out.toString());
            while (p.isAlive() && (left = tempFilesIn(dir)).isEmpty()) {
                Thread.sleep(5);
            }
            p.destroyForcibly(); // SIGKILL: no shutdown hook runs
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            left = tempFilesIn(dir);
        }
        assumeTrue(!left.isEmpty(), "skipped: the child finished before it could be killed mid-write");
        assertTrue(left.get(0).startsWith(".v.json" + Outputs.TMP_MARK), left.toString());
        Cli r = Cli.run("dump", in.toString(), "--format", "json", "-o", out.toString());
        assertEquals(0, r.exit, r.toString());
        assertEquals(List.of(), tempFilesIn(dir), "the next run removed what the killed one left");
        assertTrue(Files.size(out) > 0);
    }

    @Test
    void temporaryNamesAreRecognised() {
        assertEquals(1234, Outputs.pidOf(".v.json" + Outputs.TMP_MARK + "1234.7"));
        assertEquals(-1, Outputs.pidOf("v.json" + Outputs.TMP_MARK + "1234.7"));
        assertEquals(-1, Outputs.pidOf(".v.json" + Outputs.TMP_MARK + "12x4.7"));
        assertEquals(-1, Outputs.pidOf(".v.json.tmp"));
    }

    /** btfkit in a child JVM (its output discarded). */
    static Process child(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "io.btfkit.cli.Main"));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }
}
