package io.btfkit.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Prints, at the end of each module's tests, every reason tests were skipped for and which tests
 * (Maven's summary only counts them). Registered through {@code META-INF/services}, so every
 * module whose tests use core's test jar reports its skips.
 */
public final class SkipReport implements TestExecutionListener {
    private final Map<String, List<String>> byReason = new TreeMap<>();

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        record(test, reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            record(test, result.getThrowable().map(Throwable::getMessage).orElse("aborted"));
        }
    }

    private synchronized void record(TestIdentifier test, String reason) {
        String why = reason == null ? "(no reason given)" : reason.replaceFirst("^Assumption failed: ", "").replaceFirst("^skipped: ", "");
        byReason.computeIfAbsent(why, k -> new ArrayList<>()).add(name(test));
    }

    private static String name(TestIdentifier test) {
        String id = test.getUniqueId();
        // [engine:junit-jupiter]/[class:a.b.C]/[method:m()] -> C.m(), keeping invocation indexes
        StringBuilder out = new StringBuilder();
        for (String part : id.split("/")) {
            int colon = part.indexOf(':');
            if (colon < 0 || part.startsWith("[engine:")) {
                continue;
            }
            String v = part.substring(colon + 1, part.length() - 1);
            if (part.startsWith("[dynamic-")) {
                // dynamic tests are numbered; their display name says what they are
                return out + ": " + test.getDisplayName();
            }
            if (part.startsWith("[class:")) {
                v = v.substring(v.lastIndexOf('.') + 1);
            }
            out.append(out.length() == 0 ? "" : ".").append(v);
        }
        return out.length() == 0 ? test.getDisplayName() : out.toString();
    }

    @Override
    public synchronized void testPlanExecutionFinished(TestPlan plan) {
        for (Map.Entry<String, List<String>> e : byReason.entrySet()) {
            List<String> tests = e.getValue();
            String shown = String.join(", ", tests.subList(0, Math.min(3, tests.size())))
                    + (tests.size() > 3 ? ", ... (" + (tests.size() - 3) + " more)" : "");
            System.out.println("[SKIPPED] " + tests.size() + " test" + (tests.size() == 1 ? "" : "s") + " - "
                    + e.getKey() + " - " + shown);
        }
        byReason.clear();
    }
}
