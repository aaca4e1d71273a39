package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.TestData;
import io.btfkit.core.ext.BtfExt;
import io.btfkit.core.ext.BtfExtInfo;
import io.btfkit.core.io.InputLoader;
import io.btfkit.core.io.LoadedInput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deduplicating a clang BPF object rewrites its .BTF.ext with the new type ids and string
 * offsets: every func_info still names the same function, every line_info the same file and
 * source line, every CO-RE relocation the same type and access string; bpftool still reads it.
 */
class BpfObjectDedupTest {
    @TempDir
    Path tmp;

    @Test
    void extRecordsFollowTheDedup() {
        for (String name : List.of("task_trace.bpf.o", "net_stats.bpf.o")) {
            Path in = TestData.sample("bpf/" + name);
            Path out = tmp.resolve(name);
            Cli r = Cli.run("dedup", in.toString(), "--out-format", "elf", "-o", out.toString());
            assertEquals(0, r.exit, r.toString());
            LoadedInput before = InputLoader.load(in, null);
            LoadedInput after = InputLoader.load(out, null);
            assertEquals(describe(before), describe(after), name);
            assertTrue(after.btf().ownTypeCount() <= before.btf().ownTypeCount());
            Path bpftool = TestData.tool("bpftool");
            if (bpftool != null) {
                String dump = new String(TestData.run(List.of(bpftool.toString(), "btf", "dump", "file", out.toString())));
                assertTrue(dump.contains("FUNC '"), "bpftool reads the rewritten object");
            }
        }
    }

    /**
     * A .BTF.ext record naming a type id past the end is malformed input: exit 2 with the record
     * named, no output — not an index exception, nor (for an id negative as an int) an ELF whose
     * .BTF.ext points at a type that does not exist.
     */
    @Test
    void extTypeIdPastTheEndIsRefused() throws java.io.IOException {
        byte[] obj = TestData.bytes(TestData.sample("bpf/task_trace.bpf.o"));
        io.btfkit.core.elf.ElfFile elf = io.btfkit.core.elf.ElfFile.parse(obj);
        int ext = (int) elf.section(".BTF.ext").orElseThrow().offset();
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(obj).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int hdrLen = b.getInt(ext + 4);
        int funcTypeId = ext + hdrLen + b.getInt(ext + 8) + 4 + 8 + 4; // record size, block header, insn_off
        int types = InputLoader.load(TestData.sample("bpf/task_trace.bpf.o"), null).btf().typeCount();
        for (int bad : new int[] {9999, -1}) {
            byte[] mutated = obj.clone();
            java.nio.ByteBuffer.wrap(mutated).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(funcTypeId, bad);
            Path in = java.nio.file.Files.write(tmp.resolve("bad" + bad + ".bpf.o"), mutated);
            Path out = tmp.resolve("out" + bad + ".o");
            Cli r = Cli.run("dedup", in.toString(), "--out-format", "elf", "-o", out.toString());
            assertEquals(2, r.exit, r.toString());
            assertTrue(r.err.startsWith("btfkit: " + in + ": .BTF.ext func_info record 0 (section '"), r.err);
            assertTrue(r.err.contains("): type id " + Integer.toUnsignedString(bad) + " past the last type " + (types - 1)), r.err);
            assertTrue(!java.nio.file.Files.exists(out), "no output");
        }
        if (b.getInt(ext + 4) >= 32 && b.getInt(ext + 28) > 0) {
            int coreTypeId = ext + hdrLen + b.getInt(ext + 24) + 4 + 8 + 4;
            byte[] mutated = obj.clone();
            java.nio.ByteBuffer.wrap(mutated).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(coreTypeId, 9999);
            Path in = java.nio.file.Files.write(tmp.resolve("core.bpf.o"), mutated);
            Cli r = Cli.run("dedup", in.toString(), "-o", tmp.resolve("core.btf").toString());
            assertEquals(2, r.exit, r.toString());
            assertTrue(r.err.contains(".BTF.ext core_relo record 0 (section '"), r.err);
        }
    }

    /** Every .BTF.ext record with its references resolved to names and strings. */
    private static List<String> describe(LoadedInput li) {
        Btf btf = li.btf();
        BtfExt ext = li.ext();
        List<String> out = new ArrayList<>();
        for (BtfExtInfo.Kind k : BtfExtInfo.Kind.values()) {
            BtfExtInfo info = ext.info(k);
            if (!info.isPresent()) {
                continue;
            }
            for (int s = 0; s < info.sectionCount(); s++) {
                String sec = btf.string(info.sectionNameOff(s));
                for (int r = info.sectionStart(s); r < info.sectionStart(s) + info.recordCount(s); r++) {
                    StringBuilder b = new StringBuilder(k.label()).append(' ').append(sec);
                    for (int w = 0; w < info.recordWords(); w++) {
                        b.append(' ').append(info.word(r, w));
                    }
                    switch (k) {
                        case FUNC_INFO: {
                            int t = info.word(r, 1);
                            b.setLength(0);
                            b.append("func ").append(sec).append(' ').append(info.word(r, 0)).append(' ')
                                    .append(Kind.name(btf.kind(t))).append(' ').append(btf.name(t));
                            break;
                        }
                        case LINE_INFO:
                            b.setLength(0);
                            b.append("line ").append(sec).append(' ').append(info.word(r, 0)).append(' ')
                                    .append(btf.string(info.word(r, 1))).append(" | ").append(btf.string(info.word(r, 2)))
                                    .append(' ').append(info.word(r, 3));
                            break;
                        default: {
                            int t = info.word(r, 1);
                            b.setLength(0);
                            b.append("core ").append(sec).append(' ').append(info.word(r, 0)).append(' ')
                                    .append(Kind.name(btf.kind(t))).append(' ').append(btf.name(t)).append(' ')
                                    .append(btf.string(info.word(r, 2))).append(' ').append(info.word(r, 3));
                        }
                    }
                    out.add(b.toString());
                }
            }
        }
        return out;
    }
}
