package io.btfkit.core.malformed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.btfkit.core.BtfFormatException;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * BTFHub ships each kernel's BTF as {@code KERNEL.btf.tar.xz}: a tar of one {@code .btf} file.
 * Such an archive is read as its one BTF file, whatever wraps it; anything else about the
 * archive is a one-line error naming what is wrong and where.
 */
class TarInputTest {
    private static final byte[] BTF = MalformedFiles.RAW;

    /** One tar record: a ustar header (typeflag {@code type}) and {@code data} padded to 512 bytes. */
    static byte[] entry(String name, char type, byte[] data) {
        byte[] h = new byte[512];
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(n, 0, h, 0, Math.min(100, n.length));
        put(h, 100, "0000644");
        put(h, 124, String.format("%011o", data.length));
        put(h, 136, "00000000000");
        h[156] = (byte) type;
        put(h, 257, "ustar");
        put(h, 263, "00");
        for (int i = 148; i < 156; i++) {
            h[i] = ' ';
        }
        int sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        put(h, 148, String.format("%06o", sum));
        h[154] = 0;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(h);
        out.writeBytes(data);
        out.writeBytes(new byte[(512 - data.length % 512) % 512]);
        return out.toByteArray();
    }

    private static void put(byte[] h, int at, String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(b, 0, h, at, b.length);
    }

    /** Records, then the two zero blocks that end an archive. */
    static byte[] tar(byte[]... entries) {
        return MalformedFiles.concat(MalformedFiles.concat(entries), new byte[1024]);
    }

    private static byte[] load(byte[] file) {
        LoadedInput in = InputLoader.load(Path.of("k.btf.tar.xz"), file, null);
        return BtfWriter.write(in.btf());
    }

    private static String error(byte[] file) {
        return assertThrows(BtfFormatException.class, () -> InputLoader.load(Path.of("x.tar"), file, null)).getMessage();
    }

    @Test
    void anArchiveOfOneBtfFileIsThatFile() {
        byte[] one = tar(entry("5.4.0-42-generic.btf", '0', BTF));
        assertArrayEquals(BTF, load(one));
        assertArrayEquals(BTF, load(MalformedFiles.xz(one)));
        assertArrayEquals(BTF, load(MalformedFiles.gzip(one)));
        // BTFHub's tars end without the zero blocks sometimes; a directory and a GNU long name are skipped
        byte[] longName = "kernels/ubuntu/20.04/x86_64/".repeat(5).concat("5.4.0-42-generic.btf").getBytes(StandardCharsets.UTF_8);
        byte[] gnu = MalformedFiles.concat(entry("kernels/", '5', new byte[0]), entry("././@LongLink", 'L', longName),
                entry("5.4.0-42-generic.btf", '0', BTF));
        assertArrayEquals(BTF, load(gnu));
    }

    @Test
    void amongSeveralFilesTheOneBtfIsTaken() {
        byte[] readme = "about this kernel\n".getBytes(StandardCharsets.US_ASCII);
        assertArrayEquals(BTF, load(tar(entry("README", '0', readme), entry("k.btf", '0', BTF))));
        assertEquals("tar archive: holds 2 files and 2 named *.btf; btfkit reads an archive of one BTF file (a.btf, b.btf)",
                error(tar(entry("a.btf", '0', BTF), entry("b.btf", '0', BTF))));
        assertEquals("tar archive: holds no file", error(tar(entry("dir/", '5', new byte[0]))));
    }

    @Test
    void aDamagedArchiveIsNamedAndRefused() {
        byte[] one = tar(entry("k.btf", '0', BTF));
        byte[] badSum = one.clone();
        badSum[0] = 'K';
        // the checksum no longer adds up: not recognised as tar at all
        assertEquals("not BTF, ELF, compressed data or BTF text (starts with 4b 2e 62 74 66 00 00 00)", error(badSum));
        byte[] second = tar(entry("README", '0', new byte[3]), entry("k.btf", '0', BTF));
        second[512 + 512 + 10] ^= 1; // the second header's mode field: its checksum fails
        assertEquals("tar archive: tar header at offset 1024 is corrupt (its checksum does not match)", error(second));
        byte[] cut = MalformedFiles.cut(tar(entry("k.btf", '0', BTF)), 512 + 50);
        assertEquals("tar archive: tar member at offset 0 declares " + BTF.length + " bytes, past the archive's end (50 bytes follow its header)",
                error(cut));
        byte[] partial = MalformedFiles.concat(entry("k.btf", '0', BTF), new byte[] {1, 2, 3});
        assertEquals("tar archive: truncated (a partial header at offset " + entry("k.btf", '0', BTF).length + ")", error(partial));
    }

    @Test
    void aCompressedMemberOfACompressedArchiveIsOneLevelTooMany() {
        byte[] nested = MalformedFiles.xz(tar(entry("k.btf.xz", '0', MalformedFiles.xz(BTF))));
        assertEquals("tar member 'k.btf.xz' holds compressed data again; refusing to unwrap twice", error(nested));
    }
}
