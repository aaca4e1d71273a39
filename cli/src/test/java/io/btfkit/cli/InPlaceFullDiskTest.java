package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.TestData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one non-atomic output (GUIDE: Outputs) on a full disk (issue 23): an existing output in an
 * immutable directory ({@code chattr +i}) on a nearly full 1 MiB tmpfs mounted here. Growing it
 * past the free space must fail with exit 2 and leave the old file as it was (it used to be
 * truncated, then partly written); shrinking and growing within the free space must give the
 * right bytes. Needs root, mount and chattr; skipped with the reason otherwise.
 */
class InPlaceFullDiskTest {
    @TempDir
    Path tmp;
    private Path mount;
    private Path dir;

    @BeforeEach
    void mountSmallFileSystem() throws Exception {
        Path mountTool = TestData.requireTool("mount");
        Path chattr = TestData.requireTool("chattr");
        TestData.requireTool("umount");
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "skipped: needs root to mount a tmpfs");
        mount = tmp.resolve("fs");
        Files.createDirectories(mount);
        String why = run(List.of(mountTool.toString(), "-t", "tmpfs", "-o", "size=1m", "none", mount.toString()));
        if (why != null) {
            mount = null;
            Assumptions.abort("skipped: cannot mount a tmpfs here: " + why);
        }
        dir = Files.createDirectory(mount.resolve("d"));
        Files.write(dir.resolve("out.btf"), TestData.bytes(TestData.sample("bpf/task_trace.bpf.o")));
        why = run(List.of(chattr.toString(), "+i", dir.toString()));
        Assumptions.assumeTrue(why == null, "skipped: chattr +i does not work on tmpfs here: " + why);
        Assumptions.assumeTrue(!canCreate(dir), "skipped: the immutable directory still takes new files");
    }

    @AfterEach
    void unmount() {
        if (mount != null) {
            run(List.of("chattr", "-i", dir == null ? mount.toString() : dir.toString()));
            run(List.of("umount", mount.toString()));
        }
    }

    /** Leaves about {@code free} bytes free on the file system. */
    private void fill(long free) throws IOException {
        long avail = Files.getFileStore(mount).getUsableSpace();
        Path filler = mount.resolve("filler");
        Files.deleteIfExists(filler);
        Files.write(filler, new byte[(int) Math.max(0, avail - free)]);
    }

    @Test
    void growingPastTheFreeSpaceLeavesTheOldFileAsItWas() throws Exception {
        Path out = dir.resolve("out.btf");
        byte[] old = Files.readAllBytes(out);
        fill(8192);
        Cli r = Cli.run("convert", TestData.golden("vmlinux-6.1.0-47.btf").toString(), "-o", out.toString());
        assertEquals(2, r.exit, r.toString());
        assertTrue(r.err.startsWith("btfkit: " + out + ": cannot write: No space left on device (rewriting it in place needs "),
                r.err);
        assertTrue(r.err.endsWith(" free; it is unchanged)\n"), r.err);
        assertArrayEquals(old, Files.readAllBytes(out), "the old output, byte for byte");
    }

    @Test
    void shrinkingAndGrowingWithinTheFreeSpaceWriteTheNewBytes() throws Exception {
        Path out = dir.resolve("out.btf");
        fill(256 << 10);
        Path expected = tmp.resolve("expected");
        Path kernel = TestData.golden("vmlinux-6.1.0-47.btf");
        // 13,656 bytes -> 3,354 (shrinks) -> 3,689 (grows a little) -> 19,250 (grows past the old size)
        for (List<String> args : List.of(List.of("dump", TestData.sample("bpf/net_stats.bpf.o").toString()),
                List.of("dump", TestData.sample("bpf/task_trace.bpf.o").toString()),
                List.of("dump", kernel.toString(), "--format", "c", "--root", "task_struct"))) {
            List<String> to = new java.util.ArrayList<>(args);
            to.addAll(List.of("-o", expected.toString()));
            assertEquals(0, Cli.run(to.toArray(String[]::new)).exit);
            to.set(to.size() - 1, out.toString());
            Cli r = Cli.run(to.toArray(String[]::new));
            assertEquals(0, r.exit, r.toString());
            assertArrayEquals(Files.readAllBytes(expected), Files.readAllBytes(out), args.toString());
        }
    }

    private static boolean canCreate(Path d) {
        try {
            Files.delete(Files.createFile(d.resolve("probe")));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Runs a command; null when it succeeded, else what it printed. */
    private static String run(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor() == 0 ? null : out.isEmpty() ? "exit " + p.exitValue() : out;
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
