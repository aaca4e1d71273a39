package io.btfkit.core;

import java.util.ArrayList;
import java.util.List;

/**
 * "Did you mean ...": the names nearest to a mistyped one, for messages (a command, an option, a
 * type name). Near means an optimal-string-alignment distance (insertions, deletions,
 * substitutions and swaps of two neighbours, each 1) of at most a third of the typed word, at
 * least 1 and at most 3: {@code dumb} → {@code dump}, {@code --fromat} → {@code --format},
 * {@code task_strct} → {@code task_struct}; nothing for a word that is simply unknown.
 */
public final class Spelling {
    private static final int MAX_SHOWN = 3;

    private Spelling() {
    }

    /** The nearest candidates (ties all, at most three, in candidate order), or none. */
    public static List<String> nearest(String typed, Iterable<String> candidates) {
        int limit = Math.max(1, Math.min(3, typed.length() / 3));
        int best = limit;
        List<String> out = new ArrayList<>();
        for (String c : candidates) {
            if (c == null || c.isEmpty() || Math.abs(c.length() - typed.length()) > best || c.equals(typed)) {
                continue;
            }
            int d = distance(typed, c, best + 1); // (best + 1: farther than the best so far)
            if (d > best) {
                continue;
            }
            if (d < best || out.isEmpty()) {
                best = d;
                out.clear();
            }
            if (out.size() < MAX_SHOWN && !out.contains(c)) {
                out.add(c);
            }
        }
        return out;
    }

    /** {@code " (did you mean 'x'?)"}, {@code " (did you mean 'x' or 'y'?)"}, or "" when nothing is near. */
    public static String didYouMean(String typed, Iterable<String> candidates) {
        List<String> near = nearest(typed, candidates);
        if (near.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(" (did you mean ");
        for (int i = 0; i < near.size(); i++) {
            sb.append(i == 0 ? "" : i == near.size() - 1 ? " or " : ", ").append('\'').append(Printable.oneLine(near.get(i))).append('\'');
        }
        return sb.append("?)").toString();
    }

    /** The optimal-string-alignment distance of {@code a} and {@code b}, or {@code cap} once it is sure to reach it. */
    static int distance(String a, String b, int cap) {
        int n = a.length();
        int m = b.length();
        int[] prev2 = new int[m + 1];
        int[] prev = new int[m + 1];
        int[] cur = new int[m + 1];
        for (int j = 0; j <= m; j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= n; i++) {
            cur[0] = i;
            int rowMin = i;
            for (int j = 1; j <= m; j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int d = Math.min(Math.min(prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d = Math.min(d, prev2[j - 2] + 1);
                }
                cur[j] = d;
                rowMin = Math.min(rowMin, d);
            }
            if (rowMin >= cap) {
                return cap;
            }
            int[] t = prev2;
            prev2 = prev;
            prev = cur;
            cur = t;
        }
        return Math.min(prev[m], cap);
    }
}
