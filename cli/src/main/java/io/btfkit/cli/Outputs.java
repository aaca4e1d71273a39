package io.btfkit.cli;

import io.btfkit.core.BtfFormatException;
import io.btfkit.core.io.FileBytes;
import io.btfkit.core.io.IoErrors;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Writes a command's outputs so that they respect what is there and land all together or not
 * at all (docs/GUIDE.md, "Outputs").
 *
 * <ul>
 * <li>A regular file (or a name that does not exist yet) is written to a temporary file in the
 *     same directory, {@code .NAME.btfkit-tmp.PID.N}, renamed over it when every output of the
 *     command is complete; the file it replaces keeps its permission bits (and, as root, its
 *     owner). A symlink is followed: its target is replaced, the link stays a link.</li>
 * <li>A character device, FIFO or socket, {@code /dev/fd/N}, and stdout ({@code -},
 *     {@code /dev/stdout}) are written in place, after every file output is complete.</li>
 * <li>A write-protected file is refused ({@code Permission denied}); a writable file in a
 *     directory that refuses new files is written in place once its bytes are ready (in a
 *     temporary file under {@code java.io.tmpdir}) — the one case that is not atomic.</li>
 * </ul>
 *
 * A temporary file is registered for removal before it is created, so Ctrl-C or SIGTERM at any
 * moment leaves none; one a SIGKILL left is removed by the next run that writes into its
 * directory (its name says which process made it, and that process is gone).
 */
final class Outputs {
    /** Marks btfkit's temporary files: {@code .NAME.btfkit-tmp.PID.N}. */
    static final String TMP_MARK = ".btfkit-tmp.";

    private static final long PID = currentPid();
    private static final Set<Path> PENDING = ConcurrentHashMap.newKeySet();
    private static final Set<Path> SWEPT = ConcurrentHashMap.newKeySet();
    private static final AtomicLong SEQ = new AtomicLong();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Outputs::removePending, "btfkit-cleanup"));
    }

    private Outputs() {
    }

    /** Streams one output's bytes. */
    interface Body {
        void writeTo(OutputStream os) throws IOException;
    }

    /** Writes one output (checked against {@code inputs} first); see {@link Transaction}. */
    static void write(Path out, byte[] data, Collection<Path> inputs, boolean inPlace) {
        write(out, os -> os.write(data), inputs, inPlace);
    }

    static void write(Path out, Body body, Collection<Path> inputs, boolean inPlace) {
        check(inputs, List.of(), List.of(out), inPlace);
        try (Transaction t = new Transaction()) {
            t.add(out, body);
            t.commit();
        }
    }

    // ------------------------------------------------------------------ checks before any work

    /** {@code paths} without nulls (commands pass their optional outputs as they are). */
    static List<Path> given(Path... paths) {
        List<Path> l = new ArrayList<>();
        for (Path p : paths) {
            if (p != null) {
                l.add(p);
            }
        }
        return l;
    }

    /**
     * Refuses, before any work (exit 2), outputs that would overwrite an input (unless
     * {@code inPlace}) or a base, two outputs that are one file, and {@code -} read twice.
     * Files are compared by identity (device and inode; for a name that does not exist yet, its
     * path after its directory's symlinks are resolved); devices and FIFOs are never "the same
     * output" (writing /dev/null twice is fine), stdout is.
     */
    static void check(Collection<Path> inputs, Collection<Path> bases, Collection<Path> outputs, boolean inPlace) {
        inputs = inputs.stream().filter(Objects::nonNull).toList();
        bases = bases.stream().filter(Objects::nonNull).toList();
        checkStdin(inputs, bases);
        Map<Object, Path> read = identities(inputs);
        Map<Object, Path> baseIds = identities(bases);
        Map<Object, Path> written = new HashMap<>();
        for (Path out : outputs) {
            if (out == null) {
                continue;
            }
            Object id = outputIdentity(out);
            if (id == null) {
                continue;
            }
            Path other = written.put(id, out);
            Path shown = Inputs.isStdin(out) ? Path.of("stdout") : out;
            if (other != null) {
                throw usage(shown, "named as two outputs" + (other.toString().equals(out.toString()) ? ""
                        : " (" + Names.output(other) + " is the same file)") + "; give each output its own file");
            }
            if (baseIds.containsKey(id)) {
                throw usage(shown, "output would overwrite the base " + Names.quote(baseIds.get(id)) + "; choose another output");
            }
            if (read.containsKey(id) && !inPlace) {
                throw usage(shown, "output would overwrite an input; choose another -o"
                        + (inputs.size() == 1 ? " or pass --in-place where the command has it" : ""));
            }
        }
    }

    /** Each file's identity ({@link #inputIdentity}) to the first name it was given by. */
    private static Map<Object, Path> identities(Collection<Path> files) {
        Map<Object, Path> ids = new HashMap<>();
        for (Path f : files) {
            ids.putIfAbsent(inputIdentity(f), f);
        }
        return ids;
    }

    /**
     * The batch form of {@link #check}: every input's outputs ({@code outputsOf}) are distinct
     * from each other's — two inputs with the same stem ({@code a/x.btf}, {@code b/x.ko}) are an
     * error before any work, not one output silently replacing the other — and from every input
     * and base ({@code inPlace}: an input may be its own output).
     */
    static void checkBatch(List<Path> inputs, Collection<Path> bases, Function<Path, List<Path>> outputsOf, boolean inPlace) {
        checkStdin(inputs, bases);
        Map<Object, Path> read = identities(inputs);
        Map<Object, Path> baseIds = identities(bases);
        Map<Object, Path> writtenFor = new HashMap<>();
        for (Path in : inputs) {
            for (Path out : outputsOf.apply(in)) {
                Object id = outputIdentity(out);
                if (id == null) {
                    continue;
                }
                Path other = writtenFor.put(id, in);
                if (other != null && !other.equals(in)) { // (an input named twice is written twice, alike)
                    throw usage(out, "would be written for both " + Names.quote(other) + " and " + Names.quote(in)
                            + " (same name); give each input a distinct name or run them separately");
                }
                if (baseIds.containsKey(id)) {
                    throw usage(out, "output would overwrite the base " + Names.quote(baseIds.get(id)) + "; choose another --out-dir");
                }
                Path victim = read.get(id);
                if (victim != null && !(inPlace && Objects.equals(inputIdentity(in), id))) {
                    throw usage(out, "output would overwrite the input " + Names.quote(victim) + "; choose another --out-dir");
                }
            }
        }
    }

    private static void checkStdin(Collection<Path> inputs, Collection<Path> bases) {
        long dashes = inputs.stream().filter(Inputs::isStdin).count() + bases.stream().filter(Inputs::isStdin).count();
        if (dashes > 1) {
            throw usage(Path.of("-"), "standard input named " + dashes + " times; it can be read once");
        }
    }

    private static FileException usage(Path file, String message) {
        return new FileException(file, new BtfFormatException(message));
    }

    /** What identifies an input: its device and inode, else (not there) its normalised path. */
    private static Object inputIdentity(Path p) {
        if (Inputs.isStdin(p)) {
            return "<stdin>";
        }
        try {
            Object key = Files.readAttributes(p, BasicFileAttributes.class).fileKey();
            return key != null ? key : p.toRealPath();
        } catch (IOException e) {
            return canonical(p.toAbsolutePath());
        }
    }

    /** What identifies an output's target, or null for a device, FIFO or socket (never "the same output"). */
    private static Object outputIdentity(Path out) {
        Target t;
        try {
            t = resolve(out);
        } catch (IOException e) {
            return canonical(out.toAbsolutePath()); // the write reports why
        }
        if (t.kind == Kind.STDOUT) {
            return "<stdout>";
        }
        if (t.kind == Kind.STREAM) {
            return null;
        }
        try {
            Object key = Files.readAttributes(t.path, BasicFileAttributes.class).fileKey();
            return key != null ? key : t.path;
        } catch (IOException e) {
            return t.path; // not there yet: its canonical path
        }
    }

    // ------------------------------------------------------------------ what a path writes to

    enum Kind { STDOUT, STREAM, FILE }

    /** Where an output goes: stdout, a stream written in place, or a regular file (path: after symlinks). */
    record Target(Kind kind, Path path) {
    }

    /**
     * Follows {@code out}'s symlinks (at most 40, as the kernel) to what it names: {@code -} and
     * this process's descriptor 1 ({@code /dev/stdout}, {@code /dev/fd/1}) are stdout; another
     * of its descriptors, a character device, a FIFO or a socket is a stream; anything else is a
     * regular file, existing or to be created (a directory is an error).
     */
    static Target resolve(Path out) throws IOException {
        if (Inputs.isStdin(out)) {
            return new Target(Kind.STDOUT, null);
        }
        Path p = out.toAbsolutePath();
        for (int hops = 0; hops <= 40; hops++) {
            Path parent = p.getParent();
            if (parent != null && isOwnDescriptorDir(parent)) {
                return p.getFileName().toString().equals("1") ? new Target(Kind.STDOUT, null) : new Target(Kind.STREAM, p);
            }
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException e) {
                return new Target(Kind.FILE, canonical(p));
            }
            if (a.isSymbolicLink()) {
                Path link = Files.readSymbolicLink(p);
                p = parent == null ? link : parent.resolve(link);
                continue;
            }
            if (a.isDirectory()) {
                throw new FileSystemException(out.toString(), null, "Is a directory");
            }
            return a.isRegularFile() ? new Target(Kind.FILE, canonical(p)) : new Target(Kind.STREAM, p);
        }
        throw new FileSystemException(out.toString(), null, "Too many levels of symbolic links");
    }

    private static boolean isOwnDescriptorDir(Path dir) {
        if (!dir.startsWith("/proc") && !dir.startsWith("/dev")) {
            return false;
        }
        try {
            return dir.toRealPath().equals(Path.of("/proc", Long.toString(PID), "fd"));
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code p} with its directory's symlinks resolved, when the directory exists. */
    private static Path canonical(Path p) {
        Path parent = p.getParent();
        if (parent == null || p.getFileName() == null) {
            return p.normalize();
        }
        try {
            return parent.toRealPath().resolve(p.getFileName());
        } catch (IOException e) {
            return p.normalize();
        }
    }

    // ------------------------------------------------------------------ writing

    /**
     * The outputs of one command (in batch mode: of one input). {@link #add} writes each file
     * output to its temporary file at once (so a failure is found before anything lands);
     * {@link #commit} writes the streams, then renames every temporary file into place.
     * Closing without a commit removes the temporary files: the old outputs stay as they were.
     */
    static final class Transaction implements AutoCloseable {
        private final List<Staged> staged = new ArrayList<>();

        private record Staged(Path out, Target target, Body body, Path tmp, boolean inPlace) {
        }

        void add(Path out, byte[] data) {
            add(out, os -> os.write(data));
        }

        void add(Path out, Body body) {
            Target t;
            try {
                t = resolve(out);
            } catch (IOException e) {
                throw new WriteException(out, e);
            }
            staged.add(t.kind == Kind.FILE ? stageFile(out, t, body) : new Staged(out, t, body, null, false));
        }

        void commit() {
            // streams cannot be taken back: they go once every file output is complete
            for (Staged s : staged) {
                if (s.body != null) {
                    writeStream(s);
                }
            }
            for (Staged s : staged) {
                if (s.tmp != null) {
                    land(s);
                }
            }
            staged.clear();
        }

        @Override
        public void close() {
            for (Staged s : staged) {
                if (s.tmp != null && PENDING.remove(s.tmp)) {
                    deleteQuietly(s.tmp);
                }
            }
            staged.clear();
        }

        private static Staged stageFile(Path out, Target t, Body body) {
            Path file = t.path;
            Path dir = file.getParent();
            sweep(dir);
            PosixFileAttributes existing;
            try {
                existing = Files.readAttributes(file, PosixFileAttributes.class);
            } catch (NoSuchFileException e) {
                existing = null;
            } catch (IOException e) {
                throw new WriteException(out, e);
            }
            if (existing != null && !writable(file, existing)) {
                throw new WriteException(out, "Permission denied", null);
            }
            Path tmp = tempName(dir, file.getFileName());
            boolean inPlace = false;
            try {
                OutputStream raw;
                PENDING.add(tmp); // before it exists: a signal in between still finds it
                try {
                    // one open that creates: a new output gets the mode a plain write gives
                    // (0666 less the umask), and no truncation, which on ext4 forces a flush
                    raw = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                } catch (IOException e) {
                    if (existing == null || !refusesNewFiles(e)) {
                        throw e;
                    }
                    // a writable file in a directory we cannot add to: ready the bytes elsewhere
                    PENDING.remove(tmp);
                    Path elsewhere = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
                    sweep(elsewhere);
                    tmp = tempName(elsewhere, file.getFileName());
                    PENDING.add(tmp);
                    raw = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    inPlace = true;
                }
                try (OutputStream os = new BufferedOutputStream(FileBytes.chunked(raw), 1 << 16)) {
                    body.writeTo(os);
                } catch (UncheckedIOException e) {
                    throw IoErrors.unwrap(e);
                }
                if (existing != null && !inPlace) {
                    keepMetadata(existing, tmp);
                }
                return new Staged(out, t, null, tmp, inPlace);
            } catch (IOException e) {
                discard(tmp);
                throw new WriteException(out, e);
            } catch (RuntimeException | Error e) {
                discard(tmp);
                throw e;
            }
        }

        private static void writeStream(Staged s) {
            if (s.target.kind == Kind.STDOUT) {
                try {
                    OutputStream os = new BufferedOutputStream(Streams.out(), 1 << 16);
                    s.body.writeTo(os);
                    os.flush();
                } catch (IOException e) {
                    throw new UncheckedIOException(e); // reported as btfkit: stdout: REASON
                }
                return;
            }
            try (OutputStream os = new BufferedOutputStream(FileBytes.chunked(Files.newOutputStream(s.target.path,
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)), 1 << 16)) {
                s.body.writeTo(os);
            } catch (IOException e) {
                throw new WriteException(s.out, e);
            } catch (UncheckedIOException e) {
                throw new WriteException(s.out, IoErrors.unwrap(e));
            }
        }

        private static void land(Staged s) {
            Path file = s.target.path;
            try {
                if (s.inPlace) {
                    InPlaceCopy.copy(s.tmp, file, s.out);
                    discard(s.tmp);
                    return;
                }
                try {
                    Files.move(s.tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(s.tmp, file, StandardCopyOption.REPLACE_EXISTING);
                }
                PENDING.remove(s.tmp);
            } catch (IOException e) {
                throw new WriteException(s.out, e);
            }
        }
    }

    /**
     * Whether btfkit may replace {@code file}: the OS would let us open it for writing, and —
     * root being let write anything — its mode has a write bit at all: a 0444 output is
     * refused as cp refuses it for its owner, also for root (a deliberately protected file).
     */
    private static boolean writable(Path file, PosixFileAttributes a) {
        Set<PosixFilePermission> m = a.permissions();
        return Files.isWritable(file) && (m.contains(PosixFilePermission.OWNER_WRITE)
                || m.contains(PosixFilePermission.GROUP_WRITE) || m.contains(PosixFilePermission.OTHERS_WRITE));
    }

    private static boolean refusesNewFiles(IOException e) {
        return e instanceof AccessDeniedException || e instanceof FileSystemException f
                && ("Read-only file system".equals(f.getReason()) || "Operation not permitted".equals(f.getReason()));
    }

    /** The replaced file's mode (and owner and group, where we may set them) on its replacement. */
    private static void keepMetadata(PosixFileAttributes was, Path tmp) throws IOException {
        Files.setPosixFilePermissions(tmp, was.permissions());
        PosixFileAttributeView v = Files.getFileAttributeView(tmp, PosixFileAttributeView.class);
        try {
            PosixFileAttributes now = v.readAttributes();
            if (!now.group().equals(was.group())) {
                v.setGroup(was.group());
            }
            if (!now.owner().equals(was.owner())) {
                v.setOwner(was.owner());
            }
        } catch (IOException e) {
            // not ours to give away (not root): the new file is ours, as an editor's save would be
        }
    }

    /** {@code DIR/.NAME.btfkit-tmp.PID.N}, NAME cut to fit a 255-byte file name. */
    private static Path tempName(Path dir, Path name) {
        String n = name.toString();
        while (n.getBytes(StandardCharsets.UTF_8).length > 200) {
            n = n.substring(0, n.length() - 1);
        }
        return dir.resolve("." + n + TMP_MARK + PID + "." + SEQ.incrementAndGet());
    }

    /**
     * Removes, once per directory and run, temporary files that a killed btfkit left there: the
     * process their name records is gone. (A process of another PID namespace writing into the
     * same directory could be taken for gone; btfkit's outputs are not shared that way.)
     */
    static void sweep(Path dir) {
        if (dir == null || !SWEPT.add(dir)) {
            return;
        }
        // a plain filter, not a glob: a glob compiles a regex, a cost every run would pay
        DirectoryStream.Filter<Path> ours = f -> f.getFileName().toString().contains(TMP_MARK);
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, ours)) {
            for (Path f : ds) {
                long pid = pidOf(f.getFileName().toString());
                if (pid > 0 && pid != PID && !alive(pid)) {
                    try {
                        Files.deleteIfExists(f);
                    } catch (IOException e) {
                        // not ours to remove: leave it
                    }
                }
            }
        } catch (IOException | java.nio.file.DirectoryIteratorException e) {
            // cannot list it: nothing to clean (writing there reports any real problem)
        }
    }

    /** The PID in {@code .NAME.btfkit-tmp.PID.N}, or -1 when the name is not of that form. */
    static long pidOf(String name) {
        int at = name.lastIndexOf(TMP_MARK);
        if (!name.startsWith(".") || at < 0) {
            return -1;
        }
        String rest = name.substring(at + TMP_MARK.length());
        int dot = rest.indexOf('.');
        if (dot < 0 || !digits(rest, 0, dot) || !digits(rest, dot + 1, rest.length())) {
            return -1;
        }
        return Long.parseLong(rest, 0, dot, 10);
    }

    /** 1 to 18 ASCII digits in {@code s[from, to)}. */
    private static boolean digits(String s, int from, int to) {
        if (to - from < 1 || to - from > 18) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /**
     * This process's id from /proc/self (ProcessHandle would start its class's machinery, a
     * thread pool among it, for every run: measurable in a 0.1 s command); ProcessHandle where
     * there is no /proc.
     */
    private static long currentPid() {
        try {
            return Long.parseLong(Files.readSymbolicLink(Path.of("/proc/self")).toString());
        } catch (IOException | NumberFormatException | UnsupportedOperationException e) {
            return ProcessHandle.current().pid();
        }
    }

    /** Whether process {@code pid} exists (/proc/PID; ProcessHandle where there is no /proc). */
    private static boolean alive(long pid) {
        if (Files.isDirectory(Path.of("/proc/self"))) {
            return Files.exists(Path.of("/proc/" + pid));
        }
        return ProcessHandle.of(pid).isPresent();
    }

    /** Creates the batch output directory if needed. */
    static void ensureDirectory(Path dir) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new FileException(dir, new BtfFormatException("not a directory (--out-dir names the directory outputs go to)"));
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new FileException(dir, new BtfFormatException("cannot create directory: " + IoErrors.reason(e)));
        }
    }

    private static void discard(Path tmp) {
        if (tmp != null && PENDING.remove(tmp)) {
            deleteQuietly(tmp);
        }
    }

    private static void removePending() {
        for (Path p : PENDING) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                // the next run in that directory removes it
            }
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // Best effort: the temp file has a dot-name next to the target; say so once.
            Streams.err().println("btfkit: " + Names.quote(p) + ": could not remove temporary file: " + IoErrors.reason(e));
        }
    }
}
