package io.btfkit.core.malformed;

import static io.btfkit.core.malformed.MalformedFiles.HDR_LEN;
import static io.btfkit.core.malformed.MalformedFiles.INT_AT;
import static io.btfkit.core.malformed.MalformedFiles.MEMBER_AT;
import static io.btfkit.core.malformed.MalformedFiles.PTR_AT;
import static io.btfkit.core.malformed.MalformedFiles.RAW;
import static io.btfkit.core.malformed.MalformedFiles.STRUCT_AT;
import static io.btfkit.core.malformed.MalformedFiles.STR_LEN;
import static io.btfkit.core.malformed.MalformedFiles.STR_OFF;
import static io.btfkit.core.malformed.MalformedFiles.TYPE_LEN;
import static io.btfkit.core.malformed.MalformedFiles.TYPE_OFF;
import static io.btfkit.core.malformed.MalformedFiles.VERSION;
import static io.btfkit.core.malformed.MalformedFiles.concat;
import static io.btfkit.core.malformed.MalformedFiles.cut;
import static io.btfkit.core.malformed.MalformedFiles.edit;
import static io.btfkit.core.malformed.MalformedFiles.gzip;
import static io.btfkit.core.malformed.MalformedFiles.raw;
import static io.btfkit.core.malformed.MalformedFiles.xz;
import static io.btfkit.core.malformed.MalformedFiles.zstd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.text.RawTextParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The malformed-input table: every case is a file written from bytes built here (damaged copies of
 * a small raw BTF, of the shipped {@code gcc/queue.o}, compressed forms of them, raw text) and read
 * through the command line's entry point {@link io.btfkit.core.io.InputLoader#load(Path,
 * io.btfkit.core.Btf)}; each must fail with a {@link BtfFormatException} (never any other
 * exception) whose message contains the given substrings, which say what is wrong and where.
 *
 * <p>The well-formed originals load (see {@link #originalsLoad}), so each failure comes from the
 * damage. Containers {@code InputLoader} does not read yet go to their own parser (see
 * {@link CliLoad}).
 */
class MalformedInputTest {
    @TempDir
    static Path dir;

    /** One row: a name, the file it writes (given the temp directory), the expected message parts. */
    record Case(String name, Function<Path, Path> file, String... expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Case bytes(String name, byte[] data, String... expected) {
        return new Case(name, d -> write(d, name, data), expected);
    }

    private static Path write(Path d, String name, byte[] data) {
        try {
            return Files.write(d.resolve(name.replaceAll("[^A-Za-z0-9.-]", "_")), data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Stream<Case> cases() {
        List<Case> c = new ArrayList<>();
        rawCases(c);
        elfCases(c);
        compressedCases(c);
        textCases(c);
        fileCases(c);
        return c.stream();
    }

    private static void rawCases(List<Case> c) {
        c.add(bytes("truncated header", cut(RAW, 10), "truncated BTF header: 10 bytes, need at least 24"));
        c.add(bytes("bad magic", raw(b -> b.putShort(0, (short) 0xeb9e)), "not BTF, ELF, compressed data or BTF text",
                "starts with 9e eb 01 00"));
        c.add(bytes("bad version", raw(b -> b.put(VERSION, (byte) 2)), "unsupported BTF version 2 (header offset 2)"));
        c.add(bytes("header length below 24", raw(b -> b.putInt(HDR_LEN, 16)), "header length 16 (header offset 4) is below 24"));
        c.add(bytes("header length past the end", raw(b -> b.putInt(HDR_LEN, 4096)),
                "header length 4096 (header offset 4) is past the end of the data (99 bytes)"));
        c.add(bytes("header length cutting the layout fields", raw(b -> b.putInt(HDR_LEN, 28)),
                "header length 28 (header offset 4) cuts the layout fields"));
        c.add(bytes("non-zero byte in a long header", concat(cut(raw(b -> b.putInt(HDR_LEN, 40)), 24),
                new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0}, Arrays.copyOfRange(RAW, 24, RAW.length)),
                "non-zero byte at header offset 36"));
        c.add(bytes("type offset not aligned", raw(b -> b.putInt(TYPE_OFF, 2)), "type section offset 2 is not 4-byte aligned"));
        c.add(bytes("type length not a multiple of 4", raw(b -> b.putInt(TYPE_LEN, 62)), "type section length 62 is not a multiple of 4"));
        c.add(bytes("huge type_len in a tiny file", raw(b -> b.putInt(TYPE_LEN, 0xfffffffc)),
                "type section [0, +4294967292) runs past the end of the data (75 bytes after the header)"));
        c.add(bytes("string section past the end", raw(b -> b.putInt(STR_LEN, -1)),
                "string section [64, +4294967295) runs past the end of the data (75 bytes after the header)"));
        c.add(bytes("file cut inside the string section", cut(RAW, 95),
                "string section [64, +11) runs past the end of the data (71 bytes after the header)"));
        c.add(bytes("type and string sections overlap", raw(b -> b.putInt(STR_OFF, 60).putInt(STR_LEN, 15)),
                "type section [0, +64) overlaps or follows the string section at 60"));
        c.add(bytes("layout section not aligned", concat(cut(raw(b -> b.putInt(HDR_LEN, 32)), 24),
                new byte[] {64, 0, 0, 0, 6, 0, 0, 0}, Arrays.copyOfRange(RAW, 24, RAW.length)),
                "layout section [64, +6) is not 4-byte aligned"));
        c.add(bytes("type header cut by the type section end", raw(b -> b.putInt(TYPE_LEN, 8).putInt(STR_OFF, 64)),
                "type [1] at type section offset 0: header needs 12 bytes, only 8 left"));
        c.add(bytes("vlen past the end of the type section", raw(b -> b.putInt(STRUCT_AT + 4, Kind.info(Kind.STRUCT, 5, false))),
                "type [3] STRUCT at type section offset 28: vlen 5 needs 72 bytes, only 36 left"));
        c.add(bytes("unknown kind", raw(b -> b.putInt(PTR_AT + 4, 25 << 24)), "type [2] at type section offset 16: unknown kind 25"));
        c.add(bytes("kind UNKN", raw(b -> b.putInt(PTR_AT + 4, 0)), "type [2] at type section offset 16: unknown kind 0"));
        c.add(bytes("name offset past the string section", raw(b -> b.putInt(INT_AT, 100)),
                "type [1] INT: name offset 100 is past the end of the string section (11 bytes)"));
        c.add(bytes("member name offset past the string section", raw(b -> b.putInt(MEMBER_AT + 12, 11)),
                "type [3] STRUCT: member/value/parameter 1 name offset 11 is past the end of the string section (11 bytes)"));
        c.add(bytes("string section not NUL-terminated", raw(b -> b.put(RAW.length - 1, (byte) 'x')),
                "string section is not NUL-terminated (last byte at string offset 10 is 0x78)"));
        c.add(bytes("string section not starting with the empty string", raw(b -> b.put(24 + 64, (byte) 'z')),
                "string section does not start with the empty string (first byte 0x7a)"));
        c.add(bytes("empty string section", cut(raw(b -> b.putInt(STR_LEN, 0)), 24 + 64),
                "string section is empty; standalone BTF needs at least the empty string"));
        c.add(bytes("type id past the last type", raw(b -> b.putInt(PTR_AT + 8, 9)),
                "type [2] PTR: type refers to type 9, but the last type id is 3"));
        c.add(bytes("member type id past the last type", raw(b -> b.putInt(MEMBER_AT + 16, 77)),
                "type [3] STRUCT 's': member 1 refers to type 77, but the last type id is 3"));
        c.add(bytes("garbage after the sections", concat(RAW, new byte[] {0, 0, 0, 5}),
                "4 bytes follow the BTF sections at offset 99"));
        c.add(bytes("split BTF without its base", splitOnRaw(),
                "string section does not start with the empty string (first byte 0x73)",
                "(this looks like split BTF: give its base with --base)"));
    }

    /** A split BTF on {@link MalformedFiles#RAW}: its string section starts with its own first name. */
    private static byte[] splitOnRaw() {
        Btf base = RawTextParser.parse(MalformedFiles.TEXT, null);
        return BtfWriter.write(RawTextParser.parse("[4] PTR '(anon)' type_id=4\n[5] TYPEDEF 'sp' type_id=4\n", base));
    }

    private static void elfCases(List<Case> c) {
        MalformedFiles.Elf e = MalformedFiles.elf();
        byte[] d = e.bytes();
        int len = d.length;
        String hexLen = "0x" + Integer.toHexString(len);
        String shoff = "0x" + Long.toHexString(e.shoff());
        int btf = e.btfIndex();
        c.add(bytes("ELF header cut", cut(d, 40), "truncated ELF header: 40 bytes, an ELF64 header needs 64"));
        c.add(bytes("ELF bad class", edit(d, b -> b.put(4, (byte) 3)), "bad ELF class 3 at offset 4"));
        c.add(bytes("section header table past EOF", edit(d, b -> b.putLong(0x28, len - 16)),
                "section header table at e_shoff 0x" + Integer.toHexString(len - 16) + " runs past the end of the file (" + hexLen + " bytes)"));
        c.add(bytes("section count past EOF", edit(d, b -> b.putShort(0x3c, (short) 0xffff)),
                "section header table: 65535 entries of 64 bytes at " + shoff + " run past the end of the file"));
        c.add(bytes("wrong section header size", edit(d, b -> b.putShort(0x3a, (short) 40)),
                "e_shentsize 40 at offset 58 is wrong: ELF64 section headers are 64 bytes"));
        c.add(bytes("section name table index out of range", edit(d, b -> b.putShort(0x3e, (short) 50)),
                "e_shstrndx 50 is out of range: the file has " + e.shnum() + " sections"));
        c.add(bytes("section name past the name table", edit(d, b -> b.putInt(e.sh(btf, 0), 0x10000)),
                "section header " + btf + ": name offset 0x10000 is past the end of the section name table"));
        c.add(bytes("relocation section linking nowhere", edit(d, b -> b.putInt(e.sh(relocationIndex(e), 0x28), 99)),
                "sh_link 99 is not a section index (the file has " + e.shnum() + " sections)"));
        c.add(bytes(".BTF data past EOF", edit(d, b -> b.putLong(e.sh(btf, 0x20), 0x10000)),
                "section header " + btf + " (.BTF): data [", ", +0x10000) runs past the end of the file (" + hexLen + " bytes)"));
        c.add(bytes(".BTF offset past EOF", edit(d, b -> b.putLong(e.sh(btf, 0x18), 0xffffffff00L)),
                "section header " + btf + " (.BTF): data [0xffffffff00, +"));
        long btfAt = ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN).getLong(e.sh(btf, 0x18));
        c.add(bytes("malformed BTF inside .BTF", edit(d, b -> b.put((int) btfAt + VERSION, (byte) 9)),
                "unsupported BTF version 9 (header offset 2)"));
    }

    /** The first SHT_RELA section of the sample (its sh_link names the symbol table). */
    private static int relocationIndex(MalformedFiles.Elf e) {
        ByteBuffer b = ByteBuffer.wrap(e.bytes()).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 1; i < e.shnum(); i++) {
            if (b.getInt(e.sh(i, 4)) == 4) {
                return i;
            }
        }
        throw new AssertionError("gcc/queue.o has no SHT_RELA section");
    }

    private static void compressedCases(List<Case> c) {
        byte[] gz = gzip(RAW);
        byte[] x = xz(RAW);
        byte[] z = zstd(RAW);
        c.add(bytes("corrupt xz", edit(x, b -> b.put(x.length / 2, (byte) (x[x.length / 2] ^ 0x55))), "corrupt xz data"));
        c.add(bytes("corrupt zstd", edit(z, b -> b.putInt(4, 0xffffffff)), "corrupt zstd data"));
        c.add(bytes("corrupt gzip", edit(gz, b -> b.put(gz.length - 6, (byte) (gz[gz.length - 6] ^ 0x55))),
                "corrupt gzip data: gzip trailer does not match the data (CRC-32 or size)"));
        c.add(bytes("truncated xz", cut(x, x.length - 20), "corrupt xz data: truncated (the compressed stream ends early)"));
        c.add(bytes("truncated zstd", cut(z, z.length / 2), "corrupt zstd data: truncated (the compressed stream ends early)"));
        c.add(bytes("truncated gzip", cut(gz, gz.length / 2), "corrupt gzip data: truncated (the compressed stream ends early)"));
        c.add(bytes("xz of nothing", xz(new byte[0]), "xz data decompresses to nothing"));
        c.add(bytes("compressed twice", gzip(gz), "gzip data holds compressed data again; refusing to unwrap twice"));
        c.add(bytes("malformed BTF inside gzip", gzip(cut(RAW, 95)), "string section [64, +11) runs past the end of the data"));
    }

    private static void textCases(List<Case> c) {
        String intLine = "[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n";
        c.add(text("text: unknown kind word", intLine + "[2] BLOB 'x' size=4\n", "line 2: unknown kind 'BLOB'"));
        c.add(text("text: member line without a type", intLine + "\t'a' type_id=1 bits_offset=0\n",
                "line 2: member line after [1] INT at line 1, which has no members"));
        c.add(text("text: ids not consecutive", intLine + "[3] PTR '(anon)' type_id=1\n",
                "line 2: expected type id [2], found [3]"));
        c.add(text("text: garbage field", "# comment\n" + intLine + "[2] PTR '(anon)' type_id=banana\n",
                "line 3: expected a number after 'type_id=', found 'banana'"));
        c.add(text("text: reference past the last type", intLine + "[2] PTR '(anon)' type_id=7\n",
                "line 2: type_id=7 refers to no type (the last id is 2)"));
    }

    private static Case text(String name, String text, String... expected) {
        return bytes(name, text.getBytes(StandardCharsets.ISO_8859_1), expected);
    }

    private static void fileCases(List<Case> c) {
        c.add(bytes("empty file", new byte[0], "empty file"));
        c.add(new Case("directory instead of a file", d -> {
            try {
                return Files.createDirectories(d.resolve("a-directory"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "cannot read"));
        c.add(new Case("missing file", d -> d.resolve("does-not-exist"), "no such file"));
        c.add(bytes("random bytes", new byte[] {0x13, 0x37, 0x00, 0x42, 0x7f}, "not BTF, ELF, compressed data or BTF text",
                "starts with 13 37 00 42 7f"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void failsWithFormatError(Case c) {
        Path file = c.file().apply(dir);
        BtfFormatException e = assertThrows(BtfFormatException.class, () -> CliLoad.load(file));
        String m = e.getMessage();
        assertNotNull(m);
        assertFalse(m.contains("\n"), "one-line message: " + m);
        assertFalse(m.contains(file.toString()), "the CLI adds the file name, the message must not: " + m);
        for (String part : c.expected()) {
            assertTrue(m.contains(part), "message\n  " + m + "\nshould contain\n  " + part);
        }
    }

    @Test
    void tableHasEnoughCases() {
        assertTrue(cases().count() >= 30);
        assertEquals(cases().count(), cases().map(Case::name).distinct().count(), "case names are unique");
    }

    @Test
    void originalsLoad() {
        MalformedFiles.Elf e = MalformedFiles.elf();
        assertEquals(3, CliLoad.load(write(dir, "ok.btf", RAW)).typeCount() - 1);
        assertEquals(3, CliLoad.load(write(dir, "ok.btf.gz", gzip(RAW))).typeCount() - 1);
        assertEquals(3, CliLoad.load(write(dir, "ok.btf.xz", xz(RAW))).typeCount() - 1);
        assertEquals(3, CliLoad.load(write(dir, "ok.btf.zst", zstd(RAW))).typeCount() - 1);
        assertEquals(3, CliLoad.load(write(dir, "ok.txt", MalformedFiles.TEXT.getBytes(StandardCharsets.ISO_8859_1))).typeCount() - 1);
        assertTrue(CliLoad.load(write(dir, "ok.o", e.bytes())).typeCount() > 10);
    }
}
