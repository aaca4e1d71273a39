package io.btfkit.distill;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import io.btfkit.core.TypeRefs;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import java.util.Arrays;

/**
 * Finds the base types that a split BTF needs in its distilled base: every base type a split
 * type refers to, and, transitively, every base type those refer to — except through a named
 * STRUCT or UNION, whose members a distilled base never holds.
 *
 * <p>Example: split {@code [9] PTR type_id=3} on a base with {@code [2] INT 'int'},
 * {@code [3] TYPEDEF 't' type_id=2} needs {2, 3}; a split member of type
 * {@code STRUCT 's'} needs only {@code s}, not its members' types.
 *
 * <p>Only kinds that can appear in the distilled base or be copied into the new split may be
 * referenced (INT, FLOAT, FWD, STRUCT, UNION, ENUM, ENUM64, and the reference kinds ARRAY,
 * TYPEDEF, PTR, CONST, VOLATILE, RESTRICT, FUNC_PROTO, TYPE_TAG); a reference to a base FUNC,
 * VAR, DATASEC or DECL_TAG is an error. The walk is depth-first in field order, exactly the
 * order libbpf's recursive walk visits types, so the first offending reference reported is the
 * one libbpf reports. It keeps an explicit stack (no recursion on deep chains) and touches only
 * referenced types, so a module on a large vmlinux costs what the module references.
 */
final class BaseReferences {
    private BaseReferences() {
    }

    /** Referenced base ids in ascending order; throws when one has a kind distillation cannot carry. */
    static int[] collect(Btf split) {
        int splitStart = split.firstId();
        IntOpenHashSet seen = new IntOpenHashSet();
        IntArrayList found = new IntArrayList();
        // explicit DFS stack: type id and index of its next type-id field
        int[] stackId = new int[16];
        int[] stackField = new int[16];
        for (int s = splitStart; s < split.typeCount(); s++) {
            requireKnownKind(split, s);
            int depth = 0;
            stackId[0] = s;
            stackField[0] = 0;
            depth = 1;
            while (depth > 0) {
                int t = stackId[depth - 1];
                int field = stackField[depth - 1];
                Btf owner = split.owner(t);
                int[] w = owner.words();
                int start = owner.starts()[t - owner.firstId()];
                if (field >= TypeRefs.typeIdCount(w, start)) {
                    depth--;
                    continue;
                }
                stackField[depth - 1] = field + 1;
                int ref = w[TypeRefs.typeIdSlot(w, start, field)];
                if (ref == 0 || ref >= splitStart || seen.contains(ref)) {
                    continue;
                }
                int kind = split.kind(ref);
                if (!isDistillable(kind)) {
                    throw unexpectedKind(split, ref, stackId, depth);
                }
                seen.add(ref);
                found.add(ref);
                if (Kind.isComposite(kind) && split.nameOff(ref) != 0) {
                    continue;
                }
                if (depth == stackId.length) {
                    stackId = Arrays.copyOf(stackId, depth * 2);
                    stackField = Arrays.copyOf(stackField, depth * 2);
                }
                stackId[depth] = ref;
                stackField[depth] = 0;
                depth++;
            }
        }
        int[] ids = found.toIntArray();
        Arrays.sort(ids);
        return ids;
    }

    private static boolean isDistillable(int kind) {
        switch (kind) {
            case Kind.INT:
            case Kind.FLOAT:
            case Kind.FWD:
            case Kind.ARRAY:
            case Kind.STRUCT:
            case Kind.UNION:
            case Kind.TYPEDEF:
            case Kind.ENUM:
            case Kind.ENUM64:
            case Kind.PTR:
            case Kind.CONST:
            case Kind.RESTRICT:
            case Kind.VOLATILE:
            case Kind.FUNC_PROTO:
            case Kind.TYPE_TAG:
                return true;
            default:
                return false;
        }
    }

    static void requireKnownKind(Btf btf, int id) {
        int kind = btf.kind(id);
        if (!Kind.isKnown(kind)) {
            throw new OperationException("type [" + id + "] has kind " + kind
                    + ", which btfkit does not know, so its references cannot be renumbered");
        }
    }

    private static OperationException unexpectedKind(Btf split, int ref, int[] path, int depth) {
        StringBuilder via = new StringBuilder();
        for (int i = 1; i < depth; i++) {
            via.append(i == 1 ? " (via " : ", ").append('[').append(path[i]).append(']');
        }
        if (depth > 1) {
            via.append(')');
        }
        return new OperationException("split type [" + path[0] + "]" + via + " refers to base type " + describe(split, ref)
                + "; a distilled base can only stand for INT, FLOAT, FWD, STRUCT, UNION, ENUM, ENUM64 and reference types");
    }

    static String describe(Btf btf, int id) {
        String name = btf.strings().forMessage(btf.nameOff(id), java.nio.charset.StandardCharsets.ISO_8859_1);
        return "[" + id + "] " + Kind.name(btf.kind(id)) + " '" + (name == null || name.isEmpty() ? "(anon)" : name) + "'";
    }
}
