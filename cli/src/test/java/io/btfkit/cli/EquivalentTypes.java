package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.text.RawTextPrinter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares two standalone BTFs up to type ids: the largest equivalence over the types of both
 * (same shape, referenced types equivalent slot by slot, cycles included) is found by partition
 * refinement, and the two hold the same types when every class has as many members from one
 * side as from the other. Independent of the dedup under test: only bpftool's raw text of each
 * type is read (its line with the ids of referenced types masked is the shape).
 */
final class EquivalentTypes {
    private EquivalentTypes() {
    }

    /** {@code type_id=}, {@code ret_type_id=}, {@code index_type_id=}: the words that name a type. */
    private static final Pattern REF = Pattern.compile("([a-z_]*type_id)=(\\d+)");

    private record Type(String shape, int[] refs) {
    }

    /**
     * Null when {@code a} and {@code b} hold the same types (as a multiset of classes), else a
     * description of a class where they differ.
     */
    static String difference(Btf a, Btf b) {
        List<Type> types = new ArrayList<>();
        types.add(new Type("void", new int[0])); // node 0, shared: type id 0 on both sides
        parse(a, types); // side a's id i is node i
        int offsetB = parse(b, types) - 1; // side b's id i is node offsetB + i; id 0 is node 0 for both
        int n = types.size();
        int countA = a.typeCount() - 1;
        int[] cls = new int[n];
        Map<String, Integer> ids = new HashMap<>();
        for (int v = 0; v < n; v++) {
            cls[v] = ids.computeIfAbsent(types.get(v).shape(), k -> ids.size());
        }
        int classes = ids.size();
        while (true) {
            Map<String, Integer> next = new HashMap<>();
            int[] refined = new int[n];
            for (int v = 0; v < n; v++) {
                StringBuilder key = new StringBuilder().append(cls[v]);
                for (int r : types.get(v).refs()) {
                    int node = r == 0 ? 0 : v > countA ? offsetB + r : r;
                    key.append(',').append(cls[node]);
                }
                refined[v] = next.computeIfAbsent(key.toString(), k -> next.size());
            }
            cls = refined;
            if (next.size() == classes) {
                break;
            }
            classes = next.size();
        }
        int[] balance = new int[classes];
        for (int v = 1; v < n; v++) {
            balance[cls[v]] += v <= countA ? 1 : -1;
        }
        for (int v = 1; v < n; v++) {
            if (balance[cls[v]] != 0) {
                String side = v <= countA ? "first [" + v + "]" : "second [" + (v - offsetB) + "]";
                return "the class of the " + side + " " + types.get(v).shape() + " has "
                        + (balance[cls[v]] > 0 ? "more" : "fewer") + " members in the first than in the second";
            }
        }
        return null;
    }

    /** Appends {@code btf}'s types (ids 1..) to {@code types}; returns the node of its id 1. */
    private static int parse(Btf btf, List<Type> types) {
        int first = types.size();
        StringBuilder shape = null;
        List<Integer> refs = new ArrayList<>();
        for (String line : RawTextPrinter.toText(btf).split("\n")) {
            if (line.startsWith("[")) {
                if (shape != null) {
                    types.add(new Type(shape.toString(), refs.stream().mapToInt(Integer::intValue).toArray()));
                }
                shape = new StringBuilder();
                refs = new ArrayList<>();
                line = line.substring(line.indexOf(']') + 1);
            } else if (shape == null) {
                continue;
            }
            Matcher m = REF.matcher(line);
            int last = 0;
            while (m.find()) {
                shape.append(line, last, m.start()).append(m.group(1)).append("=?");
                refs.add(Integer.parseInt(m.group(2)));
                last = m.end();
            }
            shape.append(line.substring(last)).append('\n');
        }
        if (shape != null) {
            types.add(new Type(shape.toString(), refs.stream().mapToInt(Integer::intValue).toArray()));
        }
        if (types.size() - first != btf.typeCount() - 1) {
            throw new IllegalStateException("read " + (types.size() - first) + " types of " + (btf.typeCount() - 1));
        }
        return first;
    }
}
