package io.btfkit.core.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.BtfFormatException;
import org.junit.jupiter.api.Test;

/** The input cap: its spelling, its range, and the system property that sets it. */
class InputLimitsTest {
    @Test
    void sizesWithUnits() {
        assertEquals(4096, InputLimits.parse("4096", "x"));
        assertEquals(512L << 20, InputLimits.parse("512M", "x"));
        assertEquals(1L << 30, InputLimits.parse(" 1g ", "x"));
        assertEquals(64L << 10, InputLimits.parse("64k", "x"));
    }

    @Test
    void nonsenseAndOutOfRangeAreRefused() {
        for (String bad : new String[] {"", "lots", "-1", "0", "2G", "9999999999999G"}) {
            BtfFormatException e = assertThrows(BtfFormatException.class, () -> InputLimits.parse(bad, "BTFKIT_MAX_INPUT"));
            assertTrue(e.getMessage().startsWith("BTFKIT_MAX_INPUT=" + bad + " is "), e.getMessage());
        }
    }

    /** What the messages recommend works (they said 2G, which is past a Java array's limit). */
    @Test
    void theRecommendedSizeIsAccepted() {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("=SIZE \\(at most (\\w+)\\)").matcher(InputLimits.howToRaise());
        assertTrue(m.find(), InputLimits.howToRaise());
        long n = InputLimits.parse(m.group(1), "BTFKIT_MAX_INPUT");
        assertTrue(n > (2047L << 20) - 1 && n <= InputLimits.HARD_MAX, m.group(1));
        BtfFormatException e = assertThrows(BtfFormatException.class, () -> InputLimits.parse("2G", "BTFKIT_MAX_INPUT"));
        assertTrue(e.getMessage().contains("at most " + m.group(1)), e.getMessage());
    }

    @Test
    void thePropertySetsTheCap() {
        String before = System.getProperty(InputLimits.PROPERTY);
        try {
            System.setProperty(InputLimits.PROPERTY, "3M");
            assertEquals(3L << 20, InputLimits.maxBytes());
            // a decompressed input past the cap stops there, saying how to raise it
            byte[] elf = new byte[4 << 20];
            elf[0] = 0x7f;
            elf[1] = 'E';
            elf[2] = 'L';
            elf[3] = 'F';
            byte[] gz = gzip(elf);
            BtfFormatException e = assertThrows(BtfFormatException.class,
                    () -> Decompressor.decompress(gz, Decompressor.Format.GZIP));
            assertTrue(e.getMessage().startsWith("gzip data expands past " + (3L << 20) + " bytes"), e.getMessage());
            assertTrue(e.getMessage().contains("BTFKIT_MAX_INPUT"), e.getMessage());
        } finally {
            if (before == null) {
                System.clearProperty(InputLimits.PROPERTY);
            } else {
                System.setProperty(InputLimits.PROPERTY, before);
            }
        }
    }

    private static byte[] gzip(byte[] data) {
        java.io.ByteArrayOutputStream bos = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream os = new java.util.zip.GZIPOutputStream(bos)) {
            os.write(data);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return bos.toByteArray();
    }
}
