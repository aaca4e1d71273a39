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
