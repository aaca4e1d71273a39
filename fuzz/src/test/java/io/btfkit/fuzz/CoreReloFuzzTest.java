package io.btfkit.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.ext.BtfExt;
import io.btfkit.core.ext.BtfExtReader;
import io.btfkit.minimize.CoreRelocator;
import io.btfkit.minimize.LocalRelo;
import io.btfkit.minimize.Minimizer;
import io.btfkit.minimize.ReloKind;
import io.btfkit.minimize.ReloResult;
import java.util.List;

/**
 * Fuzzes CO-RE relocation resolution and minimization (what {@code core-check} and
 * {@code minimize} run) from each of their three inputs, the other two fixed:
 * <ul>
 *   <li>{@link #relos}: the program's {@code .BTF.ext} (CO-RE records: type ids, access strings,
 *       kinds) with the core_reads sample's {@code .BTF};</li>
 *   <li>{@link #local}: the program's {@code .BTF} with core_reads' {@code .BTF.ext};</li>
 *   <li>{@link #kernel}: the kernel BTF (raw or text), seeded with minimized 6.18 and 6.1 BTF.</li>
 * </ul>
 * Each must resolve or reject with a message, and what {@link Minimizer} builds must write and
 * read back. On a fuzzed target, every relocation resolves on the minimized BTF as on the
 * target itself (the promise of {@code minimize}).
 */
class CoreReloFuzzTest {
    private static final byte[] LOCAL_BYTES = resource("CoreReloFuzzTestInputs/local/core_reads.bpf.btf");
    private static final Btf LOCAL = BtfReader.read(LOCAL_BYTES);
    private static final BtfExt EXT = BtfExtReader.read(resource("CoreReloFuzzTestInputs/relos/core_reads.bpf.btf.ext"));
    private static final Btf TARGET = BtfReader.read(resource("CoreReloFuzzTestInputs/kernel/min-6.18-all.btf"));
    private static final CoreRelocator ON_TARGET = new CoreRelocator(TARGET);

    @FuzzTest
    void relos(byte[] data) {
        BtfExt ext = Outcomes.orRejected(() -> BtfExtReader.read(data));
        if (ext != null) {
            run(LOCAL, ext, ON_TARGET);
        }
    }

    @FuzzTest
    void local(byte[] data) {
        Btf local = Outcomes.parseAny(data);
        if (local != null) {
            run(local, EXT, ON_TARGET);
        }
    }

    @FuzzTest
    void kernel(byte[] data) {
        Btf target = Outcomes.parseAny(data);
        if (target == null) {
            return;
        }
        CoreRelocator onFull = Outcomes.orRejected(() -> new CoreRelocator(target));
        if (onFull == null) {
            return;
        }
        Btf min = run(LOCAL, EXT, onFull);
        if (min == null) {
            return;
        }
        List<ReloResult> a = onFull.resolveAll(LOCAL, EXT);
        List<ReloResult> b = new CoreRelocator(min).resolveAll(LOCAL, EXT);
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            ReloResult x = a.get(i);
            ReloResult y = b.get(i);
            String where = "relo #" + x.relo().index() + " " + x.relo().kind();
            assertEquals(x.status(), y.status(), where);
            if (x.relo().kind() == ReloKind.TYPE_ID_TARGET && x.status() == ReloResult.Status.MATCHED) {
                assertEquals(target.name((int) x.value()), min.name((int) y.value()), where);
                assertEquals(Kind.name(target.kind((int) x.value())), Kind.name(min.kind((int) y.value())), where);
            } else {
                assertEquals(x.value(), y.value(), where);
            }
        }
    }

    /**
     * Resolves every relocation and minimizes: the minimal BTF, written and read back (the bytes
     * a second write gives must be the same), or null when the input was rejected (a malformed
     * record, or a relocation that is an error: candidates disagree, as bpftool refuses too).
     */
    private static Btf run(Btf local, BtfExt ext, CoreRelocator relocator) {
        return Outcomes.orRejected(() -> {
            Minimizer minimizer = new Minimizer(relocator.target());
            for (LocalRelo r : LocalRelo.parseAll(local, ext)) {
                minimizer.record(relocator.resolve(local, r));
            }
            byte[] out = BtfWriter.write(minimizer.build());
            Btf min = BtfReader.read(out);
            assertArrayEquals(out, BtfWriter.write(min));
            return min;
        });
    }

    private static byte[] resource(String name) {
        try (java.io.InputStream in = CoreReloFuzzTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing seed " + name);
            }
            return in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
