package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.BtfWriter;
import io.btfkit.core.TestData;
import io.btfkit.core.text.RawTextParser;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The progress bar fits the terminal and never shares a line with a message: what it writes is
 * played on a small terminal model (cursor, carriage return, erase to end of line, wrap at the
 * width), at 40 and 200 columns — first the bar alone with messages between updates, then a real
 * batch run on a pseudo-terminal ({@code script}), with failing inputs, whose width comes once
 * from {@code stty} and once from {@code COLUMNS}.
 */
class ProgressBarTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(ints = {40, 200})
    void everyUpdateFitsOnOneLine(int columns) {
        for (int total : new int[] {0, 1, 7, 1200, 123_456_789}) {
            for (String label : List.of("relocate", "validate", "a-label-longer-than-forty-columns-of-a-terminal")) {
                for (int done = 0; done <= Math.min(total, 2000); done++) {
                    String line = ProgressBar.render(done, total, label, columns);
                    assertTrue(line.length() < columns, line.length() + " columns: " + line);
                }
            }
        }
        String full = ProgressBar.render(1200, 1200, "relocate", columns);
        assertTrue(full.endsWith("] 1200/1200") && full.contains("[="), full);
    }

    @ParameterizedTest
    @ValueSource(ints = {40, 200})
    void messagesStartOnACleanLine(int columns) {
        StringWriter raw = new StringWriter();
        PrintWriter err = new PrintWriter(raw, true);
        ProgressBar bar = new ProgressBar("relocate", 1200, err, columns, 0);
        PrintWriter messages = bar.guard(err);
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        OutputStream out = bar.guard(new OutputStream() {
            @Override
            public void write(int b) {
                stdout.write(b);
                raw.write(b); // stdout on the same terminal
            }
        });
        List<String> expected = new ArrayList<>();
        for (int done = 1; done <= 1200; done++) {
            bar.update(done);
            if (done % 75 == 0) {
                String m = "btfkit: dist/m" + done + ".split.btf: cannot relocate: 1 type has no match in the new base";
                messages.println(m);
                expected.add(m);
            }
            if (done % 400 == 0) {
                new PrintWriter(out, true).println("out " + done);
                expected.add("out " + done);
            }
        }
        bar.clear();
        Terminal t = Terminal.play(raw.toString(), columns);
        assertEquals(List.of(), t.barOverflows, "a bar line wrapped");
        assertEquals(List.of(), t.messagesNotAtColumn0, "a message began after other text");
        assertEquals(expected, t.lines(), "the screen holds the messages and nothing of the bar");
        assertTrue(t.bars > 16, "the bar was drawn between the messages: " + t.bars);
    }

    @ParameterizedTest
    @ValueSource(ints = {40, 200})
    void aBatchOnAPseudoTerminal(int columns) throws Exception {
        Path script = TestData.tool("script");
        Assumptions.assumeTrue(script != null, "skipped: script (util-linux) not installed, no pseudo-terminal");
        Path ok = tmp.resolve("ok.btf");
        Files.write(ok, BtfWriter.write(RawTextParser.parse("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n", null)));
        List<String> args = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            Path f = tmp.resolve("in" + i + ".btf");
            if (i % 50 == 7) {
                Files.writeString(f, "garbage\n");
            } else {
                Files.copy(ok, f);
            }
            args.add(f.toString());
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cmd = (columns == 40 ? "stty cols 40 rows 24; " : "") + "exec '" + java + "' -cp '" + System.getProperty("java.class.path")
                + "' io.btfkit.cli.Main validate " + String.join(" ", args);
        ProcessBuilder pb = new ProcessBuilder(script.toString(), "-qec", cmd, "/dev/null")
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Map<String, String> env = pb.environment();
        env.remove("COLUMNS");
        env.put("TERM", "xterm");
        if (columns != 40) {
            env.put("COLUMNS", Integer.toString(columns));
        }
        Process p = pb.start();
        String screen = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(1, p.waitFor(), screen);
        Terminal t = Terminal.play(screen, columns);
        assertTrue(t.bars > 0, "no progress bar drawn: " + screen);
        assertEquals(List.of(), t.barOverflows, "a bar line wrapped");
        assertEquals(List.of(), t.messagesNotAtColumn0, "a message began after other text");
        assertEquals(8, t.lines().stream().filter(l -> l.startsWith("btfkit: " + tmp) && l.contains("not BTF")).count(), screen);
        assertTrue(t.lines().get(t.lines().size() - 1).startsWith("btfkit: validate: 392 ok, 8 failed in "), screen);
    }

    @org.junit.jupiter.api.Test
    void anInterruptErasesTheBarAndSaysSo() {
        StringWriter raw = new StringWriter();
        ProgressBar bar = new ProgressBar("dedup", 100, new PrintWriter(raw, true), 80, 0);
        bar.update(3);
        bar.interrupted();
        bar.update(4);
        assertTrue(raw.toString().endsWith(ProgressBar.CLEAR + "btfkit: interrupted" + System.lineSeparator()), raw.toString());
        Terminal t = Terminal.play(raw.toString(), 80);
        assertEquals(List.of("btfkit: interrupted"), t.lines(), "no bar left, nothing drawn after");
    }

    /** Ctrl-C during a batch on a terminal: the bar is erased, the last line says so, exit 130. */
    @org.junit.jupiter.api.Test
    void ctrlCDuringABatchLeavesACleanLine() throws Exception {
        Path script = TestData.requireTool("script");
        TestData.assumeSignalNotIgnored(2);
        Path module = TestData.golden("modules/roles.btf");
        Path base = TestData.golden("vmlinux-6.1.0-56.btf");
        Path argFile = tmp.resolve("args");
        List<String> args = new ArrayList<>(List.of("validate", "--base", base.toString()));
        for (int i = 0; i < 20_000; i++) {
            args.add(module.toString()); // (a long batch: the interrupt lands in the middle of it)
        }
        Files.write(argFile, args);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cmd = "exec '" + java + "' -cp '" + System.getProperty("java.class.path") + "' io.btfkit.cli.Main @" + argFile;
        ProcessBuilder pb = new ProcessBuilder(script.toString(), "-qec", cmd, "/dev/null")
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().put("TERM", "xterm");
        pb.environment().put("COLUMNS", "100");
        Process p = pb.start();
        ByteArrayOutputStream screen = new ByteArrayOutputStream();
        Thread reader = new Thread(() -> {
            try {
                p.getInputStream().transferTo(screen);
            } catch (java.io.IOException e) {
                // the process is gone
            }
        });
        reader.start();
        try {
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (!screen.toString(StandardCharsets.UTF_8).contains("validate [") && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(p.isAlive(), "the batch ended before it could be interrupted: " + screen);
            ProcessHandle jvm = p.toHandle().descendants().filter(h -> h.info().command().orElse("").endsWith("java"))
                    .findFirst().orElseThrow();
            new ProcessBuilder("kill", "-INT", Long.toString(jvm.pid())).start().waitFor();
            assertEquals(130, p.waitFor(), screen.toString(StandardCharsets.UTF_8));
            reader.join();
        } finally {
            p.destroyForcibly();
        }
        String out = screen.toString(StandardCharsets.UTF_8).replace("\r\n", "\n");
        Terminal t = Terminal.play(out, 100);
        assertEquals(List.of("btfkit: interrupted"), t.lines(), "the bar erased, one line said: " + out);
        assertTrue(out.endsWith("btfkit: interrupted\n"), "the prompt after it starts a fresh line: " + out);
    }

    /**
     * What a terminal of {@code width} columns shows after the bytes: {@code \r} to column 0,
     * {@code ESC [ K} erases to the end of the line, {@code \n} to the next line; a character
     * past the last column wraps. Records bar draws (text after {@code \r} that is not a message)
     * that would wrap, and messages ({@code btfkit:} or {@code out}) that begin after other text.
     */
    static final class Terminal {
        final List<StringBuilder> rows = new ArrayList<>(List.of(new StringBuilder()));
        final List<String> barOverflows = new ArrayList<>();
        final List<String> messagesNotAtColumn0 = new ArrayList<>();
        int bars;

        static Terminal play(String s, int width) {
            Terminal t = new Terminal();
            int col = 0;
            boolean inBar = false;
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                StringBuilder row = t.rows.get(t.rows.size() - 1);
                if (c == '\r') {
                    col = 0;
                    boolean message = s.startsWith("btfkit:", i + 1) || s.startsWith("out ", i + 1);
                    inBar = i + 1 < s.length() && s.charAt(i + 1) != '\n' && s.charAt(i + 1) != '\033' && !message;
                    if (inBar) {
                        t.bars++;
                    }
                } else if (c == '\n') {
                    t.rows.add(new StringBuilder());
                    col = 0;
                    inBar = false;
                } else if (c == '\033' && s.startsWith("[K", i + 1)) {
                    row.setLength(Math.min(row.length(), col));
                    i += 2;
                } else {
                    if ((s.startsWith("btfkit:", i) || s.startsWith("out ", i)) && (col != 0 || row.length() != 0)) {
                        t.messagesNotAtColumn0.add(row + "|" + s.substring(i, Math.min(s.length(), i + 40)));
                    }
                    if (col >= width) {
                        if (inBar) {
                            t.barOverflows.add(row.toString());
                        }
                        t.rows.add(new StringBuilder());
                        row = t.rows.get(t.rows.size() - 1);
                        col = 0;
                    }
                    if (col < row.length()) {
                        row.setCharAt(col, c);
                    } else {
                        row.append(c);
                    }
                    col++;
                }
            }
            return t;
        }

        /** The non-empty lines on the screen, a message that wrapped joined again. */
        List<String> lines() {
            List<String> out = new ArrayList<>();
            for (StringBuilder r : rows) {
                if (r.length() == 0) {
                    continue;
                }
                String l = r.toString();
                if (!l.startsWith("btfkit:") && !l.startsWith("out ") && !out.isEmpty()) {
                    out.set(out.size() - 1, out.get(out.size() - 1) + l); // the rest of a wrapped line
                } else {
                    out.add(l);
                }
            }
            return out;
        }
    }
}
