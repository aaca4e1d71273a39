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
 * a typedef of a struct, union or enum of its own name ({@code typedef struct foo foo}) to that
 * type (the typedef needs it anyway; pahole -C prints the struct), and DECL_TAGs (whose name is a
 * tag, not a type's) are looked at only when asked for by kind. When what remains has several
 * kinds the name is ambiguous; when it is several types of one kind (distinct definitions that
 * happen to share a name), all of them are roots, printed as {@code foo}, {@code foo___2}, ...
 *
 * <p>C output declares types, not functions or variables: a FUNC selected stands for the types
 * its prototype uses (return and parameters), a VAR for its type, a DATASEC for its variables'
 * types, and the selection says so in a note.
 */
public final class RootTypes {
    private RootTypes() {
    }

    /** The roots, and what the caller should tell the user about how they were chosen. */
    public record Selection(int[] ids, List<String> notes) {
    }

    /** The ids {@code specs} select, in their order; a {@link BtfException} says which spec selects nothing or is ambiguous. */
    public static int[] resolve(Btf btf, List<String> specs) {
        return select(btf, specs).ids();
    }

    /** {@link #resolve}, with a note for each FUNC, VAR or DATASEC that stands for the types it uses. */
    public static Selection select(Btf btf, List<String> specs) {
        List<Integer> ids = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (String spec : specs) {
            for (int id : resolve(btf, spec)) {
                int k = btf.kind(id);
                if (k != Kind.FUNC && k != Kind.VAR && k != Kind.DATASEC) {
                    ids.add(id);
                    continue;
                }
                List<Integer> used = typesUsed(btf, id);
                ids.addAll(used);
                notes.add("--root " + spec + ": " + Kind.name(k) + " [" + id + "] '" + btf.name(id) + "' is no C type: "
                        + (k == Kind.FUNC ? "the types of its prototype (return and parameters) are"
                            : k == Kind.VAR ? "its type is" : "the types of its variables are")
                        + " printed instead (" + (used.isEmpty() ? "none but void" : used.size() + ": " + describe(btf, used)) + ")");
            }
        }
        return new Selection(ids.stream().distinct().mapToInt(Integer::intValue).toArray(), List.copyOf(notes));
    }

    /** The types a FUNC, VAR or DATASEC uses, void left out. */
    private static List<Integer> typesUsed(Btf btf, int id) {
        List<Integer> out = new ArrayList<>();
        switch (btf.kind(id)) {
            case Kind.FUNC -> {
                int proto = btf.sizeOrType(id);
                if (btf.isValidId(proto) && btf.kind(proto) == Kind.FUNC_PROTO) {
                    out.add(btf.sizeOrType(proto));
                    for (int i = 0; i < btf.vlen(proto); i++) {
                        out.add(btf.extra(proto, 2 * i + 1));
                    }
                }
            }
            case Kind.VAR -> out.add(btf.sizeOrType(id));
            default -> {
                for (int i = 0; i < btf.vlen(id); i++) {
                    int v = btf.extra(id, 3 * i);
                    out.add(btf.isValidId(v) && btf.kind(v) == Kind.VAR ? btf.sizeOrType(v) : v);
                }
            }
        }
        // a pointer's, array's or qualifier's target is what C needs defined (struct file for a
        // struct file *); a typedef stays, as its definition prints
        out.replaceAll(t -> beneathModifiers(btf, t));
        out.removeIf(t -> t == 0 || !btf.isValidId(t));
        return out.stream().distinct().toList();
    }

    private static int beneathModifiers(Btf btf, int t) {
        for (int steps = 0; steps < 64 && t != 0 && btf.isValidId(t); steps++) {
            int k = btf.kind(t);
            if (k == Kind.ARRAY) {
                t = btf.extra(t, 0);
            } else if (k == Kind.PTR || k == Kind.CONST || k == Kind.VOLATILE || k == Kind.RESTRICT || k == Kind.TYPE_TAG) {
                t = btf.sizeOrType(t);
            } else {
                break;
            }
        }
        return t;
    }

    private static String describe(Btf btf, List<Integer> ids) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ids.size() && i < 4; i++) {
            int t = ids.get(i);
            String name = btf.name(t);
            sb.append(i > 0 ? ", " : "").append(Kind.name(btf.kind(t))).append(" [").append(t).append(']')
                    .append(name == null || name.isEmpty() ? "" : " '" + name + "'");
        }
        return sb.append(ids.size() > 4 ? ", ..." : "").toString();
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
            if (isOfKind(k, kind) && !name.isEmpty() && name.equals(btf.strings().get(btf.nameOff(id)))) {
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
            byKind = preferTaggedOverItsTypedef(btf, byKind);
        }
        if (byKind.isEmpty()) {
            List<String> names = new ArrayList<>();
            for (int id = 1; id < btf.typeCount(); id++) {
                if (isOfKind(btf.kind(id), kind)) {
                    names.add(btf.name(id));
                }
            }
            throw new BtfException("--root " + spec + ": no " + (kind < 0 ? "type" : Kind.name(kind)) + " named '" + name + "'"
                    + io.btfkit.core.Spelling.didYouMean(name, names));
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

    /** Whether a type of kind {@code k} answers a spec of {@code kind} (-1: any but a DECL_TAG; enum takes ENUM64 too). */
    private static boolean isOfKind(int k, int kind) {
        return kind < 0 ? k != Kind.DECL_TAG : k == kind || (kind == Kind.ENUM && k == Kind.ENUM64);
    }

    /**
     * {@code typedef struct foo foo}: when a name is a struct, union or enum and typedefs of it,
     * each typedef naming one of those very types, the types themselves (the typedef needs them
     * anyway, and pahole -C prints the struct). A typedef of something else keeps the name ambiguous.
     */
    private static TreeMap<Integer, List<Integer>> preferTaggedOverItsTypedef(Btf btf, TreeMap<Integer, List<Integer>> byKind) {
        List<Integer> typedefs = byKind.get(Kind.TYPEDEF);
        if (byKind.size() != 2 || typedefs == null) {
            return byKind;
        }
        int other = byKind.firstKey() == Kind.TYPEDEF ? byKind.lastKey() : byKind.firstKey();
        if (other != Kind.STRUCT && other != Kind.UNION && other != Kind.ENUM && other != Kind.ENUM64) {
            return byKind;
        }
        List<Integer> tagged = byKind.get(other);
        for (int t : typedefs) {
            if (!tagged.contains(btf.sizeOrType(t))) {
                return byKind;
            }
        }
        TreeMap<Integer, List<Integer>> only = new TreeMap<>();
        only.put(other, tagged);
        return only;
    }
}
