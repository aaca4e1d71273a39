package io.btfkit.relocate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfReader;
import io.btfkit.core.TestData;
import io.btfkit.validate.Validator;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The three Debian 6.1.0-56 modules with an array of {@code const struct mfd_cell}
 * (src/test/resources/mfd_cell): onto 6.1.0-56-cloud, which only declares {@code mfd_cell},
 * relocation fails naming the type, the reason and the array (libbpf writes BTF the kernel
 * rejects); onto the two kernels that define it, it succeeds with BTF the validator accepts.
 */
class RelocateMfdCellTest {

    private static byte[] resource(String name) {
        try (InputStream in = RelocateMfdCellTest.class.getResourceAsStream("/mfd_cell/" + name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Btf split(String module) {
        Btf dist = BtfReader.read(resource(module + ".base.btf"));
        return BtfReader.read(resource(module + ".split.btf"), dist);
    }

    private static NewBaseIndex kernel(String version) {
        return RelocateGoldenTest.index("onto-" + version);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"cros_ec_dev, 9, 22", "lpc_ich, 11, 25", "rtsx_pci, 21, 97"})
    void onlyDeclaredOnTheCloudKernel(String module, int cell, int array) {
        TestData.golden("vmlinux-6.1.0-56-cloud.btf");
        Btf split = split(module);
        RelocationException e = assertThrows(RelocationException.class, () -> Relocator.relocate(split, kernel("6.1.0-56-cloud")));
        List<Problem> problems = e.problems();
        assertEquals(1, problems.size(), e.getMessage());
        assertEquals("STRUCT 'mfd_cell' [" + cell + "] size=144: needed by size (array element in split type [" + array
                + "] ARRAY '(anon)'), new base has only [6485] FWD 'mfd_cell' fwd_kind=struct", problems.get(0).message());
    }

    @ParameterizedTest(name = "{0} onto {1}")
    @CsvSource({"cros_ec_dev, 6.1.0-47", "cros_ec_dev, 6.1.0-56", "lpc_ich, 6.1.0-47", "lpc_ich, 6.1.0-56",
            "rtsx_pci, 6.1.0-47", "rtsx_pci, 6.1.0-56"})
    void relocatesWhereTheKernelDefinesIt(String module, String version) {
        TestData.golden("vmlinux-" + version + ".btf");
        Btf out = Relocator.relocate(split(module), kernel(version));
        assertTrue(Validator.validate(out, new Validator.Options(false, Validator.Profile.KERNEL)).isEmpty());
    }
}
