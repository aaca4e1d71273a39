package io.btfkit.cheader;

import io.btfkit.core.Kind;
import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;

/**
 * C names of types, unique per C namespace, given the way libbpf's dumper gives them: the
 * first type to be printed under a name keeps it, the N-th gets {@code name___N}.
 *
 * <p>Two namespaces are counted: tags (struct, union, enum names) and ordinary identifiers
 * (typedef names and enumerators). A name is fixed the first time it is printed, so the
 * numbering follows the order of output, not of type ids. Forward declarations (FWD) and
 * enums without values never take a number: they only declare a tag, which the full
 * definition of the same name completes. Enumerators are counted each time their enum is
 * printed (an anonymous enum inlined twice gets suffixed values the second time).
 *
 * <pre>
 * [1] STRUCT 'foo' size=4 vlen=1     struct foo { ... };
 * [2] STRUCT 'foo' size=8 vlen=2     struct foo___2 { ... };
 * [3] TYPEDEF 'X' type_id=...        typedef ... X;
 * [4] ENUM '(anon)' ... 'X' val=1    enum { X___2 = 1, };
 * </pre>
 */
final class Naming {
    /** libbpf builds suffixed names in a 256-byte buffer: longer ones are cut to 255 bytes. */
    private static final int MAX_SUFFIXED = 255;

    private final Types types;
    private final String[] resolved;
    private final Object2IntOpenHashMap<String> tags;
    private final Object2IntOpenHashMap<String> idents;

    Naming(Types types) {
        this.types = types;
        this.resolved = new String[types.count];
        this.tags = new Object2IntOpenHashMap<>(types.count / 4);
        this.idents = new Object2IntOpenHashMap<>(types.count / 4);
    }

    /** The tag name of a struct, union, enum or FWD ("" when anonymous). */
    String typeName(int id) {
        return resolve(id, tags);
    }

    /** The identifier of a typedef ("" when anonymous). */
    String identName(int id) {
        return resolve(id, idents);
    }

    /** Counts one more enumerator called {@code name}; returns how many there are now. */
    int enumeratorCount(String name) {
        return count(idents, name);
    }

    /** {@code __builtin_va_list} is the compiler's own: its typedef is never printed. */
    boolean isCompilerBuiltin(int id) {
        return types.nameIs(id, "__builtin_va_list");
    }

    private String resolve(int id, Object2IntOpenHashMap<String> space) {
        if (!types.named(id)) {
            return "";
        }
        String r = resolved[id];
        if (r != null) {
            return r;
        }
        r = types.name(id);
        int kind = types.kind(id);
        if (!(kind == Kind.FWD || (kind == Kind.ENUM && types.vlen(id) == 0))) {
            int n = count(space, r);
            if (n > 1) {
                r = r + "___" + n;
                if (r.length() > MAX_SUFFIXED) {
                    r = r.substring(0, MAX_SUFFIXED);
                }
            }
        }
        resolved[id] = r;
        return r;
    }

    private static int count(Object2IntOpenHashMap<String> space, String name) {
        return space.addTo(name, 1) + 1;
    }
}
