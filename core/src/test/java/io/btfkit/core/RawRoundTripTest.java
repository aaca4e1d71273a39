package io.btfkit.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** write(read(x)) is byte-identical on real BTF, standalone and split, in both byte orders. */
class RawRoundTripTest {

    @Test
    void vmlinux618RoundTripsByteForByte() {
        byte[] raw = TestData.bytes(TestData.vmlinux618());
        Btf btf = BtfReader.read(raw);
        assertEquals(126_586, btf.typeCount(), "126,585 types plus void");
        assertArrayEquals(raw, BtfWriter.write(btf));
    }

    static Stream<String> modules() {
        return TestData.goldenModules().stream();
    }

    @ParameterizedTest
    @MethodSource("modules")
    void goldenModuleRoundTripsOnItsBase(String module) {
        Btf base = BtfReader.read(TestData.bytes(TestData.golden("vmlinux-6.1.0-56.btf")));
        byte[] raw = TestData.bytes(TestData.golden("modules/" + module + ".btf"));
        Btf split = BtfReader.read(raw, base);
        assertTrue(split.isSplit());
        assertEquals(base.typeCount(), split.firstId());
        assertArrayEquals(raw, BtfWriter.write(split));
    }

    @Test
    void bigEndianConversionRoundTrips() {
        byte[] raw = TestData.bytes(TestData.vmlinux618());
        Btf le = BtfReader.read(raw);
        byte[] be = BtfWriter.write(le, le.format().withOrder(ByteOrder.BIG_ENDIAN));
        assertEquals((byte) 0xeb, be[0], "big-endian magic");
        Btf back = BtfReader.read(be);
        assertEquals(ByteOrder.BIG_ENDIAN, back.format().order());
        assertArrayEquals(be, BtfWriter.write(back), "big-endian re-encodes identically");
        assertArrayEquals(raw, BtfWriter.write(back, back.format().withOrder(ByteOrder.LITTLE_ENDIAN)));
    }

    @Test
    void layoutHeaderRoundTripsAndConvertsBack() {
        byte[] raw = TestData.bytes(TestData.vmlinux618());
        Btf btf = BtfReader.read(raw);
        byte[] withLayout = BtfWriter.write(btf, btf.format().withLayout());
        Btf re = BtfReader.read(withLayout);
        assertEquals(32, re.format().headerLength());
        assertEquals(LayoutTable.standard(), re.format().layout());
        assertArrayEquals(withLayout, BtfWriter.write(re));
        assertArrayEquals(raw, BtfWriter.write(re, re.format().classic()));
    }

}
