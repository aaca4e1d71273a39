package io.btfkit.core.ext;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.OperationException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Reading and writing the .BTF.ext of the clang samples, checked against their sources and their .BTF. */
class BtfExtReadWriteTest {

    static Stream<String> objects() {
        return ExtSamples.OBJECTS.stream();
    }

    @ParameterizedTest
    @MethodSource("objects")
    void writeOfReadIsByteIdentical(String name) {
        ExtSamples.Sample s = ExtSamples.load(name);
        BtfExt ext = s.ext();
        assertEquals(32, ext.headerLength());
        assertTrue(ext.funcInfo().isPresent() && ext.lineInfo().isPresent() && ext.coreRelo().isPresent());
        assertEquals(name.contains("bpfeb") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN, ext.order());
        assertArrayEquals(s.extBytes(), BtfExtWriter.write(ext));
        assertTrue(BtfExtHeader.parse(s.extBytes(), 0, s.extBytes().length).isCanonical());
    }

    /** func_info names the functions of each program section, in instruction order. */
    @Test
    void funcInfoOfBothSamples() {
        assertEquals(List.of("tracepoint/sched/sched_process_exec: 0 trace_exec", "kprobe/do_exit: 0 trace_exit"),
                funcs(ExtSamples.load("bpf/task_trace.bpf.o")));
        assertEquals(List.of(".text: 0 mtu_of", ".text: 40 account", "xdp: 0 count_packets"), funcs(ExtSamples.load("bpf/net_stats.bpf.o")));
    }

    private static List<String> funcs(ExtSamples.Sample s) {
        BtfExt ext = s.ext();
        BtfExtInfo fi = ext.funcInfo();
        assertEquals(8, fi.recordSize());
        List<String> out = new ArrayList<>();
        for (int sec = 0; sec < fi.sectionCount(); sec++) {
            for (int r = fi.sectionStart(sec); r < fi.sectionStart(sec) + fi.recordCount(sec); r++) {
                BtfExtInfo.FuncInfo f = fi.funcInfo(r);
                assertEquals(Kind.FUNC, s.btf().kind(f.typeId()));
                out.add(s.btf().string(fi.sectionNameOff(sec)) + ": " + f.insnOff() + " " + s.btf().name(f.typeId()));
            }
        }
        return out;
    }

    /** Every line_info record's line_off is the text of that line of the source file it names. */
    @ParameterizedTest
    @MethodSource("objects")
    void lineInfoQuotesTheSource(String name) throws Exception {
        ExtSamples.Sample s = ExtSamples.load(name);
        BtfExtInfo li = s.ext().lineInfo();
        assertEquals(16, li.recordSize());
        assertTrue(li.recordCount() > 20);
        for (int r = 0; r < li.recordCount(); r++) {
            BtfExtInfo.LineInfo l = li.lineInfo(r);
            String file = s.btf().string(l.fileNameOff());
            assertTrue(file.startsWith("./") && file.endsWith(".c"), file);
            if (l.line() == 0) {
                assertEquals("", s.btf().string(l.lineOff()), "line 0 (code with no source line) has no text");
                continue;
            }
            List<String> lines = java.nio.file.Files.readAllLines(ExtSamples.source("bpf/" + file.substring(2)), StandardCharsets.UTF_8);
            assertEquals(lines.get(l.line() - 1), s.btf().string(l.lineOff()), file + ":" + l.line());
            assertTrue(l.column() <= lines.get(l.line() - 1).length() + 1);
        }
    }

    /** CO-RE relocations: the kinds the sources ask for, on the types they name. */
    @Test
    void coreRelocationsOfTaskTrace() {
        ExtSamples.Sample s = ExtSamples.load("bpf/task_trace.bpf.o");
        assertEquals(List.of(
                "tracepoint/sched/sched_process_exec: task_struct 0:0 kind 0",
                "tracepoint/sched/sched_process_exec: task_struct 0:4 kind 0",
                "tracepoint/sched/sched_process_exec: task_struct 0:1 kind 0",
                "tracepoint/sched/sched_process_exec: task_struct 0:3 kind 0",
                "tracepoint/sched/sched_process_exec: mm_struct 0:0 kind 0",
                "tracepoint/sched/sched_process_exec: task_struct 0:6 kind 0",
                "tracepoint/sched/sched_process_exec: task_struct 0:8 kind 2",
                "tracepoint/sched/sched_process_exec: task_struct 0:8 kind 1",
                "kprobe/do_exit: task_struct 0 kind 8",
                "kprobe/do_exit: task_state_bits 2 kind 11",
                "kprobe/do_exit: task_struct 0 kind 9"), relos(s));
        assertEquals(List.of(".text: net_device 0:1 kind 2", ".text: net_device 0:1 kind 0"), relos(ExtSamples.load("bpf/net_stats.bpf.o")));
    }

    private static List<String> relos(ExtSamples.Sample s) {
        BtfExtInfo cr = s.ext().coreRelo();
        List<String> out = new ArrayList<>();
        for (int sec = 0; sec < cr.sectionCount(); sec++) {
            for (int r = cr.sectionStart(sec); r < cr.sectionStart(sec) + cr.recordCount(sec); r++) {
                BtfExtInfo.CoreRelo c = cr.coreRelo(r);
                out.add(s.btf().string(cr.sectionNameOff(sec)) + ": " + s.btf().name(c.typeId()) + " " + s.btf().string(c.accessStrOff())
                        + " kind " + c.kind());
            }
        }
        return out;
    }

    /** Every type id and string offset .BTF.ext holds is valid in the .BTF beside it. */
    @ParameterizedTest
    @MethodSource("objects")
    void everyReferenceResolves(String name) {
        ExtSamples.Sample s = ExtSamples.load(name);
        Btf btf = s.btf();
        BtfExt ext = s.ext();
        int[] counts = new int[2];
        Set<String> fields = new TreeSet<>();
        ext.forEachReference((kind, field, section, record, value) -> {
            fields.add(kind.label() + "." + field.fieldName());
            if (field.isTypeId()) {
                counts[0]++;
                assertTrue(value > 0 && value < btf.typeCount(), kind.label() + " block " + section + " record " + record);
            } else {
                counts[1]++;
                assertTrue(btf.strings().isValid(value), kind.label() + " block " + section + " record " + record);
                assertEquals(field == ExtField.SEC_NAME, record == -1);
            }
        });
        assertEquals(ext.funcInfo().recordCount() + ext.coreRelo().recordCount(), counts[0]);
        assertEquals(ext.funcInfo().sectionCount() + ext.lineInfo().sectionCount() + ext.coreRelo().sectionCount()
                + 2 * ext.lineInfo().recordCount() + ext.coreRelo().recordCount(), counts[1]);
        assertEquals(Set.of("core_relo.access_str_off", "core_relo.sec_name_off", "core_relo.type_id", "func_info.sec_name_off",
                "func_info.type_id", "line_info.file_name_off", "line_info.line_off", "line_info.sec_name_off"), fields);
        List<Integer> ids = new ArrayList<>();
        ext.forEachTypeId(ids::add);
        assertEquals(counts[0], ids.size());
        List<Integer> strs = new ArrayList<>();
        ext.forEachStringOffset(strs::add);
        assertEquals(counts[1], strs.size());
    }

    /** The big-endian build holds the same records; converting the little-endian model gives its exact bytes. */
    @Test
    void bigEndianSampleIsTheLittleEndianOneSwapped() {
        ExtSamples.Sample le = ExtSamples.load("bpf/task_trace.bpf.o");
        ExtSamples.Sample be = ExtSamples.load("bpf/task_trace.bpfeb.o");
        assertArrayEquals(be.extBytes(), BtfExtWriter.write(le.ext().withOrder(ByteOrder.BIG_ENDIAN)));
        assertArrayEquals(le.extBytes(), BtfExtWriter.write(be.ext().withOrder(ByteOrder.LITTLE_ENDIAN)));
    }

    /** Records longer than the known struct keep their extra words through read, write and remap. */
    @Test
    void longerRecordsKeepTheirExtraWords() {
        BtfExtInfo func = new BtfExtInfo.Builder(BtfExtInfo.Kind.FUNC_INFO, 12).section(5).record(0, 3, 0xabcd).record(64, 4, 0x1234).build();
        BtfExtInfo line = new BtfExtInfo.Builder(BtfExtInfo.Kind.LINE_INFO).section(5).record(0, 9, 11, (7 << 10) | 2).build();
        BtfExt ext = BtfExt.of(func, line, BtfExtInfo.absent(BtfExtInfo.Kind.CORE_RELO));
        assertEquals(24, ext.headerLength());
        byte[] bytes = BtfExtWriter.write(ext);
        assertEquals(24 + (4 + 8 + 24) + (4 + 8 + 16), bytes.length);
        BtfExt back = BtfExtReader.read(bytes);
        assertEquals(12, back.funcInfo().recordSize());
        assertEquals(0x1234, back.funcInfo().word(1, 2));
        assertEquals(new BtfExtInfo.FuncInfo(64, 4), back.funcInfo().funcInfo(1));
        assertEquals(7, back.lineInfo().lineInfo(0).line());
        assertEquals(2, back.lineInfo().lineInfo(0).column());
        assertFalse(back.coreRelo().isPresent());
        assertArrayEquals(bytes, BtfExtWriter.write(back));
        BtfExt remapped = back.remap(t -> t + 100, s -> s + 1000);
        assertEquals(0x1234, remapped.funcInfo().word(1, 2), "unknown words are not references");
        assertEquals(104, remapped.funcInfo().funcInfo(1).typeId());
        OperationException e = assertThrows(OperationException.class, () -> back.withOrder(ByteOrder.BIG_ENDIAN));
        assertEquals(".BTF.ext func_info records are 12 bytes, longer than the known 8: cannot convert their byte order", e.getMessage());
        assertArrayEquals(bytes, BtfExtWriter.write(back.withOrder(ByteOrder.LITTLE_ENDIAN)));
    }

    @Test
    void headerLengthsAreKept() {
        ExtSamples.Sample s = ExtSamples.load("bpf/net_stats.bpf.o");
        BtfExt ext = s.ext();
        byte[] longer = BtfExtWriter.write(ext.withHeaderLength(40));
        assertEquals(s.extBytes().length + 8, longer.length);
        BtfExt back = BtfExtReader.read(longer);
        assertEquals(40, back.headerLength());
        assertArrayEquals(longer, BtfExtWriter.write(back));
        assertArrayEquals(s.extBytes(), BtfExtWriter.write(back.withHeaderLength(32)));
        assertThrows(IllegalArgumentException.class, () -> ext.withHeaderLength(24), "core_relo needs 32 bytes");
        BtfExt noCore = new BtfExt(ByteOrder.LITTLE_ENDIAN, 24, ext.funcInfo(), ext.lineInfo(), BtfExtInfo.absent(BtfExtInfo.Kind.CORE_RELO));
        BtfExt noCoreBack = BtfExtReader.read(BtfExtWriter.write(noCore));
        assertEquals(24, noCoreBack.headerLength());
        assertEquals(ext.lineInfo().recordCount(), noCoreBack.lineInfo().recordCount());
    }

    @Test
    void builderRejectsEmptyBlocksAndWrongRecordShapes() {
        assertFalse(new BtfExtInfo.Builder(BtfExtInfo.Kind.CORE_RELO).build().isPresent(), "no blocks: absent");
        assertThrows(IllegalStateException.class, () -> new BtfExtInfo.Builder(BtfExtInfo.Kind.FUNC_INFO).section(1).build());
        assertThrows(IllegalArgumentException.class, () -> new BtfExtInfo.Builder(BtfExtInfo.Kind.FUNC_INFO).section(1).record(1, 2, 3));
        assertThrows(IllegalArgumentException.class, () -> new BtfExtInfo.Builder(BtfExtInfo.Kind.LINE_INFO, 12));
        assertThrows(IllegalArgumentException.class, () -> new BtfExtInfo.Builder(BtfExtInfo.Kind.LINE_INFO, 18));
    }
}
