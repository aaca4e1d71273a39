package io.btfkit.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.btfkit.core.Btf;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.text.RawTextParser;
import io.btfkit.validate.OutputCheck;
import io.btfkit.dedup.DedupResult;
import io.btfkit.dedup.Deduplicator;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * Fuzzes dedup, link and concatenation (link --no-dedup) on BTF whose references loop in any
 * way — modifier and typedef cycles, self-pointing pointers, prototype loops, struct-broken
 * cycles — valid or not. Each operation either rejects its input with a
 * {@link io.btfkit.core.BtfException} or succeeds with an output that carries no finding its
 * input did not have ({@link OutputCheck}: an output may carry what its input carried, never
 * more); dedup is idempotent (byte for byte).
 *
 * <p>Input: raw BTF text (the hand-written seeds: libbpf's selftest shapes), or bytes read as a
 * compact graph ({@link #compact}) so that most mutations are still a graph full of cycles
 * rather than a parse error.
 */
class CyclicShapesFuzzTest {
    /** Types a compact input may describe (three bytes each). */
    private static final int MAX_TYPES = 64;

    @FuzzTest
    void linkDedup(byte[] data) {
        Btf btf = RawTextParser.looksLikeText(data) ? Outcomes.parseAny(data) : Outcomes.orRejected(() -> compact(data));
        if (btf == null) {
            return;
        }
        int n = btf.ownTypeCount();
        DedupResult once = Outcomes.orRejected(() -> Deduplicator.dedup(btf));
        if (once != null) {
            OutputCheck.check(once.btf(), List.of(new OutputCheck.Source("in", () -> btf, id -> once.outputId(0, id, 1))));
            assertTrue(once.btf().ownTypeCount() <= n, "dedup added types");
            DedupResult twice = Deduplicator.dedup(once.btf());
            assertArrayEquals(BtfWriter.write(once.btf()), BtfWriter.write(twice.btf()), "dedup is not idempotent");
        }
        DedupResult linked = Outcomes.orRejected(() -> Deduplicator.link(List.of(btf, btf), null, Deduplicator.Options.LINK));
        if (linked != null) {
            OutputCheck.check(linked.btf(), List.of(source(btf, linked, 0), source(btf, linked, 1)));
        }
        DedupResult added = Outcomes.orRejected(() -> Deduplicator.concatenate(List.of(btf, btf), null));
        if (added != null) {
            OutputCheck.check(added.btf(), List.of(source(btf, added, 0), source(btf, added, 1)));
            assertTrue(added.btf().ownTypeCount() == 2 * n, "concatenation dropped or added types");
        }
    }

    private static OutputCheck.Source source(Btf in, DedupResult r, int k) {
        IntUnaryOperator map = id -> r.outputId(k, id, 1);
        return new OutputCheck.Source("unit " + k, () -> in, map);
    }

    /**
     * Three bytes per type: kind, then two references taken modulo the number of types plus
     * one (0 is void), so any bytes make a graph and most make cycles. Type [1] is int.
     */
    static Btf compact(byte[] data) {
        int n = Math.min(MAX_TYPES, data.length / 3) + 1;
        StringBuilder sb = new StringBuilder("[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n");
        for (int i = 0; i + 1 < n; i++) {
            int kind = data[3 * i] & 0xff;
            int a = (data[3 * i + 1] & 0xff) % (n + 1);
            int b = (data[3 * i + 2] & 0xff) % (n + 1);
            sb.append('[').append(i + 2).append("] ");
            switch (kind % 11) {
                case 0 -> sb.append("PTR '(anon)' type_id=").append(a);
                case 1 -> sb.append("CONST '(anon)' type_id=").append(a);
                case 2 -> sb.append("VOLATILE '(anon)' type_id=").append(a);
                case 3 -> sb.append("RESTRICT '(anon)' type_id=").append(a);
                case 4 -> sb.append("TYPEDEF 'Foo' type_id=").append(a);
                case 5 -> sb.append("TYPE_TAG 'tag' type_id=").append(a);
                case 6 -> sb.append("FUNC_PROTO '(anon)' ret_type_id=").append(a).append(" vlen=1\n\t'p' type_id=").append(b);
                case 7 -> sb.append("STRUCT 'node' size=8 vlen=1\n\t'next' type_id=").append(a).append(" bits_offset=0");
                case 8 -> sb.append("ARRAY '(anon)' type_id=").append(a).append(" index_type_id=1 nr_elems=2");
                case 9 -> sb.append("FWD 'node' fwd_kind=struct");
                default -> sb.append("UNION 'u' size=8 vlen=2\n\t'a' type_id=").append(a).append(" bits_offset=0\n\t'b' type_id=")
                        .append(b).append(" bits_offset=0");
            }
            sb.append('\n');
        }
        return RawTextParser.parse(sb.toString(), null);
    }
}
