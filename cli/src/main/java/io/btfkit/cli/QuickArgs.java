package io.btfkit.cli;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Parses a plain command line without picocli: {@code btfkit dedup IN -o OUT} and the like.
 * Building picocli's model costs a fresh JVM 60-70 ms (its classes' initialisation and one
 * annotation proxy per annotation type, all interpreted), as long as deduplicating a module takes;
 * this parser reads a table that the build generated from that same model ({@link QuickArgsTable})
 * and sets the command's fields as picocli would.
 *
 * <p>It accepts only what it can parse exactly like picocli: options by their full names, each at
 * most once, a value in the next argument that does not start with {@code -} or {@code @}, and
 * positional parameters within their arity. Anything else — help and version options, {@code @}
 * files, {@code --}, {@code --opt=value}, clustered short options, an unknown or repeated option,
 * a missing or unconvertible value, a command with argument groups — returns null, and picocli
 * parses the whole command line instead (with its messages for what is wrong). A property test
 * checks that every command line this accepts gives the command the field values picocli gives
 * it. {@code -Dbtfkit.quickArgs=false} turns it off.
 */
final class QuickArgs {
    private static final boolean ENABLED = !"false".equals(System.getProperty("btfkit.quickArgs"));

    private QuickArgs() {
    }

    /** The command {@code args} name with its fields set, or null when picocli must parse them. */
    static Callable<Integer> parse(String[] args) {
        if (!ENABLED || args.length == 0) {
            return null;
        }
        List<String[]> rows = rowsOf(args[0]);
        if (rows == null) {
            return null;
        }
        try {
            return build(rows, args);
        } catch (ReflectiveOperationException | InvalidPathException e) {
            return null; // picocli decides (and reports what is wrong)
        }
    }

    /** The table's rows of command {@code name} (its own row first), or null when it has none. */
    private static List<String[]> rowsOf(String name) {
        String table;
        try (InputStream in = QuickArgs.class.getResourceAsStream(QuickArgsTable.RESOURCE)) {
            if (in == null) {
                return null; // (classes compiled without the build's table: picocli parses everything)
            }
            table = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
        List<String[]> rows = null;
        for (String line : table.split("\n")) {
            String[] f = line.split("\t", -1);
            if (f[0].equals("command")) {
                if (rows != null) {
                    break;
                }
                if (f[1].equals(name)) {
                    rows = new ArrayList<>();
                }
            }
            if (rows != null) {
                rows.add(f);
            }
        }
        return rows;
    }

    private static Callable<Integer> build(List<String[]> rows, String[] args) throws ReflectiveOperationException {
        Object cmd = newInstance(rows.get(0)[2]);
        if (!(cmd instanceof Callable)) {
            return null;
        }
        Map<String, String[]> options = new HashMap<>();
        List<String[]> positionals = new ArrayList<>();
        for (String[] r : rows) {
            switch (r[0]) {
                case "mixin" -> declared(cmd.getClass(), r[1]).set(cmd, newInstance(r[2]));
                case "option" -> {
                    for (String n : r[1].split(",")) {
                        options.put(n, r);
                    }
                    if (!r[5].isEmpty() && !set(cmd, r[2], r[3], r[5])) {
                        return null;
                    }
                }
                case "positional" -> positionals.add(r);
                default -> {
                }
            }
        }
        Map<String[], Boolean> seen = new IdentityHashMap<>();
        List<String> values = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("@")) {
                return null; // an argument file: picocli expands it
            }
            if (!a.startsWith("-")) {
                values.add(a);
                continue;
            }
            String[] o = options.get(a);
            if (o == null || seen.put(o, Boolean.TRUE) != null || o[3].equals("stop")) {
                return null;
            }
            if (o[3].equals("flag")) {
                fieldAt(cmd, o[2]).setBoolean(target(cmd, o[2]), true);
                continue;
            }
            if (i + 1 >= args.length || args[i + 1].startsWith("-") || args[i + 1].startsWith("@")
                    || !set(cmd, o[2], o[3], args[++i])) {
                return null;
            }
        }
        for (String[] o : options.values()) {
            if (o[4].equals("1") && !seen.containsKey(o)) {
                return null; // a required option is missing
            }
        }
        return assignPositionals(cmd, positionals, values) ? callable(cmd) : null;
    }

    @SuppressWarnings("unchecked")
    private static Callable<Integer> callable(Object cmd) {
        return (Callable<Integer>) cmd;
    }

    /** Gives each positional parameter its values by index; false when the arities do not fit. */
    private static boolean assignPositionals(Object cmd, List<String[]> specs, List<String> values)
            throws ReflectiveOperationException {
        int covered = 0;
        for (String[] p : specs) {
            int from = Integer.parseInt(p[1]);
            int to = Integer.parseInt(p[2]);
            int min = Integer.parseInt(p[3]);
            int max = Integer.parseInt(p[4]);
            int end = to < 0 ? values.size() : Math.min(values.size(), to + 1);
            int count = Math.max(0, end - from);
            if (count < min || (max >= 0 && count > max) || p[5].equals("-")) {
                return false;
            }
            covered = Math.max(covered, end);
            if (count == 0) {
                continue;
            }
            switch (p[6]) {
                case "paths" -> {
                    List<Path> list = new ArrayList<>(count);
                    for (String v : values.subList(from, end)) {
                        list.add(Paths.get(v));
                    }
                    fieldAt(cmd, p[5]).set(target(cmd, p[5]), list);
                }
                case "path", "string" -> {
                    if (count != 1 || !set(cmd, p[5], p[6], values.get(from))) {
                        return false;
                    }
                }
                default -> {
                    return false;
                }
            }
        }
        return covered == values.size(); // no unmatched argument
    }

    /** Converts {@code value} as picocli's built-in converter for {@code kind} would and sets it. */
    private static boolean set(Object cmd, String path, String kind, String value) throws ReflectiveOperationException {
        if (path.equals("-")) {
            return false;
        }
        Field f = fieldAt(cmd, path);
        Object v;
        switch (kind) {
            case "path" -> v = Paths.get(value);
            case "string" -> v = value;
            case "enum" -> {
                v = null;
                for (Object c : f.getType().getEnumConstants()) {
                    if (((Enum<?>) c).name().equalsIgnoreCase(value)) {
                        v = c; // (Main allows case-insensitive enum values)
                    }
                }
                if (v == null) {
                    return false;
                }
            }
            default -> {
                return false;
            }
        }
        f.set(target(cmd, path), v);
        return true;
    }

    private static Object newInstance(String className) throws ReflectiveOperationException {
        var c = Class.forName(className).getDeclaredConstructor();
        c.setAccessible(true);
        return c.newInstance();
    }

    /** The object that holds the last field of {@code path}: the command, or one of its mixins. */
    private static Object target(Object cmd, String path) throws ReflectiveOperationException {
        int dot = path.indexOf('.');
        return dot < 0 ? cmd : declared(cmd.getClass(), path.substring(0, dot)).get(cmd);
    }

    /** The field {@code path} names: one of the command's, or {@code mixin.field}. */
    private static Field fieldAt(Object cmd, String path) throws ReflectiveOperationException {
        int dot = path.indexOf('.');
        if (dot < 0) {
            return declared(cmd.getClass(), path);
        }
        return declared(declared(cmd.getClass(), path.substring(0, dot)).getType(), path.substring(dot + 1));
    }

    /** The field {@code name} of {@code c} or of a superclass (a mixin's options may be inherited). */
    private static Field declared(Class<?> c, String name) throws NoSuchFieldException {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            try {
                Field f = k.getDeclaredField(name);
                f.setAccessible(true);
                return f;
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(c.getName() + "." + name);
    }
}
