package io.btfkit.core.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.BtfFormatException;
import io.btfkit.core.OperationException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Damaged ELF files (fields of the ELF header, section and program headers set to awkward
 * values, truncation): parsing either succeeds or throws BtfFormatException, never anything
 * else; a file that parses can be rewritten (or the rewrite is refused with an
 * OperationException), and the rewrite parses again with the same section count or more.
 */
class ElfFuzzProperties {
    private static final List<String> SAMPLES = List.of("gcc/queue.o", "bpf/task_trace.bpf.o", "bpf/task_trace.bpfeb.o",
            "elf/queue.i386.o", "elf/queue.mips.o", "elf/tiny.exec");
    private static final long[] AWKWARD = {0, 1, 2, 3, 4, 8, 0x40, 0xff, 0xff00, 0xffff, 0x7fffffff, 0x80000000L, 0xffffffffL,
        0x100000000L, Long.MAX_VALUE, -1L, Long.MIN_VALUE};

    @Property(tries = 400)
    void damagedFilesFailCleanly(@ForAll long seed) {
        Random r = new Random(seed);
        byte[] d = ElfTools.sampleBytes(SAMPLES.get(r.nextInt(SAMPLES.size()))).clone();
        ElfFile original = ElfFile.parse(d);
        ByteBuffer b = ByteBuffer.wrap(d).order(original.order());
        int edits = 1 + r.nextInt(3);
        for (int e = 0; e < edits; e++) {
            damage(d, b, original, r);
        }
        if (r.nextInt(8) == 0) {
            d = java.util.Arrays.copyOf(d, r.nextInt(d.length));
        }
        ElfFile elf;
        try {
            elf = ElfFile.parse(d);
        } catch (BtfFormatException expected) {
            assertTrue(!expected.getMessage().isEmpty() && !expected.getMessage().contains("\n"));
            return;
        }
        for (ElfFile.Section s : elf.sections()) {
            elf.sectionData(s);
        }
        Optional<ElfFile.Section> target = elf.sections().stream().filter(s -> s.index() > 0 && !s.name().isEmpty()).findFirst();
        LinkedHashMap<String, byte[]> m = new LinkedHashMap<>();
        m.put(target.isPresent() ? target.get().name() : ".BTF", new byte[] {1, 2, 3, 4, 5});
        m.put(".BTF.base", new byte[] {6, 7, 8});
        byte[] out;
        try {
            out = elf.withSections(m);
        } catch (OperationException refused) {
            return;
        }
        ElfFile re = ElfFile.parse(out);
        assertTrue(re.sections().size() >= elf.sections().size());
        assertEquals(elf.segments(), re.segments());
    }

    private static void damage(byte[] d, ByteBuffer b, ElfFile elf, Random r) {
        ElfClass c = elf.elfClass();
        int at;
        switch (r.nextInt(4)) {
            case 0:
                at = r.nextInt(c.ehdrSize);
                break;
            case 1:
                at = (int) elf.shoff() + r.nextInt(elf.sections().size() * c.shdrSize);
                break;
            case 2:
                if (!elf.segments().isEmpty()) {
                    at = c.ehdrSize + r.nextInt(elf.segments().size() * c.phdrSize);
                    break;
                }
                at = r.nextInt(d.length);
                break;
            default:
                at = r.nextInt(d.length);
                break;
        }
        long v = r.nextBoolean() ? AWKWARD[r.nextInt(AWKWARD.length)] : r.nextInt(d.length + 64);
        int width = new int[] {1, 2, 4, 8}[r.nextInt(4)];
        at = Math.min(at, d.length - width);
        switch (width) {
            case 1:
                d[at] = (byte) v;
                break;
            case 2:
                b.putShort(at, (short) v);
                break;
            case 4:
                b.putInt(at, (int) v);
                break;
            default:
                b.putLong(at, v);
                break;
        }
    }

    @Property(tries = 50)
    void bigEndianMutationsToo(@ForAll long seed) {
        byte[] d = ElfTools.sampleBytes("elf/queue.mips.o").clone();
        Random r = new Random(seed);
        ByteBuffer b = ByteBuffer.wrap(d).order(ByteOrder.BIG_ENDIAN);
        b.putInt(r.nextInt(d.length - 4) & ~3, r.nextInt());
        try {
            ElfFile.parse(d);
        } catch (BtfFormatException expected) {
            assertTrue(!expected.getMessage().isEmpty());
        }
    }
}
