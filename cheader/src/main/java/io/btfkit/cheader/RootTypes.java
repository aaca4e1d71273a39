package io.btfkit.cheader;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfException;
import io.btfkit.core.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * The root types a C dump starts from, as a user names them (like {@code pahole -C}): a type id
 * ({@code 97}), a name ({@code task_struct}) or a kind and a name ({@code struct:task_struct},
 * for a name several kinds share, such as a struct and the typedef of it). Base types count
 * too, so a module's dump can start from a vmlinux type.
 *
 * <p>A name selects every type of that name, except that forward declarations give way to a
 * definition of the same name, FUNCs, VARs and DATASECs (which print nothing in C) to either,
 * and DECL_TAGs (whose name is a tag, not a type's) are looked at only when asked for by kind. When what remains has several kinds the name is ambiguous; when it
 * is several types of one kind (distinct definitions that happen to share a name), all of them
 * are roots, printed as {@code foo}, {@code foo___2}, ...
 */
public final class RootTypes {
    private RootTypes() {
    }

    /** The ids {@code specs} select, in their order; a {@link BtfException} says which spec selects nothing or is ambiguous. */
    public static int[] resolve(Btf btf, List<String> specs) {
        List<Integer> ids = new ArrayList<>();
        for (String spec : specs) {
            ids.addAll(resolve(btf, spec));
        }
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }

    private static List<Integer> resolve(Btf btf, String spec) {
        if (!spec.isEmpty() && spec.chars().allMatch(c -> c >= '0' && c <= '9')) {
            int id;
            try {
                id = Integer.parseInt(spec);
            } catch (NumberFormatException e) {
                id = -1;
            }
            if (id < 0 || id >= btf.typeCount()) {
                throw new BtfException("--root " + spec + ": no type of that id (ids 0.." + (btf.typeCount() - 1) + ")");
            }
            return List.of(id);
        }
        int colon = spec.indexOf(':');
        String name = colon < 0 ? spec : spec.substring(colon + 1);
        int kind = -1;
        if (colon >= 0) {
            String k = spec.substring(0, colon).toUpperCase(Locale.ROOT);
            kind = Kind.byName(k);
            if (kind <= 0) {
                throw new BtfException("--root " + spec + ": '" + spec.substring(0, colon)
                        + "' is not a BTF kind (struct, union, enum, typedef, fwd, int, float, func, var, ...)");
            }
        }
        TreeMap<Integer, List<Integer>> byKind = new TreeMap<>();
        for (int id = 1; id < btf.typeCount(); id++) {
            int k = btf.kind(id);
            boolean wanted = kind < 0 ? k != Kind.DECL_TAG : k == kind || (kind == Kind.ENUM && k == Kind.ENUM64);
            if (wanted && !name.isEmpty() && name.equals(btf.strings().get(btf.nameOff(id)))) {
                byKind.computeIfAbsent(k, x -> new ArrayList<>()).add(id);
            }
        }
        if (kind < 0) {
            // a type definition first, then a forward declaration, then what prints nothing in C
            // (a FUNC or VAR that shares the struct's name, as cpu_hw_events does in vmlinux)
            for (int[] lesser : new int[][] {{Kind.FUNC, Kind.VAR, Kind.DATASEC}, {Kind.FWD}}) {
                TreeMap<Integer, List<Integer>> rest = new TreeMap<>(byKind);
                for (int k : lesser) {
                    rest.remove(k);
                }
                if (!rest.isEmpty()) {
                    byKind = rest;
                }
            }
        }
        if (byKind.isEmpty()) {
            throw new BtfException("--root " + spec + ": no " + (kind < 0 ? "type" : Kind.name(kind)) + " named '" + name + "'");
        }
        if (byKind.size() > 1) {
            StringBuilder sb = new StringBuilder("--root " + spec + ": several kinds of type are named '" + name + "': ");
            List<String> choices = new ArrayList<>();
            byKind.forEach((k, list) -> {
                if (!choices.isEmpty()) {
                    sb.append(", ");
                }
                sb.append(Kind.name(k)).append(" [").append(list.get(0)).append(']');
                choices.add(Kind.name(k).toLowerCase(Locale.ROOT) + ":" + name);
            });
            throw new BtfException(sb.append("; name one as ").append(String.join(" or ", choices)).toString());
        }
        return byKind.firstEntry().getValue();
    }
}
