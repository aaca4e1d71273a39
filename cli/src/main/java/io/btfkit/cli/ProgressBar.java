package io.btfkit.cli;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The progress line of a batch run on a terminal: {@code relocate [=====     ] 76/1200}, fitted
 * to the terminal's width (so it never wraps and scrolls), redrawn in place ({@code \r}, the
 * line, erase to its end), and erased before any other line is printed — {@link #guard(PrintWriter)}
 * and {@link #guard(OutputStream)} wrap the streams of a run so that every message, from any
 * thread, starts at column 0 of a clean line. The next update draws the bar again below it.
 *
 * <p>Width: {@code COLUMNS} when set (bash sets it but does not export it, so it is an explicit
 * choice), else {@code stty size} on the controlling terminal, else 80. Read once per run: a
 * terminal resized during a run gets a wrapped bar until the run ends. The line is kept one column
 * short of the width, as a character in the last column leaves some terminals waiting to wrap.
 */
final class ProgressBar {
    /** Erases the current line: carriage return, then erase to the end of the line. */
    static final String CLEAR = "\r\033[K";

    private final String label;
    private final int total;
    private final PrintWriter err;
    private final int columns;
    private final long minNanosBetweenDraws;
    private long lastDraw;
    private boolean drawn;
    private boolean forceNext = true;
    /** Whether what was written through the guards ends a line: a bar drawn mid-line would split it. */
    private boolean atLineStart = true;
    /** Set once the run is interrupted: the bar is gone for good. */
    private boolean stopped;

    /** A bar drawn on {@code err}, {@code columns} wide (0: off), redrawn at most every {@code minNanosBetweenDraws}. */
    ProgressBar(String label, int total, PrintWriter err, int columns, long minNanosBetweenDraws) {
        this.label = label;
        this.total = total;
        this.err = err;
        this.columns = columns;
        this.minNanosBetweenDraws = minNanosBetweenDraws;
    }

    /** The bar a batch shows on stderr: on when stderr is a terminal and not {@code quiet}; 10 draws a second. */
    static ProgressBar forStderr(String label, int total, PrintWriter err, boolean quiet) {
        return new ProgressBar(label, total, err, quiet || !stderrIsTerminal() ? 0 : terminalColumns(), 100_000_000L);
    }

    boolean isOn() {
        return columns > 0;
    }

    /** Shows that {@code done} of the inputs are done (throttled; the last one is always drawn). */
    synchronized void update(int done) {
        if (!isOn() || !atLineStart || stopped) {
            return;
        }
        long now = System.nanoTime();
        if (forceNext || done == total || now - lastDraw >= minNanosBetweenDraws) {
            lastDraw = now;
            forceNext = false;
            err.print("\r" + render(done, total, label, columns) + "\033[K");
            err.flush();
            drawn = true;
        }
    }

    /** Erases the bar if it is on the screen (before another line, and at the end of the run). */
    synchronized void clear() {
        if (drawn) {
            err.print(CLEAR);
            err.flush();
            drawn = false;
            forceNext = true;
        }
    }

    /**
     * The run was interrupted (Ctrl-C; called from a shutdown hook while work is still going on):
     * the bar is erased and drawn no more, and {@code btfkit: interrupted} ends the output on a
     * line of its own, so the shell's prompt that follows starts on a clean line.
     */
    synchronized void interrupted() {
        clear();
        stopped = true;
        err.println("btfkit: interrupted");
        err.flush();
    }

    /**
     * The bar's text for a terminal {@code columns} wide, at most {@code columns - 1} characters:
     * {@code LABEL [===   ] DONE/TOTAL}, the counts padded to a fixed width so the line does not
     * jitter; on a narrow terminal the bar shrinks, then goes, then the label is cut.
     */
    static String render(int done, int total, String label, int columns) {
        int room = Math.max(1, columns - 1);
        String totalText = Integer.toString(total);
        String count = " ".repeat(Math.max(0, totalText.length() - Integer.toString(done).length())) + done + "/" + totalText;
        int barWidth = Math.min(50, room - label.length() - count.length() - 4); // " [" + "] "
        String line;
        if (barWidth >= 5) {
            int filled = total == 0 ? barWidth : (int) ((long) Math.min(done, total) * barWidth / total);
            line = label + " [" + "=".repeat(filled) + " ".repeat(barWidth - filled) + "] " + count;
        } else {
            line = label + " " + count;
        }
        return line.length() <= room ? line : line.substring(line.length() - room);
    }

    /** {@code w}, with the bar erased before anything is written through it. */
    PrintWriter guard(PrintWriter w) {
        if (!isOn()) {
            return w;
        }
        return new PrintWriter(new Writer() {
            @Override
            public void write(char[] buf, int off, int len) {
                synchronized (ProgressBar.this) {
                    clear();
                    w.write(buf, off, len);
                    if (len > 0) {
                        atLineStart = buf[off + len - 1] == '\n';
                    }
                }
            }

            @Override
            public void flush() {
                w.flush();
            }

            @Override
            public void close() {
                w.flush();
            }
        }, true);
    }

    /** {@code os}, with the bar erased before anything is written through it (stdout on the same terminal). */
    OutputStream guard(OutputStream os) {
        if (!isOn()) {
            return os;
        }
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                synchronized (ProgressBar.this) {
                    clear();
                    os.write(b, off, len);
                    if (len > 0) {
                        atLineStart = b[off + len - 1] == '\n';
                    }
                }
            }

            @Override
            public void flush() throws IOException {
                os.flush();
            }
        };
    }

    /** Whether fd 2 is a terminal (Linux: /proc/self/fd/2 links to a tty), and the terminal draws escapes. */
    static boolean stderrIsTerminal() {
        if ("dumb".equals(System.getenv("TERM"))) {
            return false;
        }
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null; // no /proc: stdin and stdout on a terminal is the next best sign
        }
    }

    /** COLUMNS if set, else {@code stty size} of the controlling terminal, else 80. */
    static int terminalColumns() {
        int c = parseColumns(System.getenv("COLUMNS"));
        if (c > 0) {
            return c;
        }
        try {
            Process p = new ProcessBuilder("stty", "size").redirectInput(new File("/dev/tty"))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            if (p.waitFor(2, TimeUnit.SECONDS) && p.exitValue() == 0) {
                String[] rowsCols = out.split("\\s+");
                c = rowsCols.length == 2 ? parseColumns(rowsCols[1]) : 0;
            }
        } catch (IOException e) {
            c = 0; // no stty, or no controlling terminal
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return c > 0 ? c : 80;
    }

    private static int parseColumns(String s) {
        try {
            return s == null ? 0 : Math.max(0, Integer.parseInt(s.trim()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
