package io.btfkit.core;

import java.lang.reflect.AnnotatedElement;
import java.util.Optional;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Decides {@link RequiresTools} for both engines before a test runs: a Jupiter execution
 * condition and a jqwik skip hook, each asking {@link TestData#whyMissing}.
 */
public final class RequiredTools implements ExecutionCondition, SkipExecutionHook {

    /** The first missing tool's reason, or null when all of {@code element}'s tools are there. */
    static String whyMissing(Optional<AnnotatedElement> element) {
        RequiresTools needs = element.map(e -> e.getAnnotation(RequiresTools.class)).orElse(null);
        if (needs == null) {
            return null;
        }
        for (String tool : needs.value()) {
            String why = TestData.whyMissing(tool);
            if (why != null) {
                return "skipped: " + why;
            }
        }
        return null;
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        String why = whyMissing(context.getElement());
        return why == null ? ConditionEvaluationResult.enabled("tools available") : ConditionEvaluationResult.disabled(why);
    }

    @Override
    public SkipResult shouldBeSkipped(LifecycleContext context) {
        String why = whyMissing(context.optionalElement());
        return why == null ? SkipResult.doNotSkip() : SkipResult.skip(why);
    }
}
