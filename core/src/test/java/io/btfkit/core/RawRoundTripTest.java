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

    /** Fuzz finding: a 32-byte header whose empty layout section names an offset is read, but is
     *  not the canonical layout (btfkit writes offset 0 for an empty layout section). */
    @Test
    void emptyLayoutSectionWithAnOffsetIsNotCanonical() {
        byte[] raw = new byte[32 + 4];
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort(0, (short) 0xeb9f).put(2, (byte) 1).putInt(4, 32);
        b.putInt(8, 0).putInt(12, 0).putInt(16, 0).putInt(20, 4).putInt(24, 36).putInt(28, 0);
        BtfHeader h = BtfHeader.parse(raw, 0, raw.length);
        assertEquals(raw.length, h.blobLength(), "an empty layout section adds no length");
        assertEquals(false, h.isCanonical());
        byte[] out = BtfWriter.write(BtfReader.read(raw));
        assertEquals(0, java.nio.ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).getInt(24));
        assertTrue(BtfHeader.parse(out, 0, out.length).isCanonical());
    }
}
