package io.btfkit.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.TestData;
import io.btfkit.core.permute.Permuter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Debian 6.1 kernels of the golden set and the 6.18 vmlinux: the known change (struct device
 * shrank from 752 to 744 bytes between 6.1.0-56 and 6.1.0-47, which is why modules built for one
 * fail to relocate onto the other) is found, with what embeds it by value.
 */
class BtfDiffRealKernelsTest {
    private static final Map<String, Btf> CACHE = new HashMap<>();

    private static synchronized Btf golden(String name) {
        return CACHE.computeIfAbsent(name, n -> BtfReader.read(TestData.bytes(TestData.golden(n))));
    }

    @Test
    void structDeviceChangedSizeBetweenTheDebianKernels() {
        DiffReport r = BtfDiff.diff(golden("vmlinux-6.1.0-56.btf"), golden("vmlinux-6.1.0-47.btf"));
        TypeDiff dev = r.find(Status.CHANGED, "struct", "device");
        assertNotNull(dev, "struct device is reported changed");
        assertEquals(List.of(new PropertyChange("size", "752", "744")), dev.properties());
        MemberDiff flags = dev.members().get(0);
        assertEquals("flags", flags.name());
        assertTrue(flags.isRemoved());
        assertEquals(new MemberInfo("long unsigned int[1]", 744 * 8, 0, 8), flags.before());
        // a struct that embeds struct device by value shows it
        TypeDiff acpi = r.find(Status.CHANGED, "struct", "acpi_device");
        assertNotNull(acpi);
        assertTrue(acpi.members().stream().anyMatch(m -> m.name().equals("dev") && m.changes().equals(List.of("size"))
                && m.before().size() == 752 && m.after().size() == 744));
        String text = DiffTextPrinter.print(r);
        assertTrue(text.contains("~ struct device: size 752 -> 744\n    - member 'flags' (long unsigned int[1]) at 744\n"));
        assertEquals(text, DiffTextPrinter.print(BtfDiff.diff(golden("vmlinux-6.1.0-56.btf"), golden("vmlinux-6.1.0-47.btf"))));
    }

    @Test
    void aKernelAgainstItselfAndItsSortedSelfIsEmpty() {
        Btf v = golden("vmlinux-6.1.0-56.btf");
        assertTrue(BtfDiff.diff(v, v).isEmpty());
        assertTrue(BtfDiff.diff(v, Permuter.sortedByName(v)).isEmpty());
    }

    @Test
    void cloudFlavourAndNewKernelDiffsAreReportedBothWays() {
        Btf v56 = golden("vmlinux-6.1.0-56.btf");
        Btf cloud = golden("vmlinux-6.1.0-56-cloud.btf");
        DiffReport r = BtfDiff.diff(v56, cloud);
        DiffReport back = BtfDiff.diff(cloud, v56);
        assertEquals(r.count(Status.ADDED), back.count(Status.REMOVED));
        assertEquals(r.count(Status.REMOVED), back.count(Status.ADDED));
        assertEquals(r.count(Status.CHANGED), back.count(Status.CHANGED));

        Btf v618 = BtfReader.read(TestData.bytes(TestData.vmlinux618()));
        DiffReport n = BtfDiff.diff(v56, v618);
        TypeDiff dev = n.find(Status.CHANGED, "struct", "device");
        assertNotNull(dev);
        assertEquals(new PropertyChange("size", "752", "696"), dev.properties().get(0));
        assertTrue(n.count(Status.ADDED) > 10_000, "6.18 adds many functions");
        assertNotNull(n.find(Status.CHANGED, "int", "char"), "char became unsigned (-funsigned-char since 6.2)");
    }
}
