package io.btfkit.minimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.btfkit.core.Btf;
import io.btfkit.core.TestData;
import io.btfkit.core.io.InputLoader;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Any record a hostile object can carry — any local type, any access string, any kind — ends
 * in a result (an ERROR at worst), never an exception, and resolves the same way twice.
 */
class CoreRelocatorProperties {
    private static final Btf LOCAL = InputLoader.load(TestData.sample("bpf/core_reads.bpf.o"), null).btf();
    private static final Btf VMLINUX = InputLoader.load(TestData.vmlinux618(), null).btf();
    private static final CoreRelocator TARGET = new CoreRelocator(VMLINUX);

    @Property(tries = 300)
    void everyRecordEndsInAResult(@ForAll @IntRange(min = 0, max = 80) int typeId,
                                  @ForAll @Size(max = 8) List<@IntRange(min = 0, max = 200) Integer> indices,
                                  @ForAll @IntRange(min = 0, max = 14) int kind) {
        StringBuilder access = new StringBuilder();
        for (int i : indices) {
            access.append(access.length() == 0 ? "" : ":").append(i);
        }
        LocalRelo relo = LocalRelo.parse(LOCAL, "s", 0, 0, typeId, access.toString(), kind);
        ReloResult a = TARGET.resolve(LOCAL, relo);
        ReloResult b = TARGET.resolve(LOCAL, relo);
        assertNotNull(a.status());
        assertEquals(a.status(), b.status());
        assertEquals(a.value(), b.value());
        if (a.status() == ReloResult.Status.ERROR) {
            assertNotNull(a.error());
        }
        // a relocator that indexed only this record's names resolves it alike
        ReloResult limited = new CoreRelocator(VMLINUX, List.of(new CoreProgram("p", LOCAL, List.of(relo)))).resolve(LOCAL, relo);
        assertEquals(CoreRelocatorTest.shown(a), CoreRelocatorTest.shown(limited));
        assertNotNull(relo.describeLocal(LOCAL));
        if (a.target() != null) {
            assertNotNull(a.target().describe());
        }
    }
}
