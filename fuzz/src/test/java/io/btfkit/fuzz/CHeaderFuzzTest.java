package io.btfkit.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.btfkit.core.Btf;
import io.btfkit.cheader.CHeaderOptions;
import io.btfkit.cheader.CHeaderPrinter;
import java.io.OutputStream;

/**
 * Fuzzes the C header printer ({@link CHeaderPrinter}) on everything the readers accept: it
 * prints or refuses with a message (a type graph C cannot express, output past its limit), and
 * never throws anything else, whatever the sizes, offsets, cycles and chains say.
 *
 * <p>The target stops listening after 1 MiB of C: mutated sizes often ask for megabytes of
 * padding, and printing them up to the printer's limit (16 MiB + 16 bytes per input byte, 0.1 s
 * each) made fuzzing four times slower. That the limit holds is {@code CHeaderHostileTest}'s job.
 *
 * <p>Input: raw BTF text or binary raw BTF ({@link Outcomes#parseAny}); the first byte's low
 * bit picks bpftool 7.1's spelling or current libbpf's. Seeds: the sample objects' BTF, cycles,
 * every kind, and the hostile shapes of issue 17 (a struct of 4 GiB, arrays past 2^31 bits,
 * long qualifier chains).
 */
class CHeaderFuzzTest {
    @FuzzTest
    void cdump(byte[] data) {
        Btf btf = Outcomes.parseAny(data);
        if (btf == null) {
            return;
        }
        CHeaderOptions options = data.length > 0 && (data[0] & 1) != 0 ? CHeaderOptions.CURRENT_LIBBPF
                : CHeaderOptions.BPFTOOL_71;
        Counting out = new Counting();
        try {
            Outcomes.orRejected(() -> {
                CHeaderPrinter.print(btf, out, options);
                return null;
            });
        } catch (Enough e) {
            // a long header: what was printed so far raised nothing
        }
    }

    private static final long LISTEN = 1 << 20;

    /** Thrown by {@link Counting} past {@link #LISTEN} bytes. */
    private static final class Enough extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Enough() {
            super(null, null, false, false);
        }
    }

    /** Counts the bytes written, keeps none, and ends the print past {@link #LISTEN} bytes. */
    private static final class Counting extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            write(null, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
            if (count > LISTEN) {
                throw new Enough();
            }
        }
    }
}
