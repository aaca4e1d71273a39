package io.btfkit.core.ext;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.btfkit.core.BtfFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Malformed .BTF.ext, each failing with a message that names the field and the numbers.
 *
 * <p>The valid blob damaged here (116 bytes, little-endian): a 32-byte header; func_info at
 * offset 0 (28 bytes: record size 8, one block of 2 records), line_info at 28 (28 bytes: one
 * block of 1 record), core_relo at 56 (28 bytes: one block of 1 record).
 */
class BtfExtMalformedTest {

    private static BtfExt valid() {
        return BtfExt.of(
                new BtfExtInfo.Builder(BtfExtInfo.Kind.FUNC_INFO).section(1).record(0, 2).record(16, 3).build(),
                new BtfExtInfo.Builder(BtfExtInfo.Kind.LINE_INFO).section(1).record(0, 5, 9, (3 << 10) | 1).build(),
                new BtfExtInfo.Builder(BtfExtInfo.Kind.CORE_RELO).section(1).record(8, 2, 12, 0).build());
    }

    private static byte[] bytes(Consumer<ByteBuffer> change) {
        byte[] d = BtfExtWriter.write(valid());
        assertEquals(116, d.length);
        change.accept(ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN));
        return d;
    }

    private static void fails(String message, byte[] data) {
        BtfFormatException e = assertThrows(BtfFormatException.class, () -> BtfExtReader.read(data));
        assertEquals(message, e.getMessage());
    }

    @Test
    void validBlobRoundTrips() {
        byte[] d = bytes(b -> { });
        assertArrayEquals(d, BtfExtWriter.write(BtfExtReader.read(d)));
    }

    @Test
    void header() {
        fails("truncated .BTF.ext header: 7 bytes, need at least 8", Arrays.copyOf(bytes(b -> { }), 7));
        fails("bad .BTF.ext magic 0x1234 at offset 0 (want 0xeb9f)", bytes(b -> b.putShort(0, (short) 0x1234)));
        fails("unsupported .BTF.ext version 2 at offset 2, only 1 is defined", bytes(b -> b.put(2, (byte) 2)));
        fails("unsupported .BTF.ext flags 0x1 at offset 3 (none are defined)", bytes(b -> b.put(3, (byte) 1)));
        fails(".BTF.ext header length 20 (offset 4) is below 24", bytes(b -> b.putInt(4, 20)));
        fails(".BTF.ext header length 28 (offset 4) cuts the core_relo fields; want 24 or at least 32", bytes(b -> b.putInt(4, 28)));
        fails(".BTF.ext header length 200 (offset 4) is past the end of the data (116 bytes)", bytes(b -> b.putInt(4, 200)));
        byte[] longHeader = BtfExtWriter.write(valid().withHeaderLength(36));
        longHeader[33] = 1;
        fails("non-zero byte at .BTF.ext header offset 33 past the known header fields", longHeader);
    }

    @Test
    void subsectionPlacement() {
        fails(".BTF.ext func_info offset 2 is not 4-byte aligned", bytes(b -> b.putInt(8, 2)));
        fails(".BTF.ext line_info [28, +1000) runs past the end of the data (84 bytes after the header)", bytes(b -> b.putInt(20, 1000)));
        fails(".BTF.ext core_relo [4294967292, +28) runs past the end of the data (84 bytes after the header)", bytes(b -> b.putInt(24, -4)));
        fails(".BTF.ext func_info [0, +28) overlaps line_info [24, +28)", bytes(b -> b.putInt(16, 24)));
    }

    @Test
    void recordSize() {
        fails(".BTF.ext func_info record size 4 (offset 32) is invalid: want a multiple of 4, at least 8", bytes(b -> b.putInt(32, 4)));
        fails(".BTF.ext line_info record size 18 (offset 60) is invalid: want a multiple of 4, at least 16", bytes(b -> b.putInt(60, 18)));
        fails(".BTF.ext func_info at offset 32 is 2 bytes, too short for its record size", bytes(b -> b.putInt(12, 2)));
        fails(".BTF.ext func_info at offset 32 has a record size but no records", bytes(b -> b.putInt(12, 4)));
    }

    @Test
    void blocks() {
        fails(".BTF.ext func_info block 0 at offset 36 has no records", bytes(b -> b.putInt(40, 0)));
        fails(".BTF.ext func_info block 0 at offset 36: 4294967295 records of 8 bytes need 34359738360 bytes, only 16 left",
                bytes(b -> b.putInt(40, -1)));
        fails(".BTF.ext func_info block 0 at offset 36: 2 records of 8 bytes need 16 bytes, only 15 left", bytes(b -> b.putInt(12, 27)));
        BtfExt noCore = new BtfExt(ByteOrder.LITTLE_ENDIAN, 24, valid().funcInfo(), valid().lineInfo(),
                BtfExtInfo.absent(BtfExtInfo.Kind.CORE_RELO));
        byte[] d = Arrays.copyOf(BtfExtWriter.write(noCore), 24 + 56 + 4);
        ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN).putInt(20, 32);
        fails(".BTF.ext line_info block 1 at offset 80: header needs 8 bytes, only 4 left", d);
    }

    @Test
    void trailingBytes() {
        byte[] padded = Arrays.copyOf(bytes(b -> { }), 124);
        BtfExt read = BtfExtReader.read(padded);
        assertArrayEquals(bytes(b -> { }), BtfExtWriter.write(read), "zero padding is dropped");
        padded[121] = 5;
        fails("8 bytes follow the last .BTF.ext subsection at offset 116 and are not zero padding (non-zero byte at offset 121)", padded);
    }

    @Test
    void bigEndianDamageIsReportedTheSameWay() {
        byte[] be = BtfExtWriter.write(valid().withOrder(ByteOrder.BIG_ENDIAN));
        assertEquals((byte) 0xeb, be[0]);
        ByteBuffer.wrap(be).order(ByteOrder.BIG_ENDIAN).putInt(40, 0);
        fails(".BTF.ext func_info block 0 at offset 36 has no records", be);
    }
}
