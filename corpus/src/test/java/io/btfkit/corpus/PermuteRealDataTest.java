package io.btfkit.corpus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.permute.IdMap;
import io.btfkit.core.permute.NameOrder;
import io.btfkit.core.permute.Permuter;
import io.btfkit.core.TestData;
import io.btfkit.validate.Validator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sorting the real 6.18 vmlinux BTF and a module split on the Debian 6.1 vmlinux. */
class PermuteRealDataTest {

    @Test
    void vmlinuxSortIsDeterministicValidAndReversible() {
        byte[] raw = TestData.bytes(TestData.vmlinux618());
        Btf btf = BtfReader.read(raw);
        int[] map = Permuter.sortByName(btf);
        assertArrayEquals(map, Permuter.sortByName(BtfReader.read(raw)), "same map on a fresh read");
        Btf sorted = Permuter.permute(btf, map);
        byte[] once = BtfWriter.write(sorted);
        assertArrayEquals(once, BtfWriter.write(Permuter.sortedByName(BtfReader.read(raw))), "sort twice: same bytes");
        assertTrue(NameOrder.isSortedByName(sorted));
        assertFalse(NameOrder.isSortedByName(btf));
        assertTrue(IdMap.of(sorted, Permuter.sortByName(sorted)).isIdentity(), "sorting sorted BTF changes nothing");
        assertEquals(List.of(), Validator.validate(sorted, Validator.Options.ALL));
        assertArrayEquals(raw, BtfWriter.write(Permuter.permute(sorted, IdMap.of(btf, map).inverse())));

        // the named types still name the same things: struct device and its size
        int dev = btf.findByName("device", Kind.STRUCT);
        int movedDev = sorted.findByName("device", Kind.STRUCT);
        assertEquals(map[dev], movedDev);
        assertEquals(btf.sizeOrType(dev), sorted.sizeOrType(movedDev));
        assertEquals(btf.vlen(dev), sorted.vlen(movedDev));
    }

    @Test
    void vmlinuxSortByKindAndNameIsValid() {
        Btf btf = BtfReader.read(TestData.bytes(TestData.vmlinux618()));
        Btf sorted = Permuter.permute(btf, Permuter.sortByKindAndName(btf));
        assertEquals(List.of(), Validator.validate(sorted, Validator.Options.ALL));
        assertEquals(Kind.INT, sorted.kind(1));
        assertEquals(Kind.ENUM64, sorted.kind(sorted.typeCount() - 1));
        for (int id = 2; id < sorted.typeCount(); id++) {
            assertTrue(sorted.kind(id - 1) <= sorted.kind(id), "kinds ascend at " + id);
        }
    }

    @Test
    void moduleSortStaysInTheSplitRange() {
        List<String> modules = TestData.goldenModules();
        org.junit.jupiter.api.Assumptions.assumeFalse(modules.isEmpty(), "skipped: no golden modules");
        Btf vmlinux = BtfReader.read(TestData.bytes(TestData.golden("vmlinux-6.1.0-56.btf")));
        byte[] raw = TestData.bytes(TestData.golden("modules/" + modules.get(0) + ".btf"));
        Btf module = BtfReader.read(raw, vmlinux);
        int[] map = Permuter.sortByName(module);
        assertEquals(module.ownTypeCount(), map.length);
        Btf sorted = Permuter.permute(module, map);
        assertTrue(NameOrder.isSortedByName(sorted));
        assertEquals(List.of(), Validator.validate(sorted, Validator.Options.ALL));
        assertArrayEquals(raw, BtfWriter.write(Permuter.permute(sorted, IdMap.of(module, map).inverse())));
    }
}
