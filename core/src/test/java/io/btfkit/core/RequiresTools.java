package io.btfkit.core;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * External tools a test class or method needs ({@code "bpftool"}, {@code "clang"},
 * {@code "btfref"} for the libbpf reference helper, or {@code "kernel"} for the running kernel's
 * BTF loader, {@link TestData#kernelVerdict}). When one is missing (or
 * {@code BTFKIT_TEST_NO_TOOLS} is set) the test is skipped with the reason before it runs: a jqwik
 * property is then never tried, instead of rejecting every try, which jqwik reports as a failure.
 * Works for JUnit Jupiter and jqwik tests alike.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(RequiredTools.class)
@AddLifecycleHook(RequiredTools.class)
public @interface RequiresTools {
    String[] value();
}
