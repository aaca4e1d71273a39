package io.btfkit.core.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.OperationException;
import io.btfkit.core.TestData;
import io.btfkit.core.text.RawTextParser;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Several BTF blobs back to back (what {@code ld -r} leaves in {@code .BTF}) are read as one
 * unit each; a single blob is read exactly as before; nothing after the last blob but zero
 * padding is accepted.
 */
class ConcatenatedBlobsTest {
    private static final Btf A = RawTextParser.parse("""
            [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [2] PTR '(anon)' type_id=1
            """, null);
    private static final Btf B = RawTextParser.parse("""
            [1] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=0x3
            [2] FWD 'task' fwd_kind=struct type=6
            [3] PTR '(anon)' type_id=2
            """, null);

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            bos.writeBytes(p);
        }
        return bos.toByteArray();
    }

    @Test
    void everyBlobIsAUnit() {
        byte[] a = BtfWriter.write(A);
        byte[] b = BtfWriter.write(B);
        List<Btf> units = InputLoader.readRawUnits(concat(a, b, a), null);
        assertEquals(3, units.size());
        assertArrayEquals(a, BtfWriter.write(units.get(0)));
        assertArrayEquals(b, BtfWriter.write(units.get(1)));
        assertArrayEquals(a, BtfWriter.write(units.get(2)));
        assertEquals(6, units.get(1).sizeOrType(2), "read exactly: the FWD word stays");
    }

    @Test
    void zeroPaddingBetweenAndAfterBlobsIsAlignment() {
        byte[] a = BtfWriter.write(A);
        List<Btf> units = InputLoader.readRawUnits(concat(a, new byte[3], BtfWriter.write(B), new byte[5]), null);
        assertEquals(2, units.size());
        assertEquals(3, units.get(1).ownTypeCount());
    }

    @Test
    void aSingleBlobIsReadAsBefore() {
        byte[] a = BtfWriter.write(A);
        LoadedInput in = InputLoader.load(Path.of("a.btf"), concat(a, new byte[4]), null);
        assertEquals(1, in.units().size());
        assertFalse(in.isConcatenated());
        assertArrayEquals(a, BtfWriter.write(in.btf()));
        BtfFormatException e = assertThrows(BtfFormatException.class,
                () -> InputLoader.load(Path.of("a.btf"), concat(a, new byte[] {1, 2}), null));
        assertTrue(e.getMessage().contains("2 bytes follow the BTF sections"), e.getMessage());
    }

    @Test
    void garbageAfterTheLastOfSeveralBlobsIsAnError() {
        byte[] a = BtfWriter.write(A);
        BtfFormatException e = assertThrows(BtfFormatException.class,
                () -> InputLoader.readRawUnits(concat(a, a, new byte[] {0, 7}), null));
        assertTrue(e.getMessage().startsWith("blob 2 at offset " + a.length + ": 2 bytes follow it"), e.getMessage());
    }

    @Test
    void aBrokenLaterBlobIsNamed() {
        byte[] a = BtfWriter.write(A);
        byte[] bad = BtfWriter.write(B);
        bad[12] = (byte) 0xff; // type_len: past the end
        BtfFormatException e = assertThrows(BtfFormatException.class,
                () -> InputLoader.readRawUnits(concat(a, bad), null));
        assertTrue(e.getMessage().startsWith("blob 2 at offset " + a.length + ": "), e.getMessage());
    }

    /** {@code body} between bytes that are not BTF, as an ELF section lies in its file. */
    private static byte[] amid(byte[] body) {
        return concat(new byte[] {7, 7, 7}, body, new byte[] {9, 9});
    }

    @Test
    void aRangeOfALargerArrayReadsAsItsCopy() {
        // an ELF's .BTF is read where it lies in the file's bytes: the same units, and the
        // same messages with offsets counted from the section's start
        byte[] a = BtfWriter.write(A);
        byte[] b = BtfWriter.write(B);
        for (byte[] body : List.of(a, concat(a, b, a), concat(a, new byte[3], b, new byte[5]))) {
            List<Btf> whole = InputLoader.readRawUnits(body, null);
            List<Btf> inPlace = InputLoader.readRawUnits(amid(body), 3, body.length, null);
            assertEquals(whole.size(), inPlace.size());
            for (int i = 0; i < whole.size(); i++) {
                assertArrayEquals(BtfWriter.write(whole.get(i)), BtfWriter.write(inPlace.get(i)));
            }
        }
        byte[] bad = BtfWriter.write(B);
        bad[12] = (byte) 0xff;
        for (byte[] body : List.of(concat(a, a, new byte[] {0, 7}), concat(a, bad), concat(a, new byte[] {1, 2}))) {
            String copy = assertThrows(BtfFormatException.class, () -> InputLoader.readRawUnits(body, null)).getMessage();
            String range = assertThrows(BtfFormatException.class,
                    () -> InputLoader.readRawUnits(amid(body), 3, body.length, null)).getMessage();
            assertEquals(copy, range);
        }
        BtfFormatException e = assertThrows(BtfFormatException.class,
                () -> InputLoader.readRawUnits(amid(flood(65_537)), 3, 65_537 * EMPTY.length, null));
        assertTrue(e.getMessage().startsWith("more than 65536 BTF blobs back to back (blob 65537 at offset 1638400)"),
                e.getMessage());
    }

    @Test
    void anElfSectionOfSeveralBlobsIsReadInPlaceWithItsOffsets() {
        byte[] a = BtfWriter.write(A);
        byte[] obj = io.btfkit.core.elf.ElfFile.parse(TestData.bytes(TestData.sample("gcc/queue.o")))
                .withSections(new java.util.LinkedHashMap<>(java.util.Map.of(".BTF", concat(a, BtfWriter.write(B), a))));
        List<Btf> units = InputLoader.load(Path.of("ld-r.o"), obj, null).units();
        assertEquals(3, units.size());
        assertArrayEquals(BtfWriter.write(B), BtfWriter.write(units.get(1)));
        byte[] broken = io.btfkit.core.elf.ElfFile.parse(obj)
                .withSections(new java.util.LinkedHashMap<>(java.util.Map.of(".BTF", concat(a, a, new byte[] {0, 7}))));
        BtfFormatException e = assertThrows(BtfFormatException.class, () -> InputLoader.load(Path.of("ld-r.o"), broken, null));
        assertTrue(e.getMessage().startsWith("section .BTF: blob 2 at offset " + a.length + ": 2 bytes follow it at offset "
                + 2 * a.length), e.getMessage());
    }

    @Test
    void oneBtfCommandsRefuseSeveralBlobsInsteadOfDroppingThem() {
        byte[] two = concat(BtfWriter.write(A), BtfWriter.write(B));
        LoadedInput in = InputLoader.load(Path.of("ld-r.btf"), two, null);
        assertTrue(in.isConcatenated());
        OperationException e = assertThrows(OperationException.class, in::btf);
        assertTrue(e.getMessage().contains("holds 2 BTF blobs"), e.getMessage());
    }

    @Test
    void gccSampleObjectsStillHoldOneBlob() {
        LoadedInput in = InputLoader.load(TestData.sample("gcc/queue.o"), null);
        assertEquals(1, in.units().size());
        assertEquals(65, in.btf().ownTypeCount());
    }

    /** An empty blob: the 24-byte header and a string section of one NUL. */
    private static final byte[] EMPTY = {(byte) 0x9f, (byte) 0xeb, 1, 0, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 1, 0, 0, 0, 0};

    private static byte[] flood(int blobs) {
        byte[] out = new byte[blobs * EMPTY.length];
        for (int k = 0; k < blobs; k++) {
            System.arraycopy(EMPTY, 0, out, k * EMPTY.length, EMPTY.length);
        }
        return out;
    }

    /**
     * Units from nothing (issue 23): millions of empty 25-byte blobs (a 9.9 KB xz of 64 MiB) used
     * to become millions of units (validate: 90 s, 1.9 GB). Past {@link InputLoader#MAX_UNITS}
     * the input is refused before any blob is read, at the cost of counting headers.
     */
    @Test
    void aFloodOfEmptyBlobsIsRefusedBeforeAnyIsRead() {
        byte[] data = flood(1_000_000);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = mx.getCurrentThreadAllocatedBytes();
        BtfFormatException e = assertThrows(BtfFormatException.class, () -> InputLoader.readRawUnits(data, null));
        long allocated = mx.getCurrentThreadAllocatedBytes() - before;
        assertEquals("more than 65536 BTF blobs back to back (blob 65537 at offset 1638400); one input may hold at most"
                + " 65536 units", e.getMessage());
        assertTrue(allocated < 32L << 20, allocated + " bytes allocated to refuse it");
    }

    @Test
    void asManyBlobsAsTheLimitAreRead() {
        assertEquals(InputLoader.MAX_UNITS, InputLoader.readRawUnits(flood(InputLoader.MAX_UNITS), null).size());
    }
}
