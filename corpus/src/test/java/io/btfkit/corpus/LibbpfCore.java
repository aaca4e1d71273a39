package io.btfkit.corpus;

import io.btfkit.core.TestData;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.minimize.CoreProgram;
import io.btfkit.minimize.CoreRelocator;
import io.btfkit.minimize.CoreSpec;
import io.btfkit.minimize.ReloKind;
import io.btfkit.minimize.ReloResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * libbpf as the oracle of CO-RE resolution: a small C harness (src/test/c/core_oracle.c, built
 * with gcc -lbpf) opens a BPF object with {@code btf_custom_path} set to a target BTF and loads it
 * with libbpf's debug log on. libbpf resolves, patches and logs every relocation in
 * {@code .BTF.ext} order before the kernel sees a program, and stops at the first one it cannot
 * relocate, so the log says for each relocation up to there: the first matching candidate (the
 * target spec), and the value patched in, a poisoned instruction, or the error.
 *
 * <p>{@link #outcomes} reads that log; {@link #btfkit} says the same of btfkit's resolution,
 * in the same words, so that the two lists compare with {@code equals}.
 */
final class LibbpfCore {
    private static final Pattern PROGRAM = Pattern.compile("sec '([^']*)': found program '([^']*)'");
    private static final Pattern RELO = Pattern.compile("prog '([^']*)': relo #(\\d+): (.*)$");
    private static final Pattern MATCHING = Pattern.compile("^matching candidate #\\d+ <[^>]*> \\[(\\d+)\\] (.*)$");
    private static final Pattern PATCHED = Pattern.compile("^patched insn #(\\d+) \\([^)]*\\) (?:imm|imm64|off) -?\\d+ -> (-?\\d+)");
    private static final Pattern POISONED = Pattern.compile("^substituting insn #(\\d+) w/ invalid insn");
    private static final Pattern FAILED = Pattern.compile("^failed to (?:relocate|patch insn)");
    private static Path harness;

    private LibbpfCore() {
    }

    /**
     * One relocation's outcome: {@code SECTION relo #N = VALUE} (or {@code = poison}, {@code = error}),
     * then {@code @ [ID] RAW} for the first matching candidate (its type id and raw access
     * path; for an enum value its enumerator's name) when one matched.
     */
    record Outcome(String section, int relo, String value, String target) {
        @Override
        public String toString() {
            return section + " relo #" + relo + " = " + value + (target == null ? "" : " @ " + target);
        }
    }

    /** libbpf's log of loading {@code object} with {@code target} as its kernel BTF. */
    static String log(Path object, Path target) throws IOException {
        Path oracle = harness();
        return new String(TestData.run(List.of(oracle.toString(), object.toString(), target.toString())), StandardCharsets.UTF_8);
    }

    /** Whether libbpf relocated every relocation (the kernel's verdict on the programs aside). */
    static boolean relocatedAll(String log) {
        return !log.contains("failed to perform CO-RE relocations");
    }

    /** The outcomes of the log, in libbpf's order; after a failing relocation there are no more. */
    static List<Outcome> outcomes(String log) {
        Map<String, String> sectionOf = new HashMap<>();
        Map<String, String[]> byRelo = new LinkedHashMap<>(); // key prog#relo -> {value, target}
        for (String line : log.split("\n")) {
            Matcher p = PROGRAM.matcher(line);
            if (p.find()) {
                sectionOf.put(p.group(2), p.group(1));
                continue;
            }
            Matcher r = RELO.matcher(line);
            if (!r.find()) {
                continue;
            }
            String key = r.group(1) + "#" + r.group(2);
            String[] o = byRelo.computeIfAbsent(key, k -> new String[2]);
            String rest = r.group(3);
            Matcher m;
            if ((m = MATCHING.matcher(rest)).find()) {
                if (o[1] == null) {
                    o[1] = "[" + m.group(1) + "] " + shape(m.group(2));
                }
            } else if ((m = PATCHED.matcher(rest)).find()) {
                if (o[0] == null) {
                    String v = m.group(2);
                    o[0] = Long.toUnsignedString(v.startsWith("-") ? Long.parseLong(v) : Long.parseUnsignedLong(v));
                }
            } else if (POISONED.matcher(rest).find()) {
                o[0] = "poison";
            } else if (FAILED.matcher(rest).find()) {
                o[0] = "error";
            }
        }
        List<Outcome> out = new ArrayList<>();
        for (Map.Entry<String, String[]> e : byRelo.entrySet()) {
            String[] o = e.getValue();
            if (o[0] == null) {
                continue; // a relocation of another kind (maps, calls) or not reached
            }
            int hash = e.getKey().lastIndexOf('#');
            String prog = e.getKey().substring(0, hash);
            // a failing relocation's candidates are not a target spec (libbpf gave up on them)
            out.add(new Outcome(sectionOf.getOrDefault(prog, prog), Integer.parseInt(e.getKey().substring(hash + 1)), o[0],
                    o[0].equals("error") ? null : o[1]));
        }
        return out;
    }

    /**
     * The values of the log, one line per relocation, sorted: {@code relo #N insn #K = V} (V a
     * value or {@code poison}; libbpf numbers relocations per program).
     */
    static List<String> valuesByInsn(String log) {
        List<String> out = new ArrayList<>();
        Map<String, String> poisoned = new java.util.TreeMap<>();
        Pattern patched = Pattern.compile("relo #(\\d+): patched insn #(\\d+) \\([^)]*\\) (?:imm|imm64|off) -?\\d+ -> (-?\\d+)");
        Pattern poison = Pattern.compile("relo #(\\d+): substituting insn #(\\d+) w/ invalid insn");
        for (String line : log.split("\n")) {
            Matcher m = patched.matcher(line);
            if (m.find()) {
                out.add("relo #" + m.group(1) + " insn #" + m.group(2) + " = " + Long.parseUnsignedLong(m.group(3)));
                continue;
            }
            m = poison.matcher(line);
            if (m.find()) {
                // an ldimm64 is poisoned in both halves, the second first: keep the lower index
                String key = line.substring(0, m.start()) + m.group(1);
                int insn = Integer.parseInt(m.group(2));
                String prev = poisoned.get(key);
                if (prev == null || insn < Integer.parseInt(prev.replaceAll(".*insn #(\\d+).*", "$1"))) {
                    poisoned.put(key, "relo #" + m.group(1) + " insn #" + insn + " = poison");
                }
            }
        }
        out.addAll(poisoned.values());
        out.sort(null);
        return out;
    }

    /** The raw path of a formatted spec ("struct s___2.y (0:1 @ offset 4)" → "0:1"), or an enumerator's name. */
    private static String shape(String spec) {
        int open = spec.lastIndexOf(" (");
        if (open >= 0 && spec.endsWith(")")) {
            String raw = spec.substring(open + 2, spec.length() - 1);
            int at = raw.indexOf(" @");
            return at >= 0 ? raw.substring(0, at) : raw;
        }
        int colons = spec.indexOf("::");
        if (colons >= 0) {
            int eq = spec.indexOf(" = ", colons);
            return spec.substring(colons + 2, eq < 0 ? spec.length() : eq);
        }
        return "";
    }

    /**
     * btfkit's outcomes for {@code object} on {@code target} in libbpf's words, up to and
     * including the first relocation libbpf would fail on (libbpf stops there).
     */
    static List<Outcome> btfkit(Path object, io.btfkit.core.Btf target) {
        LoadedInput in = InputLoader.load(object, null);
        CoreProgram program = CoreProgram.parse(object.toString(), in.btf(), in.ext(), in.elf());
        List<Outcome> out = new ArrayList<>();
        for (ReloResult r : new CoreRelocator(target).resolveAll(program)) {
            String value = switch (r.status()) {
                case POISONED -> "poison";
                case ERROR, INSN_ERROR -> "error";
                default -> Long.toUnsignedString(r.value());
            };
            out.add(new Outcome(r.relo().section(), r.relo().index(), value, targetOf(r)));
            if (r.failsLoad()) {
                break;
            }
        }
        return out;
    }

    private static String targetOf(ReloResult r) {
        CoreSpec t = r.target();
        if (t == null || r.status() == ReloResult.Status.ERROR) {
            return null;
        }
        String shape = t.kind().isEnumValueBased() ? t.accessor(0).name() : t.kind().isFieldBased() ? t.accessString() : "";
        return "[" + t.rootTypeId() + "] " + shape;
    }

    /** {@code outcomes} with type ids and target_type_id values left out (a minimized BTF numbers types anew). */
    static List<String> withoutIds(List<Outcome> outcomes, Map<String, ReloKind> kinds) {
        List<String> out = new ArrayList<>();
        for (Outcome o : outcomes) {
            ReloKind k = kinds.get(o.section() + "#" + o.relo());
            String v = k == ReloKind.TYPE_ID_TARGET && !o.value().equals("0") && !o.value().equals("poison")
                    && !o.value().equals("error") ? "id" : o.value();
            out.add(o.section() + " relo #" + o.relo() + " = " + v);
        }
        return out;
    }

    /** The kind of each relocation of {@code object}, by {@code SECTION#N}. */
    static Map<String, ReloKind> kinds(Path object) {
        LoadedInput in = InputLoader.load(object, null);
        Map<String, ReloKind> out = new HashMap<>();
        for (var r : io.btfkit.minimize.LocalRelo.parseAll(in.btf(), in.ext())) {
            out.put(r.section() + "#" + r.index(), r.kind());
        }
        return out;
    }

    /** {@code source} built with {@code clang -target bpf -g -O2} into {@code dir/NAME.bpf.o}. */
    static Path compile(Path dir, String name, String source) throws IOException {
        Path o = tryCompile(dir, name, source);
        if (o == null) {
            throw new AssertionError("clang failed on:\n" + source + "\n" + Files.readString(dir.resolve(name + ".clang.log")));
        }
        return o;
    }

    /** {@link #compile}, or null when clang refuses the source (its messages in {@code dir/NAME.clang.log}). */
    static Path tryCompile(Path dir, String name, String source) throws IOException {
        Path clang = TestData.requireTool("clang");
        Path c = Files.writeString(dir.resolve(name + ".c"), source);
        Path o = dir.resolve(name + ".bpf.o");
        try {
            Process p = new ProcessBuilder(clang.toString(), "-target", "bpf", "-g", "-O2", "-c", c.toString(), "-o", o.toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve(name + ".clang.log").toFile()).start();
            return p.waitFor() == 0 ? o : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    static synchronized Path harness() throws IOException {
        if (harness != null) {
            return harness;
        }
        Path gcc = TestData.requireTool("gcc");
        Assumptions.assumeTrue(Files.exists(Path.of("/usr/include/bpf/libbpf.h")), "skipped: libbpf-dev headers missing");
        Path src = TestData.root().resolve("corpus/src/test/c/core_oracle.c");
        Path bin = TestData.root().resolve("corpus/target/core_oracle");
        Files.createDirectories(bin.getParent());
        try {
            Process p = new ProcessBuilder(gcc.toString(), "-O1", "-o", bin.toString(), src.toString(), "-lbpf")
                    .redirectErrorStream(true).start();
            String msg = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Assumptions.assumeTrue(p.waitFor() == 0, "skipped: cannot build the libbpf harness: " + msg);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        harness = bin;
        return bin;
    }
}
